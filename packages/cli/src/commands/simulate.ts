import { writeFile } from 'node:fs/promises';
import { simulatePhh, writePhhs } from '@felt/engine';
import type { Command } from './command.js';

const USAGE =
  'usage: felt simulate --variant CODE --players N --hands H --seed S --out FILE.phhs [--house]\n' +
  '  plays H hands with random legal actions and writes them as PHH with finishing_stacks (--out - : standard output);\n' +
  '  the cards are dealt by the fair-dealing scheme, the seed standing in for the secrets, so felt verify checks them\n';

interface SimulateArgs {
  variant: string;
  players: number;
  hands: number;
  seed: number;
  out: string;
  house: boolean;
}

/** Reads the arguments; a message when they are wrong. */
export function parseSimulateArgs(args: readonly string[]): SimulateArgs | string {
  const values: Record<string, string> = {};
  let house = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--house') {
      house = true;
      continue;
    }
    const match = /^--(variant|players|hands|seed|out)(?:=(.*))?$/.exec(arg);
    if (!match) return `unknown argument ${arg}`;
    const value = match[2] ?? args[++i];
    if (value === undefined) return `${arg} needs a value`;
    values[match[1]!] = value;
  }
  const { variant, out } = values;
  if (variant === undefined) return '--variant is required';
  if (out === undefined) return '--out is required';
  const integer = (name: string, fallback: number | null, min: number): number | string => {
    const text = values[name];
    if (text === undefined) return fallback ?? `--${name} is required`;
    const value = Number(text);
    return /^-?\d+$/.test(text) && Number.isSafeInteger(value) && value >= min
      ? value
      : `--${name} must be an integer ≥ ${min}`;
  };
  const players = integer('players', null, 2);
  const hands = integer('hands', 1, 0);
  const seed = integer('seed', 0, Number.MIN_SAFE_INTEGER);
  for (const value of [players, hands, seed]) if (typeof value === 'string') return value;
  return { variant, players: players as number, hands: hands as number, seed: seed as number, out, house };
}

export const simulate: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    const parsed = parseSimulateArgs(args);
    if (typeof parsed === 'string') {
      process.stderr.write(`felt simulate: ${parsed}\n${USAGE}`);
      return 2;
    }
    let result;
    try {
      result = simulatePhh({ ...parsed });
    } catch (error) {
      process.stderr.write(`felt simulate: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    if (!result.ok) {
      process.stderr.write(`felt simulate: ${result.error.message}\n`);
      return 2;
    }
    const text = writePhhs(result.value);
    if (parsed.out === '-') process.stdout.write(text);
    else {
      await writeFile(parsed.out, text, 'utf8');
      process.stdout.write(
        `${JSON.stringify({ out: parsed.out, variant: parsed.variant, hands: result.value.length })}\n`,
      );
    }
    return 0;
  },
};
