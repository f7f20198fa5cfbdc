import { describe, expect, it } from 'vitest';
import { answerOdds, parseOddsArgs } from '../src/commands/odds.js';
import { runFelt } from './run-felt.js';

describe('felt odds (the command-line contract)', () => {
  it('prints one JSON object: AsKs against QhQd over all 1,712,304 boards', () => {
    const run = runFelt(['odds', '--game', 'holdem', 'AsKs', 'QhQd']);
    expect(run.status).toBe(0);
    expect(run.json).toEqual([
      {
        method: 'exact',
        boards: 1_712_304,
        players: [
          {
            hand: 'AsKs',
            win: 0.4602,
            tie: 0.0039,
            equity: 0.4621,
            high: null,
            low: null,
            scoop: null,
            outs: [],
          },
          {
            hand: 'QhQd',
            win: 0.5359,
            tie: 0.0039,
            equity: 0.5379,
            high: null,
            low: null,
            scoop: null,
            outs: [],
          },
        ],
      },
    ]);
  });

  it('takes the board, dead cards and unknown hands, flags in any order', () => {
    const run = runFelt(['odds', 'AhKh', '--board', '2h7h9cQd', '??', '--game=holdem', '--dead', 'As']);
    expect(run.status).toBe(0);
    const [answer] = run.json as [
      { method: string; boards: number; players: { hand: string; outs: string[] }[] },
    ];
    expect(answer.method).toBe('exact');
    // 52 - 2 - 4 - 1 = 45 cards: C(45,2) unknown hands times 43 rivers.
    expect(answer.boards).toBe(990 * 43);
    expect(answer.players.map((player) => player.hand)).toEqual(['AhKh', '??']);
  });

  it('hi/lo games give high, low and scoop shares; equities add up to exactly one', () => {
    const run = runFelt([
      'odds',
      '--game',
      'omaha-hilo',
      '--board',
      '7h5h2c',
      'Ah2hKs9d',
      '3s4sQcJc',
      '9h9cTdTh',
    ]);
    expect(run.status).toBe(0);
    const [answer] = run.json as [
      { players: { equity: number; high: number; low: number; scoop: number }[] },
    ];
    const total = answer.players.reduce((sum, player) => sum + Math.round(player.equity * 10_000), 0);
    expect(total).toBe(10_000);
    for (const player of answer.players) {
      expect(typeof player.high).toBe('number');
      expect(typeof player.low).toBe('number');
      expect(typeof player.scoop).toBe('number');
    }
  });

  it('samples with a seed: the same seed, the same answer, with its standard error', () => {
    const args = ['odds', '--game', 'holdem', '--samples', '5000', '--seed', '42', 'AsKs', 'QhQd'];
    const first = runFelt(args);
    const again = runFelt(args);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(again.stdout);
    const [answer] = first.json as [
      { method: string; boards: number; seed: number; players: { stdErr: number }[] },
    ];
    expect(answer).toMatchObject({ method: 'sampled', boards: 5000, seed: 42 });
    expect(answer.players[0]!.stdErr).toBeGreaterThan(0);
  });

  it('lists every discard of a draw hand with --discards', () => {
    const answer = answerOdds(['--game', 'single-draw-27', '--discards', '7c5d4h3s9c', '8c6d5h3d2s']);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const { discards } = answer.json as { discards: { discard: string; equity: number }[] };
    expect(discards).toHaveLength(32);
    expect(discards[0]!.discard).toBe('9c');
  });

  it('refuses bad input with a typed error on standard output and exit status 1', () => {
    const run = runFelt(['odds', '--game', 'holdem', 'AsKs', 'AsQd']);
    expect(run.status).toBe(1);
    expect(run.json).toEqual([{ error: { code: 'DUPLICATE_CARD', message: 'As appears twice' } }]);
  });

  it.each([
    [['--game', 'holdem', 'AsKs', 'AsQd'], 'DUPLICATE_CARD'],
    [['--game', 'holdem', 'AsKx', 'QdQh'], 'BAD_CARD'],
    [['--game', 'holdem', 'AsKsQs', 'QdQh'], 'BAD_CARD_COUNT'],
    [['--game', 'texas', 'AsKs', 'QdQh'], 'UNKNOWN_GAME'],
    [['AsKs', 'QdQh'], 'BAD_REQUEST'],
    [['--game', 'holdem', '--samples', '0', 'AsKs', 'QdQh'], 'BAD_REQUEST'],
    [['--game', 'holdem', '--seed', '-1', 'AsKs', 'QdQh'], 'BAD_REQUEST'],
    [['--game', 'holdem', '--speed', 'AsKs', 'QdQh'], 'BAD_REQUEST'],
    [['--game', 'holdem', '--discards', 'AsKs', 'QdQh'], 'BAD_REQUEST'],
  ])('refuses %j with %s', (args, code) => {
    const answer = answerOdds(args);
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.code).toBe(code);
  });

  it('reads flags as --flag value or --flag=value, and refuses a flag twice', () => {
    const parsed = parseOddsArgs(['--game=razz', '--seed', '3', '--samples=10', 'As2d3c', '??']);
    expect(parsed.ok && parsed.value).toEqual({
      request: { game: 'razz', hands: ['As2d3c', '??'] },
      options: { samples: 10, seed: 3 },
      discards: false,
    });
    const twice = parseOddsArgs(['--game', 'holdem', '--game', 'omaha']);
    expect(twice.ok).toBe(false);
  });
});
