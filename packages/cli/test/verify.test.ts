import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FAIR_FIELDS, parsePhhs, writePhhs, type PhhHand } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { runFelt } from './run-felt.js';

const dir = mkdtempSync(path.join(tmpdir(), 'felt-verify-'));

/** `felt simulate --players 5 --hands 20 --seed 7` of one variant, written to a file. */
function simulateFile(variant: string): string {
  const out = path.join(dir, `${variant.replace('/', '_')}.phhs`);
  const args = ['--variant', variant, '--players', '5', '--hands', '20', '--seed', '7', '--out', out];
  const run = runFelt(['simulate', ...args]);
  expect(run.status, run.stderr).toBe(0);
  return out;
}

describe('felt verify (the command-line contract)', () => {
  it('after felt simulate, every hand is ok, one line per hand in file order, and the exit status is 0', () => {
    for (const variant of ['NT', 'F2L3D']) {
      const file = simulateFile(variant);
      const run = runFelt(['verify', file]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.json).toEqual(
        Array.from({ length: 20 }, (_, i) => ({ file, hand: i + 1, ok: true, fairHand: i + 1 })),
      );
    }
  });

  it("hand is the hand's place in the file, fairHand its _fair_hand number (null for a hand without one)", () => {
    const parsed = parsePhhs(readFileSync(simulateFile('NT'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [, second, third] = parsed.value.map((hand) => {
      if (!hand.ok) throw new Error(hand.error.message);
      return hand.value;
    });
    const unfair = { ...second!, extra: {} };
    const file = path.join(dir, 'places.phhs');
    writeFileSync(file, writePhhs([second!, third!, unfair]));
    const run = runFelt(['verify', file]);
    expect(run.json).toEqual([
      { file, hand: 1, ok: true, fairHand: 2 },
      { file, hand: 2, ok: true, fairHand: 3 },
      {
        file,
        hand: 3,
        ok: false,
        reason: 'fields: _fair_version is missing: the hand was not dealt by the scheme',
        fairHand: null,
      },
    ]);
  });

  it('changing the first d dh p1 card makes hand 1 fail with the card named, and the exit status non-zero', () => {
    const file = simulateFile('NT');
    const text = readFileSync(file, 'utf8');
    const match = /"d dh p1 (..)/.exec(text)!;
    const replacement = match[1] === 'As' ? 'Ks' : 'As';
    const tampered = path.join(dir, 'tampered.phhs');
    writeFileSync(tampered, text.replace(match[0], `"d dh p1 ${replacement}`));
    const run = runFelt(['verify', tampered]);
    expect(run.status).not.toBe(0);
    const lines = run.json as { file: string; hand: number; ok: boolean; reason?: string }[];
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatchObject({ file: tampered, hand: 1, ok: false });
    expect(lines[0]!.reason).toMatch(/^card: actions\[0\]: the file deals /);
    expect(lines.slice(1).every((line) => line.ok)).toBe(true);
  });

  describe('each tampering makes its hand fail with the reason naming what does not match', () => {
    const hands = (): PhhHand[] => {
      const parsed = parsePhhs(readFileSync(simulateFile('NT'), 'utf8'));
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value.map((hand) => {
        if (!hand.ok) throw new Error(hand.error.message);
        return hand.value;
      });
    };
    const flip = (hex: string): string => (hex.startsWith('0') ? '1' : '0') + hex.slice(1);
    const withFields = (hand: PhhHand, fields: Record<string, unknown>): PhhHand =>
      ({ ...hand, extra: { ...hand.extra, ...fields } }) as PhhHand;
    /** Verifies the hands written to a file: the lines, and the exit status. */
    const verify = (name: string, tampered: readonly PhhHand[]) => {
      const file = path.join(dir, name);
      writeFileSync(file, writePhhs(tampered));
      const run = runFelt(['verify', file]);
      const lines = run.json as { hand: number; ok: boolean; reason?: string }[];
      expect(lines).toHaveLength(tampered.length);
      expect(run.status).not.toBe(0);
      return lines;
    };
    const contributionsOf = (hand: PhhHand): string[] => [
      ...(hand.extra[FAIR_FIELDS.contributions] as string[]),
    ];

    it('a changed secret: the commitment', () => {
      const [first, ...rest] = hands();
      const secret = flip(first!.extra[FAIR_FIELDS.secret] as string);
      const lines = verify('secret.phhs', [withFields(first!, { [FAIR_FIELDS.secret]: secret }), ...rest]);
      expect(lines[0]).toMatchObject({ hand: 1, ok: false });
      expect(lines[0]!.reason).toMatch(/^commitment: the secret gives [0-9a-f]{64}, the hand says/);
      expect(lines.slice(1).every((line) => line.ok)).toBe(true);
    });

    it('an altered contribution: its listed hash', () => {
      const [first, ...rest] = hands();
      const contributions = contributionsOf(first!);
      contributions[1] = flip(contributions[1]!);
      const seat = (first!.extra[FAIR_FIELDS.seats] as number[])[1];
      const lines = verify('altered.phhs', [
        withFields(first!, { [FAIR_FIELDS.contributions]: contributions }),
        ...rest,
      ]);
      expect(lines[0]).toMatchObject({
        hand: 1,
        ok: false,
        reason: `contribution: seat ${seat}'s contribution does not match its listed hash`,
      });
    });

    it('a dropped contribution: from those revealed, the count; from every list, the cards it derives', () => {
      const [first, ...rest] = hands();
      const revealed = withFields(first!, { [FAIR_FIELDS.contributions]: contributionsOf(first!).slice(1) });
      expect(verify('dropped-bytes.phhs', [revealed, ...rest])[0]).toMatchObject({
        hand: 1,
        ok: false,
        reason: 'contribution: 5 listed, 4 revealed',
      });
      const everywhere = withFields(first!, {
        [FAIR_FIELDS.seats]: (first!.extra[FAIR_FIELDS.seats] as number[]).slice(1),
        [FAIR_FIELDS.contributionHashes]: (first!.extra[FAIR_FIELDS.contributionHashes] as string[]).slice(1),
        [FAIR_FIELDS.contributions]: contributionsOf(first!).slice(1),
      });
      const [line] = verify('dropped.phhs', [everywhere, ...rest]);
      expect(line).toMatchObject({ hand: 1, ok: false });
      expect(line!.reason).toMatch(/^card: actions\[\d+\]: the file deals /);
    });

    it('a hand moved in the chain: hands 2 and 3 swapped (hand 3 after hand 1 is a gap, which a history may have)', () => {
      const all = hands();
      const lines = verify('moved.phhs', [all[0]!, all[2]!, all[1]!, ...all.slice(3)]);
      expect(lines.map((line) => line.ok).slice(0, 4)).toEqual([true, true, false, true]);
      expect(lines[2]).toMatchObject({
        hand: 3,
        reason: 'chain: hand 2 comes after hand 3 of the same table',
      });
    });

    it("a hand renumbered into another's place: its commitment", () => {
      const all = hands();
      const [line] = verify('renumbered.phhs', [
        withFields(all[1]!, { [FAIR_FIELDS.hand]: 5, _fair_previous: all[3]!.extra[FAIR_FIELDS.commitment] }),
      ]);
      expect(line).toMatchObject({ hand: 1, ok: false });
      expect(line!.reason).toMatch(/^commitment: /);
    });
  });

  it('a file that is not PHH: one line without a hand field, exit status non-zero', () => {
    const bad = path.join(dir, 'bad.phhs');
    writeFileSync(bad, 'this is = = not toml');
    const run = runFelt(['verify', bad]);
    expect(run.status).not.toBe(0);
    expect(run.json).toHaveLength(1);
    expect(run.json[0]).toMatchObject({ file: bad, ok: false });
    expect(run.json[0]).not.toHaveProperty('hand');
  });

  it('reads standard input as "-"; a hand without the fields is not ok', () => {
    const plain = `variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 f"]
`;
    const run = runFelt(['verify', '-'], plain);
    expect(run.status).not.toBe(0);
    expect(run.json).toEqual([
      {
        file: '-',
        hand: 1,
        ok: false,
        reason: 'fields: _fair_version is missing: the hand was not dealt by the scheme',
        fairHand: null,
      },
    ]);
  });

  it('with no file, prints its usage and exits 2', () => {
    const run = runFelt(['verify']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/usage: felt verify/);
  });
});
