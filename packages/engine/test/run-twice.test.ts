/**
 * Run it twice (docs/rules.md): when it may be agreed, each run splitting every pot by itself with its
 * own odd chip, the rake taken once, and chips conserved over random hands run twice.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  STRUCTURES,
  randomAction,
  randomBelow,
  replayHand,
  sampleConfig,
  seededRandom,
  houseRake,
  Hand,
  type HandConfig,
  type RakeInput,
  type VariantId,
} from '../src/index.js';
import { act, cards, deal, dealHoles, raiseTo, call, start, total } from './hand-helpers.js';

const RUN_TWICE = { type: 'run-twice' } as const;

/** Awards of a finished hand: pot, player, amount, share and run. */
const awardsOf = (hand: Hand) =>
  hand.events.flatMap((e) =>
    e.type === 'award'
      ? [{ pot: e.pot, player: e.player, amount: e.amount, share: e.share, run: e.run }]
      : [],
  );

/**
 * Heads-up hold'em, position 0 the big blind, 1 the button: the button shoves, the big blind calls.
 * `deadBlind` makes the pot odd.
 */
function headsUpAllIn(holes: [string, string], deadBlind = 0, extra: Partial<HandConfig> = {}): Hand {
  const hand = start({
    variant: 'holdem',
    structure: 'no-limit',
    stacks: [100, 100],
    blinds: [2, 1],
    autoShowdown: true,
    ...(deadBlind > 0 ? { deadBlinds: [deadBlind, 0] } : {}),
    ...extra,
  });
  dealHoles(hand, ...holes);
  raiseTo(hand, 1, 100);
  call(hand, 0);
  return hand;
}

describe('when the board may be run twice', () => {
  test('all in with no betting left and board cards to come: allowed, once', () => {
    const hand = headsUpAllIn(['AsAh', 'KsKh']);
    expect(hand.canRunTwice()).toBe(true);
    act(hand, RUN_TWICE);
    expect(hand.canRunTwice()).toBe(false);
    expect(hand.apply(RUN_TWICE).ok).toBe(false);
    expect(hand.snapshot().runs).toBe(2);
  });

  test('not while two players can still bet', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    dealHoles(hand, 'AsAh', 'KsKh');
    call(hand, 1);
    call(hand, 0);
    expect(hand.pendingDeal()?.kind).toBe('board');
    const refused = hand.apply(RUN_TWICE);
    expect(refused.ok || refused.error.code).toBe('ILLEGAL_ACTION');
  });

  test('not once the whole board is out', () => {
    const hand = headsUpAllIn(['AsAh', 'KsKh']);
    deal(hand, '2c3d4h');
    deal(hand, '9s');
    deal(hand, 'Jc');
    expect(hand.isDone).toBe(true);
    expect(hand.canRunTwice()).toBe(false);
  });

  test('never in a stud game (no board to run), all in on the antes', () => {
    const created = Hand.create(
      { variant: 'stud', structure: 'fixed-limit', stacks: [1, 1], antes: 1, smallBet: 2, bigBet: 4 },
      seededRandom(5),
    );
    if (!created.ok) throw new Error(created.error.message);
    const hand = created.value;
    let asked = 0;
    while (!hand.isDone) {
      expect(hand.canRunTwice()).toBe(false);
      asked++;
      act(hand, hand.nextExposure() ?? randomAction(hand, seededRandom(asked))!);
    }
    expect(asked).toBeGreaterThan(4);
  });

  test('not when the deck cannot deal the rest of the board twice (8-handed 5-card Omaha, all in preflop)', () => {
    const random = seededRandom(3);
    const created = Hand.create(
      { variant: 'omaha5', structure: 'pot-limit', stacks: Array(8).fill(2), blinds: [1, 2] },
      random,
    );
    if (!created.ok) throw new Error(created.error.message);
    const hand = created.value;
    while (hand.phase === 'deal' && hand.pendingDeal()?.kind === 'hole') act(hand, { type: 'deal' });
    for (let p = 2; p < 8; p++) call(hand, p);
    call(hand, 0);
    expect(hand.pendingDeal()?.kind).toBe('board');
    const refused = hand.apply(RUN_TWICE);
    expect(refused.ok || refused.error.code).toBe('NO_DECK');
  });
});

describe('each run splits every pot by itself with its own odd chip', () => {
  test('two runs, two winners: each wins half, the odd chip of the pot to the first run', () => {
    const hand = headsUpAllIn(['AsAh', 'KsKh'], 1);
    act(hand, RUN_TWICE);
    deal(hand, '2c3d4h');
    deal(hand, '9s');
    deal(hand, 'Jc');
    expect(hand.isDone).toBe(false);
    expect(hand.pendingDeal()).toEqual({ kind: 'board', count: 3 });
    deal(hand, '5s6d7c');
    deal(hand, 'Kd');
    deal(hand, '8c');
    expect(hand.isDone).toBe(true);
    const snap = hand.snapshot();
    expect(snap.board).toEqual(cards('2c3d4h9sJc'));
    expect(snap.secondBoard).toEqual(cards('5s6d7cKd8c'));
    // Pot 199 (the big blind all in for 99 after his dead 1; the button's 1 over it returned): the
    // first run's 100 to the aces, the second run's 99 to the kings (trips).
    expect(awardsOf(hand)).toEqual([
      { pot: 0, player: 0, amount: 100, share: 'all', run: 1 },
      { pot: 0, player: 1, amount: 99, share: 'all', run: 2 },
    ]);
    expect(hand.finishingStacks()).toEqual([100, 100]);
  });

  test("a tied run's half is split with its own odd chip; the other run's half goes whole", () => {
    const hand = headsUpAllIn(['2s3h', '2d3c'], 1);
    act(hand, RUN_TWICE);
    // First run (100 of the 199): a club flush for position 1. Second run (99): the board plays, a tie:
    // its odd chip to position 0, the first from the dealer's left.
    deal(hand, '7c8c9c');
    deal(hand, 'Kc');
    deal(hand, 'Ah');
    deal(hand, 'AsKdQc');
    deal(hand, 'Jh');
    deal(hand, '9d');
    expect(awardsOf(hand)).toEqual([
      { pot: 0, player: 1, amount: 100, share: 'all', run: 1 },
      { pot: 0, player: 0, amount: 50, share: 'all', run: 2 },
      { pot: 0, player: 1, amount: 49, share: 'all', run: 2 },
    ]);
  });

  test('side pots: each pot is split between the runs by itself, the runs sharing the flop dealt before', () => {
    // Three players: position 0 all in for 20 on the flop, positions 1 and 2 for 100.
    // The flop is out when the players agree: both runs share it.
    const agreedAfterFlop = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [20, 100, 100],
      blinds: [1, 2],
      autoShowdown: true,
    });
    dealHoles(agreedAfterFlop, 'AsAh', 'KsKh', 'QsQh');
    call(agreedAfterFlop, 2);
    call(agreedAfterFlop, 0);
    call(agreedAfterFlop, 1);
    deal(agreedAfterFlop, '2c3d4h');
    raiseTo(agreedAfterFlop, 0, 18);
    raiseTo(agreedAfterFlop, 1, 98);
    call(agreedAfterFlop, 2);
    expect(agreedAfterFlop.canRunTwice()).toBe(true);
    act(agreedAfterFlop, RUN_TWICE);
    deal(agreedAfterFlop, '9s'); // first run: aces hold
    deal(agreedAfterFlop, 'Jc');
    deal(agreedAfterFlop, 'Qd'); // second run: queens make a set
    deal(agreedAfterFlop, '8c');
    expect(agreedAfterFlop.snapshot().secondBoard).toEqual(cards('2c3d4hQd8c'));
    // Main pot 60 (20 each): 30 a run. Side pot 160 (80 each from positions 1 and 2): 80 a run.
    expect(awardsOf(agreedAfterFlop)).toEqual([
      { pot: 0, player: 0, amount: 30, share: 'all', run: 1 },
      { pot: 0, player: 2, amount: 30, share: 'all', run: 2 },
      { pot: 1, player: 1, amount: 80, share: 'all', run: 1 },
      { pot: 1, player: 2, amount: 80, share: 'all', run: 2 },
    ]);
    expect(agreedAfterFlop.finishingStacks()).toEqual([30, 80, 110]);
  });

  test('hi/lo: each run splits its half into high and low by itself (Omaha hi/lo)', () => {
    const hand = start({
      variant: 'omaha-hilo',
      structure: 'pot-limit',
      stacks: [50, 50],
      blinds: [2, 1],
      autoShowdown: true,
    });
    dealHoles(hand, 'As2sKdKc', 'QhQdJhJd');
    raiseTo(hand, 1, 6);
    raiseTo(hand, 0, 18);
    raiseTo(hand, 1, 50);
    call(hand, 0);
    act(hand, RUN_TWICE);
    // First run: a low for position 0 (A-2 with 3-4-7), a set of queens for position 1.
    deal(hand, '3c4hQc');
    deal(hand, '7d');
    deal(hand, '9s');
    // Second run: no low; kings full... position 0's kings make a set and win the high.
    deal(hand, 'Ks8h9c');
    deal(hand, 'Td');
    deal(hand, 'Ts');
    const awards = awardsOf(hand);
    // Pot 100: 50 a run. Run 1: high 25 to position 1 (set of queens), low 25 to position 0.
    // Run 2: no low, the whole 50 high to position 0 (kings full of tens over a straight).
    expect(awards).toEqual([
      { pot: 0, player: 1, amount: 25, share: 'high', run: 1 },
      { pot: 0, player: 0, amount: 25, share: 'low', run: 1 },
      { pot: 0, player: 0, amount: 50, share: 'all', run: 2 },
    ]);
  });
});

describe('rake is taken once', () => {
  test('the policy is asked once, for the whole pot, and the runs share what is left', () => {
    const asked: RakeInput[] = [];
    const hand = headsUpAllIn(['AsAh', 'KsKh'], 1, {
      rake: (input) => {
        asked.push(input);
        return 5;
      },
    });
    act(hand, RUN_TWICE);
    for (const board of ['2c3d4h', '9s', 'Jc', '5s6d7c', 'Kd', '8c']) deal(hand, board);
    expect(asked).toEqual([{ pot: 199, playersDealt: 2, triggered: true }]);
    expect(hand.events.filter((e) => e.type === 'rake')).toEqual([{ type: 'rake', amount: 5 }]);
    // 194 left: 97 a run.
    expect(awardsOf(hand).map((a) => a.amount)).toEqual([97, 97]);
  });
});

const BOARD_GAMES: readonly VariantId[] = [
  'holdem',
  'shortdeck',
  'omaha',
  'omaha5',
  'omaha-hilo',
  'omaha5-hilo',
];

describe('conservation over random hands run twice', () => {
  test('finishing stacks plus rake equal the starting stacks; awards plus rake equal the chips put in; each pot splits between the runs half and half, the odd chip to the first', () => {
    let ranTwice = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...BOARD_GAMES),
        fc.constantFrom(...STRUCTURES),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 0, max: 0x7fffffff }),
        fc.boolean(),
        (variant, structure, players, seed, raked) => {
          const random = seededRandom(seed);
          const sampled = sampleConfig(variant, structure, players, random, {
            minStack: 1,
            maxStack: 60,
            autoShowdown: true,
          });
          const config: HandConfig = raked ? { ...sampled, rake: houseRake } : sampled;
          const created = Hand.create(config, random);
          if (!created.ok) throw new Error(created.error.message);
          const hand = created.value;
          for (let guard = 0; !hand.isDone; guard++) {
            if (guard > 10_000) throw new Error('the hand did not end');
            if (hand.canRunTwice() && randomBelow(random, 4) > 0) act(hand, RUN_TWICE);
            else act(hand, randomAction(hand, random)!);
          }
          const snap = hand.snapshot();
          expect(total(hand.finishingStacks()!) + snap.rake).toBe(total(config.stacks));
          const awards = awardsOf(hand);
          expect(total(awards.map((a) => a.amount)) + snap.rake).toBe(
            total(snap.players.map((p) => p.committed)),
          );
          if (snap.runs === 2) {
            ranTwice++;
            expect(snap.secondBoard).toHaveLength(snap.board.length);
            for (const pot of new Set(awards.map((a) => a.pot))) {
              const run = (r: 1 | 2) =>
                total(awards.filter((a) => a.pot === pot && a.run === r).map((a) => a.amount));
              if (awards.some((a) => a.pot === pot && a.run === undefined)) continue; // one player's pot
              expect([0, 1]).toContain(run(1) - run(2));
            }
          }
          // The events replay to the same hand, the agreement included.
          const replayed = replayHand(config, hand.events);
          expect(replayed.ok && replayed.value.finishingStacks()).toEqual(hand.finishingStacks());
        },
      ),
      { numRuns: 300 },
    );
    expect(ranTwice).toBeGreaterThan(20);
  });
});
