import { describe, expect, test } from 'vitest';
import { Hand, seededRandom, type HandConfig, type Structure, type VariantId } from '../src/index.js';
import { act, call, deal, dealHoles, raiseTo, start } from './hand-helpers.js';

const studConfig = (
  variant: VariantId,
  structure: Structure,
  players: number,
  extra: Partial<HandConfig> = {},
): HandConfig => ({
  variant,
  structure,
  stacks: Array.from({ length: players }, () => 1000),
  antes: 1,
  bringIn: 2,
  smallBet: 5,
  bigBet: 10,
  minBet: 5,
  ...extra,
});

/** Who must post the bring-in after these third-street deals. */
function bringInAfter(config: HandConfig, ...holes: string[]): number {
  const hand = start(config);
  dealHoles(hand, ...holes);
  expect(hand.legalActions()!.bringIn).not.toBeNull();
  return hand.actor!;
}

describe('bring-in', () => {
  test('limit stud: the lowest upcard brings in; equal ranks: clubs lowest, then diamonds, hearts, spades', () => {
    expect(bringInAfter(studConfig('stud', 'fixed-limit', 3), 'AsAh5d', 'KsKh5c', 'QsQhKd')).toBe(1);
    expect(bringInAfter(studConfig('stud', 'spread-limit', 3), 'AsAh2h', 'KsKh2s', 'QsQh2d')).toBe(2);
  });

  test('pot-limit stud (and half-pot, no limit): the highest upcard brings in', () => {
    expect(bringInAfter(studConfig('stud', 'pot-limit', 3), 'AsAh5d', 'KsKh5c', 'QsQhKd')).toBe(2);
    expect(bringInAfter(studConfig('stud-hilo', 'no-limit', 3), '2s2hAd', '3s3hAs', '4s4hKd')).toBe(1);
  });

  test('razz: the highest upcard brings in, ace low; equal ranks: the highest suit', () => {
    expect(bringInAfter(studConfig('razz', 'fixed-limit', 3), '2s2hAd', '3s3hKd', '4s4hQd')).toBe(1);
    expect(bringInAfter(studConfig('razz', 'fixed-limit', 2), '2s2hKc', '3s3hKh')).toBe(1);
  });

  test('Sökö and Americana: the highest upcard brings in; spades > hearts > diamonds > clubs', () => {
    expect(bringInAfter(studConfig('soko', 'fixed-limit', 3), '2sQh', '3sQs', '4sJd')).toBe(1);
    expect(bringInAfter(studConfig('americana', 'fixed-limit', 3), '7sQh', '8sQd', '9sQc')).toBe(0);
  });

  test('Telesina: the highest upcard brings in; hearts > diamonds > clubs > spades', () => {
    expect(bringInAfter(studConfig('telesina', 'fixed-limit', 3), '7sQs', '8sQc', '9sJh')).toBe(1);
    expect(bringInAfter(studConfig('telesina', 'pot-limit', 3), '7sQs', '8sQh', '9sQd')).toBe(1);
  });

  test('the bring-in may post the bring-in or complete to the small bet, and may not fold', () => {
    const hand = start(studConfig('stud', 'fixed-limit', 3));
    dealHoles(hand, 'AsAh5d', 'KsKh5c', 'QsQhKd');
    const legal = hand.legalActions()!;
    expect(legal).toMatchObject({ player: 1, bringIn: 2, fold: false, raise: { min: 5, max: 5 } });
    expect(hand.can({ type: 'fold', player: 1 })).toBe(false);
    act(hand, { type: 'bring-in', player: 1 });
    expect(hand.legalActions()).toMatchObject({ player: 2, call: 2, raise: { min: 5, max: 5 } });
    raiseTo(hand, 2, 5); // completes: the bet, then three raises
    expect(hand.legalActions()).toMatchObject({ player: 0, call: 5, raise: { min: 10, max: 10 } });
  });
});

describe('order of action in stud', () => {
  test('from the second round the best hand showing acts first (up cards only)', () => {
    const hand = start(studConfig('stud', 'fixed-limit', 3));
    dealHoles(hand, 'AsAh5d', 'KsKh5c', 'QsQhKd');
    act(hand, { type: 'bring-in', player: 1 });
    call(hand, 2);
    call(hand, 0);
    dealHoles(hand, '6d', '9c', '2c'); // showing: 5-6, 5-9, K-2: the king shows best
    expect(hand.actor).toBe(2);
  });

  test('razz: the lowest hand showing acts first, pairs are bad, ace low', () => {
    const hand = start(studConfig('razz', 'fixed-limit', 3));
    dealHoles(hand, 'KsKhAd', 'QsQh5c', 'JsJh2d');
    act(hand, { type: 'bring-in', player: 1 });
    call(hand, 2);
    call(hand, 0);
    dealHoles(hand, 'Ac', '4c', '3d'); // A-A (pair), 5-4, 2-3 → 3-2 low is best
    expect(hand.actor).toBe(2);
  });

  test('open pair on 4th street: the opening bet may be the small or the big bet (house); PHH/PokerKit: small only', () => {
    for (const openPairBigBet of [true, false]) {
      const hand = start(studConfig('stud', 'fixed-limit', 2, { openPairBigBet }));
      dealHoles(hand, 'AsAh5d', 'KsKh6c');
      act(hand, { type: 'bring-in', player: 0 });
      call(hand, 1);
      dealHoles(hand, '5h', '2c');
      expect(hand.actor).toBe(0);
      const legal = hand.legalActions()!;
      if (openPairBigBet) {
        expect(legal.raiseTos).toEqual([5, 10]);
        raiseTo(hand, 0, 10);
        expect(hand.legalActions()!.raise).toEqual({ min: 20, max: 20 });
      } else {
        expect(legal.raiseTos).toBeNull();
        expect(legal.raise).toEqual({ min: 5, max: 5 });
      }
    }
  });

  test('big bets from 5th street', () => {
    const hand = start(studConfig('stud', 'fixed-limit', 2));
    dealHoles(hand, 'AsAh5d', 'KsKh6c');
    act(hand, { type: 'bring-in', player: 0 });
    call(hand, 1);
    dealHoles(hand, '7h', '2c');
    call(hand, 0);
    call(hand, 1);
    dealHoles(hand, '8h', '3c');
    expect(hand.legalActions()!.raise).toEqual({ min: 10, max: 10 });
  });
});

describe('streets', () => {
  test('stud: when the deck cannot give everyone a seventh card, one community card is dealt and nobody bets on it', () => {
    const hand = Hand.create(
      studConfig('stud', 'fixed-limit', 8, { bringIn: 0, autoShowdown: true }),
      seededRandom(7),
    );
    if (!hand.ok) throw new Error(hand.error.message);
    const h = hand.value;
    while (!h.isDone) {
      if (h.phase === 'deal') {
        if (h.snapshot().street === 4) expect(h.pendingDeal()).toEqual({ kind: 'board', count: 1 });
        act(h, { type: 'deal' });
      } else act(h, { type: 'check-call', player: h.actor! });
    }
    const rounds = h.events.filter((e) => e.type === 'round');
    expect(rounds).toHaveLength(4);
    expect(h.events.filter((e) => e.type === 'deal-board')).toHaveLength(1);
    expect(h.events.filter((e) => e.type === 'show')).toHaveLength(8);
  });

  test('Telesina: the Vela is turned after the fifth-card round, then a last round (five rounds)', () => {
    const hand = start(studConfig('telesina', 'fixed-limit', 2, { autoShowdown: true }));
    dealHoles(hand, '7s8s', '9s8h');
    act(hand, { type: 'bring-in', player: 1 });
    call(hand, 0);
    for (const up of [
      ['Ts', 'Th'],
      ['Js', 'Jh'],
      ['Qs', 'Qh'],
    ]) {
      dealHoles(hand, ...up);
      call(hand, hand.actor!);
      call(hand, hand.actor!);
    }
    expect(hand.pendingDeal()).toEqual({ kind: 'board', count: 1 });
    deal(hand, 'Ah');
    expect(hand.phase).toBe('bet');
    call(hand, hand.actor!);
    call(hand, hand.actor!);
    expect(hand.isDone).toBe(true);
    expect(hand.events.filter((e) => e.type === 'round')).toHaveLength(5);
  });

  test('flop games burn a card before the flop, turn and river when dealing from the deck', () => {
    const hand = Hand.create(
      { variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1], autoShowdown: true },
      seededRandom(3),
    );
    if (!hand.ok) throw new Error(hand.error.message);
    const h = hand.value;
    while (!h.isDone) {
      if (h.phase === 'deal') act(h, { type: 'deal' });
      else act(h, { type: 'check-call', player: h.actor! });
    }
    // 4 hole + 5 board + 3 burns = 12 cards used
    expect((h as unknown as { freshGone: number }).freshGone).toBe(12);
  });
});
