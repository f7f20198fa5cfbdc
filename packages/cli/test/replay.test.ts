import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FELT, runFelt } from './run-felt.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const wsop = path.join(repoRoot, 'packages', 'engine', 'test', 'data', 'wsop-2023');

const HEADS_UP_PLO = `variant = "PO"
ante_trimming_status = true
antes = [0, 0]
blinds_or_straddles = [500, 1000]
min_bet = 1000
starting_stacks = [1259450.25, 678473.5]
actions = ["d dh p1 Ah3sKsKh", "d dh p2 6d9s7d8h", "p2 cbr 3000", "p1 cbr 9000", "p2 cbr 27000", "p1 cbr 81000", "p2 cc", "d db 4s5c2h", "p1 cbr 91000", "p2 cbr 435000", "p1 cbr 779000", "p2 cc", "p1 sm Ah3sKsKh", "p2 sm 6d9s7d8h", "d db 5h", "d db 9c"]
`;

/** Three-handed no-limit hold'em in euro cents: a 300-cent pot that saw a flop. */
const CENTS = `variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ["d dh p1 AsAh", "d dh p2 7c2d", "d dh p3 KsKh", "p3 cbr 100", "p1 cc", "p2 cc", "d db 2c8dJh", "p1 cc", "p2 cc", "p3 cc", "d db 3s", "p1 cc", "p2 cc", "p3 cc", "d db 9c", "p1 cc", "p2 cc", "p3 cc", "p1 sm AsAh", "p2 sm", "p3 sm"]
`;

/** Three-handed hold'em in whole chips: p1 folds, p2 and p3 split a pot of 5 with the board's royal flush. */
const SPLIT = `variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7h8h", "d dh p2 2c3d", "d dh p3 2d3c", "p3 cc", "p1 f", "p2 cc", "d db AsKsQs", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc", "d db Ts", "p2 cc", "p3 cc", "p2 sm 2c3d", "p3 sm 2d3c"]
`;

describe('felt replay (the command-line contract)', () => {
  it('prints the finishing stacks of a conformance hand, with the path as given', () => {
    const file = path.join(wsop, 'test_2023_43_5__test_1_00_02_07.phh');
    const expected = /\[(.*)\]/.exec(readFileSync(file, 'utf8').split('\n')[1] ?? '')?.[1] ?? '';
    const run = runFelt(['replay', file]);
    expect(run.status).toBe(0);
    expect(run.json).toEqual([{ file, hand: 1, finishing_stacks: expected.split(', ').map(Number) }]);
  });

  it('reads standard input as "-" and keeps decimal amounts exact', () => {
    const run = runFelt(['replay', '-'], HEADS_UP_PLO);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('{"file":"-","hand":1,"finishing_stacks":[1937923.75,0]}\n');
  });

  it('reports the first refused action by its index and exits 1; other hands go on', () => {
    const file = `[1]
${CENTS.replace('"p3 cbr 100"', '"p3 cbr 15"')}
[2]
${CENTS}`;
    const run = runFelt(['replay', '-'], file);
    expect(run.status).toBe(1);
    const [first, second] = run.json as Record<string, unknown>[];
    expect(first).toMatchObject({ file: '-', hand: 1, error: { code: 'BAD_AMOUNT', action: 3 } });
    expect(second).toEqual({ file: '-', hand: 2, finishing_stacks: [1200, 900, 900] });
  });

  it('prints a line for a file that cannot be parsed and goes on to the next', () => {
    const good = path.join(wsop, 'test_2023_43_5__test_1_00_02_07.phh');
    const run = runFelt(['replay', '-', '/nonexistent/file.phh', good], 'variant = [');
    expect(run.status).toBe(1);
    expect(run.json).toHaveLength(3);
    expect(run.json[0]).toMatchObject({ file: '-', error: { code: 'BAD_PHH' } });
    expect(run.json[1]).toMatchObject({ file: '/nonexistent/file.phh', error: { code: 'READ_ERROR' } });
    expect(run.json[2]).toMatchObject({ file: good, hand: 1 });
  });

  it('--rake house takes the house rake, amounts read as euro cents', () => {
    expect(runFelt(['replay', '-'], CENTS).json).toEqual([
      { file: '-', hand: 1, finishing_stacks: [1200, 900, 900] },
    ]);
    const raked = runFelt(['replay', '--rake', 'house', '-'], CENTS);
    expect(raked.status).toBe(0);
    // €3.00 pot: €0.01 per full €0.20 = 15 cents.
    expect(raked.json).toEqual([{ file: '-', hand: 1, finishing_stacks: [1185, 900, 900] }]);
  });

  it('--text prints readable hand histories instead', () => {
    const run = spawnSync(process.execPath, [FELT, 'replay', '--text', '-'], {
      input: HEADS_UP_PLO,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Felt Hand #1: Pot Limit Omaha 500/1000 [PO]');
    expect(run.stdout).toContain('p2: raises 2000.00 to 3000.00');
    expect(run.stdout).toContain(
      'Seat 1: p1 started with 1259450.25, finished with 1937923.75 (won 678473.50)',
    );
  });

  it("a finishing_stacks finer than the game's unit: played in the game's unit, the disagreement reported, exit 1", () => {
    const run = runFelt(['replay', '-'], `${SPLIT}finishing_stacks = [99, 100.5, 100.5]\n`);
    expect(run.status).toBe(1);
    expect(run.json).toEqual([
      {
        file: '-',
        hand: 1,
        finishing_stacks: [99, 101, 100],
        error: {
          code: 'RESULT_DISAGREES',
          field: 'finishing_stacks',
          message:
            "finishing_stacks: the file says [99, 100.5, 100.5], finer than the game's unit of 1 (its stacks, forced bets, limits and bets)",
        },
      },
    ]);
  });

  it('answer fields other than the replay are reported as a disagreement; other hands go on', () => {
    const file = `[1]
${SPLIT}finishing_stacks = [99, 100, 101]
[2]
${SPLIT}winnings = [0, 5, 0]
[3]
${SPLIT}finishing_stacks = [99, 101, 100]
winnings = [0, 3, 2]
`;
    const run = runFelt(['replay', '-'], file);
    expect(run.status).toBe(1);
    expect(run.json).toEqual([
      {
        file: '-',
        hand: 1,
        finishing_stacks: [99, 101, 100],
        error: {
          code: 'RESULT_DISAGREES',
          field: 'finishing_stacks',
          message: 'finishing_stacks: the file says [99, 100, 101], the replay [99, 101, 100]',
        },
      },
      {
        file: '-',
        hand: 2,
        finishing_stacks: [99, 101, 100],
        error: {
          code: 'RESULT_DISAGREES',
          field: 'winnings',
          message: 'winnings: the file says [0, 5, 0], the replay [0, 3, 2]',
        },
      },
      { file: '-', hand: 3, finishing_stacks: [99, 101, 100] },
    ]);
  });

  it('--text: a disagreement follows the history as an error line, exit 1', () => {
    const run = spawnSync(process.execPath, [FELT, 'replay', '--text', '-'], {
      input: `${SPLIT}finishing_stacks = [99, 100.5, 100.5]\n`,
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('Seat 2: p2 started with 100, finished with 101 (won 1)');
    const last = run.stdout.trimEnd().split('\n').at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ file: '-', hand: 1, error: { code: 'RESULT_DISAGREES' } });
  });

  it('refuses bad usage with status 2', () => {
    expect(runFelt(['replay']).status).toBe(2);
    expect(runFelt(['replay', '--rake', 'ten', 'x.phh']).status).toBe(2);
  });
});
