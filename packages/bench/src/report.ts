import type { BenchRow } from './registry.js';

/** `felt bench --json`: one object a line; `peers` holds numbers only. */
export function jsonLine(row: BenchRow): string {
  const { name, unit, felt, peers, agreement } = row;
  return JSON.stringify({
    name,
    unit,
    felt,
    peers,
    ...(agreement && { disagreements: agreement.disagreements }),
  });
}

const higherIsBetter = (unit: string): boolean => unit.endsWith('/s');

/** A rate with three significant digits and k or M; other figures as they are. */
function figure(value: number, unit: string): string {
  if (!higherIsBetter(unit)) return `${value} ${unit}`;
  const rounded = Number(value.toPrecision(3));
  const [scaled, suffix] =
    rounded >= 1e6 ? [rounded / 1e6, 'M'] : rounded >= 1e3 ? [rounded / 1e3, 'k'] : [rounded, ''];
  return `${scaled.toPrecision(3)}${suffix} ${unit}`;
}

const INDENT = ' '.repeat(16);

/** The figures of a row for people: Felt, the ratio to the best peer, every peer, the disagreements. */
export function textLines(row: BenchRow): string[] {
  const { name, unit, felt, peers, agreement } = row;
  const entries = Object.entries(peers);
  let head = `${name.padEnd(INDENT.length - 1)} Felt ${figure(felt, unit)}`;
  const best = entries.reduce<[string, number] | undefined>(
    (found, entry) =>
      found === undefined || (higherIsBetter(unit) ? entry[1] > found[1] : entry[1] < found[1])
        ? entry
        : found,
    undefined,
  );
  if (best !== undefined) {
    const [peer, value] = best;
    head += `   best peer ${peer} ${figure(value, unit)}   Felt/${peer} = ${(felt / value).toFixed(2)}×`;
  }
  const lines = [head];
  if (entries.length > 0)
    lines.push(INDENT + entries.map(([peer, value]) => `${peer} ${figure(value, unit)}`).join(' · '));
  if (agreement) {
    const counts = Object.entries(agreement.disagreements).map(([peer, count]) => `${peer} ${count}`);
    lines.push(`${INDENT}orders differently from Felt, of ${agreement.pairs}: ${counts.join(' · ')}`);
  }
  return lines;
}
