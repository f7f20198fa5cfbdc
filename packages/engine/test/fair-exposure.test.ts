/**
 * The reveal rule's judge (docs/fairness.md §8), `secretExposesNothingHidden`, over random hands of
 * every game dealt from the scheme's deck: it says "nothing hidden" exactly when every deck position
 * the hand took — counted from the words the engine read from the stream, burns included — holds a
 * card every player saw (the snapshot's board, up cards and shown hands) and nobody discarded; and
 * then the positions after the last take are exactly the cards nobody saw, so revealing them tells
 * nothing new.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deckCards,
  deckOrder,
  fairDeal,
  Hand,
  NO_PREVIOUS_COMMITMENT,
  randomAction,
  randomBelow,
  sampleConfig,
  secretExposesNothingHidden,
  seededRandom,
  STRUCTURES,
  VARIANT_IDS,
  variantOf,
  type Card,
  type DeckKind,
  type HandAction,
  type RandomSource,
  type VariantId,
} from '../src/index.js';

/** The scheme's stream for a secret, counting the words read from it. */
function countedStream(secret: Uint8Array): { source: RandomSource; words: () => number } {
  const dealt = fairDeal({ table: 't', hand: 1, previous: NO_PREVIOUS_COMMITMENT, secret }, []);
  if (!dealt.ok) throw new Error(dealt.error.message);
  const inner = dealt.value.random();
  let words = 0;
  return {
    source: {
      nextUint32: () => {
        words++;
        return inner.nextUint32();
      },
    },
    words: () => words,
  };
}

/**
 * How many positions a source that read `words` words took, by §5's taking replayed alone (a take of
 * the last card reads none: it counts when that card was dealt).
 */
function takesOf(kind: DeckKind, secret: Uint8Array, words: number, dealtLast: boolean): number {
  const { source, words: read } = countedStream(secret);
  const stub = deckCards(kind);
  let takes = 0;
  while (stub.length > 1 && read() < words) {
    const j = randomBelow(source, stub.length);
    [stub[j], stub[stub.length - 1]] = [stub[stub.length - 1]!, stub[j]!];
    stub.pop();
    takes++;
  }
  return takes + (stub.length === 1 && dealtLast ? 1 : 0);
}

/** A passive action where there is one (call, check, bring in, stand pat, show), else null. */
function passiveAction(hand: Hand): HandAction | null {
  if (hand.phase === 'showdown') return { type: 'show', player: hand.showdownPending()[0]! };
  if (hand.phase !== 'bet' && hand.phase !== 'draw') return null;
  const legal = hand.legalActions()!;
  if (legal.discard !== null) return { type: 'discard', player: legal.player, cards: [] };
  if (legal.bringIn !== null) return { type: 'bring-in', player: legal.player };
  if (legal.split) return null;
  return { type: 'check-call', player: legal.player };
}

interface Dealt {
  readonly hand: Hand;
  readonly order: Card[];
  readonly taken: number;
}

/** A hand of `variant` dealt from a secret; each decision passive with probability `calm`/4. */
function dealtHand(variant: VariantId, players: number, seed: number, calm: number): Dealt {
  const random = seededRandom(seed);
  const secret = new Uint8Array(32).map(() => randomBelow(random, 256));
  const structure = STRUCTURES[randomBelow(random, STRUCTURES.length)]!;
  const config = sampleConfig(variant, structure, players, random, { autoShowdown: false });
  const stream = countedStream(secret);
  const created = Hand.create(config, stream.source);
  if (!created.ok) throw new Error(created.error.message);
  const hand = created.value;
  for (let step = 0; hand.phase !== 'done'; step++) {
    if (step > 10_000) throw new Error('the hand did not end');
    const runTwice: HandAction = { type: 'run-twice' };
    const passive = passiveAction(hand);
    const action =
      hand.can(runTwice) && randomBelow(random, 2) === 0
        ? runTwice
        : passive !== null && randomBelow(random, 4) < calm
          ? passive
          : randomAction(hand, random)!;
    const applied = hand.apply(action);
    if (!applied.ok) throw new Error(applied.error.message);
  }
  const kind = variantOf(variant).deck;
  const order = deckOrder(kind, countedStream(secret).source);
  const dealtCards = new Set<Card | null>();
  for (const event of hand.events)
    if (event.type === 'deal-hole' || event.type === 'deal-board' || event.type === 'deal-draw')
      for (const card of event.cards) dealtCards.add(card);
  return { hand, order, taken: takesOf(kind, secret, stream.words(), dealtCards.has(order.at(-1)!)) };
}

/** Every card every player saw, from the hand's final state: boards, up cards, shown hands. */
function seenByAll(hand: Hand): Set<Card> {
  const snapshot = hand.snapshot();
  const seen = new Set<Card>();
  const add = (card: Card | null): void => {
    if (card !== null) seen.add(card);
  };
  snapshot.board.forEach(add);
  snapshot.secondBoard?.forEach(add);
  for (const player of snapshot.players)
    player.cards.forEach((card, i) => {
      if (player.shown || player.up[i] === true) add(card);
    });
  return seen;
}

const discarded = (hand: Hand): boolean =>
  hand.events.some((event) => event.type === 'discard' && event.cards.length > 0);

const anyHand = fc.record({
  variant: fc.constantFrom(...VARIANT_IDS),
  players: fc.integer({ min: 2, max: 10 }),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  calm: fc.integer({ min: 0, max: 4 }),
});

describe('the reveal rule over random hands of every game dealt by the scheme', () => {
  it('nothing hidden exactly when every position taken was seen by every player and nothing was discarded', () => {
    fc.assert(
      fc.property(anyHand, ({ variant, players, seed, calm }) => {
        const { hand, order, taken } = dealtHand(variant, players, seed, calm);
        const seen = seenByAll(hand);
        const everyTakeSeen = order.slice(0, taken).every((card) => seen.has(card));
        expect(secretExposesNothingHidden(hand.events, order)).toBe(everyTakeSeen && !discarded(hand));
      }),
      { numRuns: 600 },
    );
  });

  it('when nothing is hidden, nobody folded or mucked, and the deck after the last take is exactly the cards nobody saw', () => {
    fc.assert(
      fc.property(anyHand, ({ variant, players, seed, calm }) => {
        const { hand, order, taken } = dealtHand(variant, players, seed, calm);
        fc.pre(secretExposesNothingHidden(hand.events, order));
        const seen = seenByAll(hand);
        expect(hand.snapshot().players.every((player) => !player.folded && player.shown)).toBe(true);
        const unseen = order.filter((card) => !seen.has(card));
        expect(new Set(order.slice(taken))).toEqual(new Set(unseen));
      }),
      { numRuns: 300 },
    );
  });

  it('each game has hands of both kinds, except that the games that burn never reveal at once', () => {
    for (const variant of VARIANT_IDS) {
      const verdicts = new Set<boolean>();
      const burns = variantOf(variant).streets.some((street) => street.burn);
      for (let seed = 0; seed < 60; seed++) {
        const { hand, order } = dealtHand(variant, 2 + (seed % 4), seed, seed % 2 === 0 ? 4 : 1);
        verdicts.add(secretExposesNothingHidden(hand.events, order));
      }
      expect([variant, [...verdicts].sort()]).toEqual([variant, burns ? [false] : [false, true]]);
    }
  });
});
