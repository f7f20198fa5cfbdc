import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  Hand,
  STRUCTURES,
  VARIANT_IDS,
  deckCards,
  houseRake,
  playRandomHand,
  randomAction,
  randomBelow,
  replayHand,
  sampleConfig,
  seededRandom,
  variantOf,
  type HandAction,
  type HandConfig,
  type RandomSource,
  type Structure,
  type VariantId,
} from '../src/index.js';
import { total } from './hand-helpers.js';

/** FELT_LONG=1 runs the big sizes; CI's default stays well under a minute. */
const LONG = process.env.FELT_LONG === '1';
const RUNS = LONG ? 2000 : 12;
const LONG_TIMEOUT = LONG ? 4 * 3_600_000 : 120_000;

interface HandInput {
  readonly variant: VariantId;
  readonly structure: Structure;
  readonly players: number;
  readonly seed: number;
  readonly shortStacks: boolean;
  readonly autoShowdown: boolean;
  readonly raked: boolean;
}

const arbitraryHand: fc.Arbitrary<HandInput> = fc.record({
  variant: fc.constantFrom(...VARIANT_IDS),
  structure: fc.constantFrom(...STRUCTURES),
  players: fc.integer({ min: 2, max: 10 }),
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  shortStacks: fc.boolean(),
  autoShowdown: fc.boolean(),
  raked: fc.boolean(),
});

function configOf(input: HandInput, random: RandomSource): HandConfig {
  const config = sampleConfig(input.variant, input.structure, input.players, random, {
    minStack: 1,
    maxStack: input.shortStacks ? 12 : 400,
    autoShowdown: input.autoShowdown,
  });
  return input.raked ? { ...config, rake: houseRake } : config;
}

describe('properties over every variant and structure', () => {
  test(
    'chips are conserved: finishing stacks plus rake equal the starting stacks',
    () => {
      fc.assert(
        fc.property(arbitraryHand, (input) => {
          const random = seededRandom(input.seed);
          const config = configOf(input, random);
          const hand = playRandomHand(config, random);
          const finishing = hand.finishingStacks()!;
          expect(finishing.every((s) => s >= 0 && Number.isInteger(s))).toBe(true);
          expect(total(finishing) + hand.snapshot().rake).toBe(total(config.stacks));
          const awarded = hand.events.reduce((sum, e) => sum + (e.type === 'award' ? e.amount : 0), 0);
          const committed = hand.snapshot().players.reduce((sum, p) => sum + p.committed, 0);
          expect(awarded + hand.snapshot().rake).toBe(committed);
        }),
        { numRuns: RUNS * 4 },
      );
    },
    LONG_TIMEOUT,
  );

  test(
    'the random legal-action driver never reaches an illegal or stuck state, and every listed action is accepted',
    () => {
      fc.assert(
        fc.property(arbitraryHand, (input) => {
          const random = seededRandom(input.seed);
          const created = Hand.create(configOf(input, random), random);
          if (!created.ok) throw new Error(created.error.message);
          const hand = created.value;
          let steps = 0;
          while (!hand.isDone) {
            expect(steps++).toBeLessThan(2000);
            const legal = hand.legalActions();
            if (legal) {
              const p = legal.player;
              if (legal.check || legal.call !== null)
                expect(hand.can({ type: 'check-call', player: p })).toBe(true);
              expect(hand.can({ type: 'fold', player: p })).toBe(legal.fold);
              if (legal.raise) {
                expect(hand.can({ type: 'bet-raise', player: p, to: legal.raise.min })).toBe(true);
                if (!legal.raiseTos)
                  expect(hand.can({ type: 'bet-raise', player: p, to: legal.raise.max })).toBe(true);
                expect(hand.can({ type: 'bet-raise', player: p, to: legal.raise.max + 1 })).toBe(false);
              } else if (legal.discard === null && !legal.split) {
                expect(hand.can({ type: 'bet-raise', player: p, to: 1_000_000 })).toBe(false);
              }
            } else {
              expect(['deal', 'showdown']).toContain(hand.phase);
            }
            const action = randomAction(hand, random)!;
            const result = hand.apply(action);
            expect(result.ok).toBe(true);
          }
        }),
        { numRuns: RUNS * 4 },
      );
    },
    LONG_TIMEOUT,
  );

  test(
    'every refused action leaves the state unchanged',
    () => {
      fc.assert(
        fc.property(arbitraryHand, (input) => {
          const random = seededRandom(input.seed);
          const config = configOf(input, random);
          const created = Hand.create(config, random);
          if (!created.ok) throw new Error(created.error.message);
          const hand = created.value;
          const deck = deckCards(variantOf(config.variant).deck);
          while (!hand.isDone) {
            for (let i = 0; i < 3; i++) {
              const bogus = bogusAction(random, config.stacks.length, deck);
              if (hand.can(bogus)) continue;
              const before = JSON.stringify(hand.snapshot());
              const result = hand.apply(bogus);
              expect(result.ok).toBe(false);
              expect(JSON.stringify(hand.snapshot())).toBe(before);
            }
            expect(hand.apply(randomAction(hand, random)!).ok).toBe(true);
          }
          expect(hand.apply({ type: 'deal' })).toMatchObject({ ok: false, error: { code: 'HAND_OVER' } });
        }),
        { numRuns: RUNS * 2 },
      );
    },
    LONG_TIMEOUT,
  );

  test(
    "replaying a hand's own events gives the same state",
    () => {
      fc.assert(
        fc.property(arbitraryHand, (input) => {
          const random = seededRandom(input.seed);
          const config = configOf(input, random);
          const hand = playRandomHand(config, random);
          const replayed = replayHand(config, hand.events);
          if (!replayed.ok) throw new Error(replayed.error.message);
          expect(replayed.value.snapshot()).toEqual(hand.snapshot());
        }),
        { numRuns: RUNS * 4 },
      );
    },
    LONG_TIMEOUT,
  );

  test(
    'a hand that cannot win at the showdown (canWinShowdown false) wins nothing when shown; the first to show always can',
    () => {
      let beaten = 0;
      fc.assert(
        fc.property(arbitraryHand, (input) => {
          const random = seededRandom(input.seed);
          const config = configOf({ ...input, autoShowdown: false }, random);
          const created = Hand.create(config, random);
          if (!created.ok) throw new Error(created.error.message);
          const hand = created.value;
          const couldWin = new Map<number, boolean>();
          for (let steps = 0; hand.phase !== 'done'; steps++) {
            if (steps > 10_000) throw new Error('hand did not end');
            let action: HandAction | null;
            if (hand.phase === 'showdown') {
              const player = hand.showdownPending()[0]!;
              couldWin.set(player, hand.canWinShowdown(player));
              action = { type: 'show', player };
            } else action = randomAction(hand, random);
            const result = hand.apply(action!);
            if (!result.ok) throw new Error(result.error.message);
          }
          const order = [...couldWin.keys()];
          if (order.length > 0) expect(couldWin.get(order[0]!)).toBe(true);
          for (const [player, could] of couldWin) {
            if (could) continue;
            beaten++;
            // 32-card draw's agreed pots are shared whatever the hands (RULES.md §11): not a showdown's.
            const won = hand.events.some(
              (e) => e.type === 'award' && e.player === player && e.share !== 'agreed',
            );
            expect(won).toBe(false);
          }
        }),
        { numRuns: RUNS * 8 },
      );
      // The property must have met beaten hands, or it proved nothing.
      expect(beaten).toBeGreaterThan(0);
    },
    LONG_TIMEOUT,
  );

  test(
    'every variant × structure plays to the end (a sweep with a seeded driver)',
    () => {
      const random = seededRandom(2026);
      const perCombination = LONG ? 25_000 : 12; // FELT_LONG: 17 variants × 5 structures × 25,000 ≈ 2.1 million hands
      let hands = 0;
      for (const variant of VARIANT_IDS) {
        for (const structure of STRUCTURES) {
          for (let i = 0; i < perCombination; i++) {
            const players = 2 + randomBelow(random, variantOf(variant).seats - 1);
            const config = sampleConfig(variant, structure, players, random, {
              maxStack: i % 3 === 0 ? 15 : 500,
            });
            const hand = playRandomHand(config, random);
            expect(total(hand.finishingStacks()!)).toBe(total(config.stacks));
            hands++;
          }
        }
      }
      expect(hands).toBe(VARIANT_IDS.length * STRUCTURES.length * perCombination);
    },
    LONG_TIMEOUT,
  );
});

function bogusAction(random: RandomSource, players: number, deck: readonly number[]): HandAction {
  const player = randomBelow(random, players + 1) - (randomBelow(random, 8) === 0 ? 1 : 0);
  const someCards = (): number[] =>
    Array.from({ length: randomBelow(random, 6) }, () => deck[randomBelow(random, deck.length)]!);
  switch (randomBelow(random, 9)) {
    case 0:
      return { type: 'fold', player };
    case 1:
      return { type: 'check-call', player };
    case 2:
      return { type: 'bring-in', player };
    case 3:
      return { type: 'bet-raise', player, to: randomBelow(random, 1000) - 5 };
    case 4:
      return { type: 'deal', cards: someCards() };
    case 5:
      return { type: 'discard', player, cards: someCards() };
    case 6:
      return { type: 'show', player, cards: someCards() };
    case 7:
      return { type: 'muck', player };
    default:
      return { type: 'split', player, accept: randomBelow(random, 2) === 0 };
  }
}
