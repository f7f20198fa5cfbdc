import { Hand, parseCards } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { resolveTable } from '../src/table/config.js';
import type { TableCurrency } from '../src/table/types.js';
import {
  afterHand,
  gameFor,
  gamesOfLevel,
  levelAt,
  ROTATION_START,
  seatsPerTable,
  validateDefinition,
  type DefinitionErrorCode,
  type Level,
  type RotationState,
  type TournamentDefinition,
} from '../src/tournament/index.js';

const sitAndGo: TournamentDefinition = {
  name: 'Sunday NL',
  kind: 'sit-and-go',
  games: [{ game: 'holdem', structure: 'no-limit' }],
  levels: [
    { blinds: { small: 25, big: 50 } },
    { blinds: { small: 50, big: 100 }, ante: 100, bigBlindAnte: true },
  ],
  levelLength: { unit: 'minutes', value: 10 },
  breaks: { everyLevels: 4, minutes: 5 },
  startingChips: 5_000,
  minEntrants: 2,
  maxEntrants: 10,
  money: 'real',
  buyIn: 1_000,
  fee: 100,
};

const holdem: TournamentDefinition = {
  ...sitAndGo,
  kind: 'scheduled',
  startsAt: 1_800_000_000_000,
  maxEntrants: 1_000,
  lateRegistrationLevels: 1,
};

/** A mixed level: blinds and limits for the flop games, ante and bring-in for stud. */
const mixedLevel = (k: number): Level => ({
  blinds: { small: 10 * k, big: 20 * k },
  limits: { small: 20 * k, big: 40 * k },
  ante: 3 * k,
  bringIn: 5 * k,
});

const horse: TournamentDefinition = {
  ...holdem,
  name: 'HOSE',
  games: [
    { game: 'holdem', structure: 'fixed-limit' },
    { game: 'omaha-hilo', structure: 'fixed-limit' },
    { game: 'stud', structure: 'fixed-limit' },
    { game: 'stud-hilo', structure: 'fixed-limit' },
  ],
  levels: [mixedLevel(1), mixedLevel(2), mixedLevel(3), mixedLevel(4)],
};

const errorOf = (def: TournamentDefinition): DefinitionErrorCode | null => {
  const result = validateDefinition(def);
  return result.ok ? null : result.error.code;
};

describe('tournament definition', () => {
  it('accepts a no-limit hold’em tournament with a big-blind ante and a mixed game of four', () => {
    expect(validateDefinition(holdem)).toEqual({ ok: true, value: holdem });
    expect(errorOf(horse)).toBeNull();
  });

  it('seat count follows the smallest game in the rotation (issue 20)', () => {
    expect(seatsPerTable(holdem)).toBe(10);
    expect(seatsPerTable(horse)).toBe(8);
    expect(seatsPerTable({ games: [...horse.games, { game: 'draw5', structure: 'fixed-limit' }] })).toBe(6);
    expect(errorOf({ ...horse, seats: 9 })).toBe('BAD_SEATS');
    expect(errorOf({ ...horse, seats: 6 })).toBeNull();
    expect(errorOf({ ...horse, seats: 1 })).toBe('BAD_SEATS');
  });

  it('each level gives what its games need: blinds, bring-in, limits', () => {
    expect(errorOf({ ...holdem, levels: [{ ante: 10 }] })).toBe('BAD_LEVELS');
    expect(errorOf({ ...holdem, levels: [{ blinds: { small: 50, big: 25 } }] })).toBe('BAD_LEVELS');
    expect(errorOf({ ...holdem, levels: [{ blinds: { small: 25, big: 50 }, ante: -1 }] })).toBe('BAD_LEVELS');
    const stud = { ...holdem, games: [{ game: 'stud', structure: 'fixed-limit' }] } as const;
    expect(errorOf({ ...stud, levels: [{ ante: 5, limits: { small: 20, big: 40 } }] })).toBe('BAD_LEVELS');
    expect(errorOf({ ...stud, levels: [{ ante: 5, bringIn: 10 }] })).toBe('BAD_LEVELS');
    expect(errorOf({ ...stud, levels: [{ ante: 5, bringIn: 30, limits: { small: 20, big: 40 } }] })).toBe(
      'BAD_LEVELS',
    );
    expect(
      errorOf({ ...stud, levels: [{ ante: 5, bringIn: 10, limits: { small: 20, big: 40 } }] }),
    ).toBeNull();
    const spread = { ...holdem, games: [{ game: 'holdem', structure: 'spread-limit' }] } as const;
    expect(
      errorOf({ ...spread, levels: [{ blinds: { small: 1, big: 2 }, spreadLimits: [2, 4, 6, 6] }] }),
    ).toBeNull();
    expect(errorOf({ ...spread, levels: [{ blinds: { small: 1, big: 2 }, spreadLimits: [] }] })).toBe(
      'BAD_LEVELS',
    );
  });

  it('a level changing game every level needs only its own game’s stakes; every orbit, every game’s', () => {
    const perLevel: TournamentDefinition = {
      ...horse,
      levels: [
        { blinds: { small: 10, big: 20 }, limits: { small: 20, big: 40 } },
        { blinds: { small: 15, big: 30 }, limits: { small: 30, big: 60 } },
        { ante: 5, bringIn: 10, limits: { small: 40, big: 80 } },
        { ante: 5, bringIn: 15, limits: { small: 50, big: 100 } },
      ],
    };
    expect(errorOf(perLevel)).toBeNull();
    expect(errorOf({ ...perLevel, rotateEvery: 'orbit' })).toBe('BAD_LEVELS');
    expect(gamesOfLevel(perLevel, 2)).toEqual([{ game: 'stud', structure: 'fixed-limit' }]);
    expect(gamesOfLevel({ ...perLevel, rotateEvery: 'orbit' }, 2)).toHaveLength(4);
  });

  it('rejects bad games, lengths, breaks, chips, entrants, money, payouts and options with their codes', () => {
    expect(errorOf({ ...holdem, name: ' ' })).toBe('BAD_NAME');
    expect(errorOf({ ...holdem, games: [] })).toBe('BAD_GAMES');
    expect(errorOf({ ...holdem, games: [{ game: 'razz', structure: 'fixed-limit' }] })).toBe('BAD_GAMES');
    expect(errorOf({ ...holdem, levels: [] })).toBe('BAD_LEVELS');
    expect(errorOf({ ...holdem, levelLength: { unit: 'hands', value: 0 } })).toBe('BAD_LEVEL_LENGTH');
    expect(errorOf({ ...holdem, breaks: { everyLevels: 0, minutes: 5 } })).toBe('BAD_BREAKS');
    expect(errorOf({ ...holdem, startingChips: 0 })).toBe('BAD_CHIPS');
    expect(errorOf({ ...holdem, minEntrants: 10, maxEntrants: 9 })).toBe('BAD_ENTRANTS');
    expect(errorOf({ ...sitAndGo, maxEntrants: 11 })).toBe('BAD_ENTRANTS');
    expect(errorOf(sitAndGo)).toBeNull();
    expect(errorOf({ ...sitAndGo, lateRegistrationLevels: 1 })).toBe('BAD_ENTRANTS');
    expect(errorOf({ ...sitAndGo, startsAt: 0 })).toBe('BAD_ENTRANTS');
    const { startsAt, ...unscheduled } = holdem;
    expect(startsAt).toBeDefined();
    expect(errorOf(unscheduled)).toBe('BAD_ENTRANTS');
    expect(errorOf({ ...holdem, fee: 0.5 })).toBe('BAD_MONEY');
    expect(errorOf({ ...holdem, payouts: [{ fromEntrants: 2, shares: [6_000, 3_000] }] })).toBe(
      'BAD_PAYOUTS',
    );
    expect(errorOf({ ...holdem, payouts: [{ fromEntrants: 2, shares: [3_000, 7_000] }] })).toBe(
      'BAD_PAYOUTS',
    );
    expect(errorOf({ ...holdem, payouts: [{ fromEntrants: 3, shares: [10_000] }] })).toBe('BAD_PAYOUTS');
    expect(
      errorOf({
        ...holdem,
        payouts: [
          { fromEntrants: 2, shares: [10_000] },
          { fromEntrants: 10, shares: [6_000, 4_000] },
        ],
      }),
    ).toBeNull();
    const rebuy = {
      cost: 1_000,
      fee: 0,
      chips: 5_000,
      maxPerPlayer: 2,
      maxStack: 5_000,
      window: { fromLevel: 0, untilLevel: 5 },
    };
    expect(errorOf({ ...holdem, rebuy })).toBe('BAD_OPTION');
    expect(errorOf({ ...holdem, rebuy: { ...rebuy, window: { fromLevel: 0, untilLevel: 1 } } })).toBeNull();
    expect(
      errorOf({ ...holdem, reEntry: { maxPerPlayer: 0, window: { fromLevel: 0, untilLevel: 1 } } }),
    ).toBe('BAD_OPTION');
  });

  it('after the last level the last level goes on', () => {
    expect(levelAt(holdem, 1)).toBe(holdem.levels[1]);
    expect(levelAt(holdem, 7)).toBe(holdem.levels[1]);
  });
});

describe('mixed-game rotation', () => {
  it('changing every level: the game follows the level', () => {
    expect([0, 1, 2, 3, 4].map((level) => gameFor(horse, level, ROTATION_START).game)).toEqual([
      'holdem',
      'omaha-hilo',
      'stud',
      'stud-hilo',
      'holdem',
    ]);
  });

  it('changing every orbit: the next game after as many hands as players were dealt the first hand', () => {
    const orbit = { ...horse, rotateEvery: 'orbit' as const };
    let state: RotationState = ROTATION_START;
    const games: string[] = [];
    // 3 players the first orbit, then 2 (one out): 3 hands of hold'em, then 2 of Omaha hi/lo.
    for (const dealt of [3, 3, 3, 2, 2, 2]) {
      games.push(gameFor(orbit, 0, state).game);
      state = afterHand(state, dealt);
    }
    expect(games).toEqual(['holdem', 'holdem', 'holdem', 'omaha-hilo', 'omaha-hilo', 'stud']);
  });
});

describe('heads-up fixed limit (004)', () => {
  /** A heads-up hand at a table of `currency`, after a bet and three raises before the flop. */
  function cappedAfterThreeRaises(currency: TableCurrency): boolean {
    const resolved = resolveTable({
      id: 'hu',
      name: 'hu',
      game: 'holdem',
      structure: 'fixed-limit',
      stakes: { small: 2, big: 4 },
      currency,
      seats: 2,
    });
    const created = Hand.create({ ...resolved.engine, stacks: [1000, 1000], blinds: [2, 1] });
    if (!created.ok) throw new Error(created.error.message);
    const hand = created.value;
    for (const text of ['AsKs', 'QhQd']) {
      const holes = parseCards(text);
      if (!holes.ok || !hand.apply({ type: 'deal', cards: holes.value }).ok) throw new Error('deal refused');
    }
    // The big blind is the bet; the button raises to 4, the big blind to 6, the button to 8: three raises.
    for (const [player, to] of [
      [1, 4],
      [0, 6],
      [1, 8],
    ] as const) {
      const raised = hand.apply({ type: 'bet-raise', player, to });
      if (!raised.ok) throw new Error(raised.error.message);
    }
    return hand.legalActions()!.raise === null;
  }

  it('a tournament table keeps the betting cap heads-up; a cash table (play or real money) does not', () => {
    expect(cappedAfterThreeRaises('chips')).toBe(true);
    expect(cappedAfterThreeRaises('real')).toBe(false);
    expect(cappedAfterThreeRaises('play')).toBe(false);
  });
});
