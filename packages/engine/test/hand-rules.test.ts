/**
 * Rules of the hand state machine, each test named after the rule it checks: 32-card draw's split
 * agreement per pot (RULES.md §11), who acts first from the second round in Sökö, Americana and
 * Telesina (RULES.md "Who acts first in the stud games"), and the big blind's position when a live
 * big blind is posted out of position (RULES.md §1 New player, Missed blinds).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  bigBlindOf,
  Hand,
  type HandConfig,
  houseRake,
  randomAction,
  seededRandom,
  showingStrength,
  type OwnShowingOrder,
  type VariantId,
} from '../src/index.js';
import { act, awards, call, cards, deal, dealHoles, fold, raiseTo, start, total } from './hand-helpers.js';

const split = (hand: Hand, player: number, accept: boolean): void => {
  expect(hand.phase).toBe('split');
  expect(hand.actor).toBe(player);
  act(hand, { type: 'split', player, accept });
};

const standPat = (hand: Hand, ...players: number[]): void => {
  for (const player of players) act(hand, { type: 'discard', player, cards: [] });
};

describe('RULES.md §11: 32-card draw split agreement, per pot', () => {
  /**
   * Four players, SB 1 and BB 2. Position 2 is all-in for 20; position 1 raises to 90, position 3
   * calls, position 0 folds his 45. Main pot 80 (0's 20 included) for 1, 2, 3; side pot 165 (0's
   * other 25 included) for 1 and 3. After the draw the split is offered from position 3 (the first
   * after the big blind who can act), then 1, then 2 (all-in).
   */
  const sidePotHand = (extra: Partial<HandConfig> = {}): Hand => {
    const hand = start({
      variant: 'draw32',
      structure: 'no-limit',
      stacks: [200, 200, 20, 200],
      blinds: [1, 2],
      autoShowdown: true,
      ...extra,
    });
    dealHoles(hand, '7c7d8c8d9c', 'AsKsQsJs9s', 'AhKhQhJhTh', 'TcJcQcKd9d');
    raiseTo(hand, 2, 20);
    raiseTo(hand, 3, 45);
    call(hand, 0);
    raiseTo(hand, 1, 90);
    call(hand, 3);
    fold(hand, 0);
    standPat(hand, 1, 2, 3);
    expect(hand.currentPots()).toEqual([
      { amount: 80, eligible: [1, 2, 3] },
      { amount: 165, eligible: [1, 3] },
    ]);
    return hand;
  };

  test('a pot whose every player accepts is divided equally (odd chip nearest the dealer’s left); a pot with a decliner is played out', () => {
    const hand = sidePotHand();
    split(hand, 3, true);
    split(hand, 1, true);
    split(hand, 2, false); // the all-in player declines: only the main pot, the one he is in
    expect(hand.phase).toBe('bet');
    expect(hand.actor).toBe(3);
    expect(hand.currentPots()).toEqual([
      { amount: 80, eligible: [1, 2, 3] },
      { amount: 165, eligible: [1, 3] },
    ]);
    call(hand, 3);
    call(hand, 1);
    expect(hand.isDone).toBe(true);
    expect(awards(hand)).toEqual([
      { pot: 0, player: 2, amount: 80, share: 'all' }, // the royal flush wins the main pot
      { pot: 1, player: 1, amount: 83, share: 'agreed' },
      { pot: 1, player: 3, amount: 82, share: 'agreed' },
    ]);
    expect(hand.finishingStacks()).toEqual([155, 193, 80, 192]);
  });

  test('a decline affects only the pots the decliner is in: the players of the other pots are still offered the split', () => {
    // Five players: 3 is all-in for 20; 2 raised to 40, called by 4 and 1; 0 folded his small blind.
    const hand = start({
      variant: 'draw32',
      structure: 'no-limit',
      stacks: [200, 200, 200, 20, 200],
      blinds: [1, 2],
      autoShowdown: true,
    });
    dealHoles(hand, '7c7d8c8d9c', 'AsKsQsJs9s', 'AhKhQhJhTh', 'TcJcQcKd9d', '7s8s7h8hTs');
    raiseTo(hand, 2, 40);
    call(hand, 3); // all-in for 20
    call(hand, 4);
    fold(hand, 0);
    call(hand, 1);
    standPat(hand, 1, 2, 3, 4);
    expect(hand.currentPots()).toEqual([
      { amount: 81, eligible: [1, 2, 3, 4] },
      { amount: 60, eligible: [1, 2, 4] },
    ]);
    split(hand, 2, true);
    split(hand, 3, false); // only in the main pot
    split(hand, 4, true); // still offered: the side pot is open
    split(hand, 1, true);
    expect(hand.phase).toBe('bet');
    for (const p of [2, 4, 1]) call(hand, p);
    expect(awards(hand)).toEqual([
      { pot: 0, player: 2, amount: 81, share: 'all' },
      { pot: 1, player: 1, amount: 20, share: 'agreed' },
      { pot: 1, player: 2, amount: 20, share: 'agreed' },
      { pot: 1, player: 4, amount: 20, share: 'agreed' },
    ]);
  });

  test('anyone may decline, and then nobody further is offered it: a player only in declined pots is skipped', () => {
    const hand = sidePotHand();
    split(hand, 3, true);
    split(hand, 1, false); // 1 is in both pots: both are declined, 2 (only in the main pot) is not asked
    expect(hand.phase).toBe('bet');
    expect(hand.actor).toBe(3);
    expect(hand.events.filter((e) => e.type === 'split')).toHaveLength(2);
    call(hand, 3);
    call(hand, 1);
    expect(awards(hand)).toEqual([
      { pot: 0, player: 2, amount: 80, share: 'all' },
      { pot: 1, player: 1, amount: 165, share: 'all' }, // the spade flush beats 3's straight
    ]);
  });

  test('the first player’s decline of a pot everybody is in ends the offer (one pot: as before)', () => {
    const hand = start({ variant: 'draw32', structure: 'no-limit', stacks: [100, 100, 100], blinds: [1, 2] });
    dealHoles(hand, 'AsKsQsJs9s', 'AhKhQhJh9h', 'AdKdQdJd9d');
    for (const p of [2, 0, 1]) call(hand, p);
    standPat(hand, 0, 1, 2);
    split(hand, 2, false);
    expect(hand.phase).toBe('bet');
    expect(hand.actor).toBe(2);
  });

  test('when every player accepts, every pot is divided equally among its players', () => {
    const hand = sidePotHand();
    split(hand, 3, true);
    split(hand, 1, true);
    split(hand, 2, true);
    expect(hand.isDone).toBe(true);
    expect(awards(hand)).toEqual([
      { pot: 0, player: 1, amount: 27, share: 'agreed' },
      { pot: 0, player: 2, amount: 27, share: 'agreed' },
      { pot: 0, player: 3, amount: 26, share: 'agreed' },
      { pot: 1, player: 1, amount: 83, share: 'agreed' },
      { pot: 1, player: 3, amount: 82, share: 'agreed' },
    ]);
  });

  test('an agreed pot stays divided among the players who agreed, whatever happens after (a fold, a new bet)', () => {
    const hand = sidePotHand();
    split(hand, 3, true);
    split(hand, 1, true);
    split(hand, 2, false);
    raiseTo(hand, 3, 50);
    fold(hand, 1);
    expect(hand.isDone).toBe(true);
    expect(awards(hand)).toEqual([
      { pot: 0, player: 2, amount: 80, share: 'all' },
      { pot: 1, player: 1, amount: 83, share: 'agreed' },
      { pot: 1, player: 3, amount: 82, share: 'agreed' },
    ]);
    const stacks = hand.finishingStacks()!;
    expect(total(stacks)).toBe(620);
    expect(stacks).toEqual([155, 193, 80, 192]); // 3's uncalled 50 came back
  });

  test('agreed pots are raked with the others (the rake comes out of the total)', () => {
    const hand = sidePotHand({ rake: houseRake });
    split(hand, 3, true);
    split(hand, 1, true);
    split(hand, 2, false);
    call(hand, 3);
    call(hand, 1);
    const rake = hand.snapshot().rake;
    expect(rake).toBeGreaterThan(0);
    expect(total(awards(hand).map((a) => a.amount)) + rake).toBe(245);
    expect(total(hand.finishingStacks()!) + rake).toBe(620);
  });

  test('property: chips are conserved, and only a pot whose every player accepted is divided by agreement', () => {
    let partial = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0x7fffffff }),
        fc.array(fc.integer({ min: 3, max: 60 }), { minLength: 2, maxLength: 5 }),
        fc.boolean(),
        (seed, stacks, rake) => {
          const random = seededRandom(seed);
          const created = Hand.create(
            {
              variant: 'draw32',
              structure: 'no-limit',
              stacks,
              blinds: stacks.length === 2 ? [2, 1] : [1, 2],
              antes: seed % 3 === 0 ? 1 : 0,
              autoShowdown: true,
              ...(rake ? { rake: houseRake } : {}),
            },
            random,
          );
          if (!created.ok) throw new Error(created.error.message);
          const hand = created.value;
          for (let i = 0; i < 500 && !hand.isDone; i++) {
            const action = randomAction(hand, random);
            if (action === null) break;
            act(hand, action);
          }
          expect(hand.isDone).toBe(true);
          const snap = hand.snapshot();
          expect(total(hand.finishingStacks()!) + snap.rake).toBe(total(stacks));
          const accepted = new Set<number>();
          for (const e of hand.events) if (e.type === 'split' && e.accept) accepted.add(e.player);
          for (const a of awards(hand)) if (a.share === 'agreed') expect(accepted.has(a.player)).toBe(true);
          const shares = new Set(awards(hand).map((a) => a.share));
          if (shares.has('agreed') && shares.has('all')) partial++;
          for (const [index, pot] of snap.pots.entries()) {
            const agreed = awards(hand).filter((a) => a.pot === index && a.share === 'agreed');
            if (agreed.length > 0) expect(pot.eligible.every((p) => accepted.has(p))).toBe(true);
          }
        },
      ),
      // Seeded: the count below must not depend on luck (unseeded, a run of 400 now and then had no
      // partial split at all and failed).
      { numRuns: 400, seed: 20_261_130 },
    );
    expect(partial).toBeGreaterThan(0); // some hands split a side pot and played out the rest
  });
});

/** Plays a five-card stud hand (3 players, everybody checks or calls) and records who opens each round. */
function openers(
  variant: VariantId,
  holes: readonly string[],
  ups: readonly string[][],
  vela?: string,
): number[] {
  const hand = start({
    variant,
    structure: 'fixed-limit',
    stacks: [1000, 1000, 1000],
    antes: 1,
    bringIn: 2,
    smallBet: 5,
    bigBet: 10,
  });
  const out: number[] = [];
  const checkAround = (): void => {
    while (hand.phase === 'bet') {
      const legal = hand.legalActions()!;
      if (legal.bringIn !== null) act(hand, { type: 'bring-in', player: legal.player });
      else call(hand, legal.player);
    }
  };
  dealHoles(hand, ...holes);
  out.push(hand.actor!);
  checkAround();
  for (const street of ups) {
    dealHoles(hand, ...street);
    out.push(hand.actor!);
    checkAround();
  }
  if (vela !== undefined) {
    deal(hand, vela);
    out.push(hand.actor!);
    checkAround();
  }
  expect(hand.phase === 'showdown' || hand.isDone).toBe(true);
  return out;
}

describe('who acts first from the second round: the best hand showing by the game’s own ranking of the up cards', () => {
  const order = (game: OwnShowingOrder, ...hands: string[]): number[] => {
    const values = hands.map((text) => {
      const shown = cards(text);
      return showingStrength(
        game,
        shown,
        shown.map(() => true),
      );
    });
    return values.map((_, i) => i).sort((a, b) => values[b]! - values[a]! || a - b);
  };
  const strength = (game: OwnShowingOrder, text: string): number => {
    const shown = cards(text);
    return showingStrength(
      game,
      shown,
      shown.map(() => true),
    );
  };

  test('Sökö: quads > trips > two pair > four-flush > four-straight > one pair > high card', () => {
    const ladder = ['9c9d9h9s', 'KcKdKh2s', 'AcAd7h7s', '2h5h9hJh', '7c8d9hTs', 'AsAd3c4h', 'AcKdQhTs'];
    expect(order('soko', ...[...ladder].reverse())).toEqual([6, 5, 4, 3, 2, 1, 0]);
  });

  test('Sökö: four-straights by their top card (A-2-3-4 is four high, J-Q-K-A ace high; 5-6-8-9 is none); suits never count', () => {
    expect(strength('soko', 'Ac2d3h4s')).toBeLessThan(strength('soko', '2c3d4h5s'));
    expect(strength('soko', 'JcQdKhAs')).toBeGreaterThan(strength('soko', 'Tc9dJhQs'));
    expect(strength('soko', '5c6d8h9s')).toBe(strength('soko', '9d8h6c5s'));
    expect(strength('soko', '5c6d8h9s')).toBeLessThan(strength('soko', '2c2d3h4s')); // high card < pair
    expect(strength('soko', 'KsQd')).toBe(strength('soko', 'KhQc'));
  });

  test('Sökö: four suited cards in sequence count as a four-flush; four-flushes by their ranks; three suited cards are no flush', () => {
    expect(strength('soko', '3h7h9hKh')).toBeGreaterThan(strength('soko', '9hThJhQh'));
    expect(strength('soko', '9hThJhQh')).toBeGreaterThan(strength('soko', 'TcJdQhKs'));
    expect(strength('soko', '7h9hKh')).toBeLessThan(strength('soko', '2c2d3s'));
  });

  test('Sökö in play: with four up cards a four-flush acts before a pair of kings and a four-straight', () => {
    // ups: 0: 3h 7h 9h Jh; 1: Ks Kd 4c 6d; 2: 8c 9d Ts Jc
    const seen = openers(
      'soko',
      ['2c3h', '5cKs', '2d8c'],
      [
        ['7h', 'Kd', '9d'],
        ['9h', '4c', 'Ts'],
        ['Jh', '6d', 'Jc'],
      ],
    );
    expect(seen).toEqual([1, 1, 1, 0]); // bring-in: the king; then the kings; then the four-flush
  });

  test('Telesina: equal ranks, suits hearts > diamonds > clubs > spades: high card by rank, then suit (Ah Kc beats Ad Kh)', () => {
    expect(order('telesina', 'AdKh', 'AhKc')).toEqual([1, 0]);
    expect(strength('telesina', 'AhKc')).toBeLessThan(strength('telesina', 'AsAc'));
    expect(strength('telesina', 'AhKh9h8h')).toBeLessThan(strength('telesina', '7s7c8s9s')); // no flush on 4 cards
  });

  test('Telesina: one pair with equal kickers by the suit of the highest kicker; two pair by the suit of the higher pair', () => {
    expect(order('telesina', '9c9sAd', '9h9dAh')).toEqual([1, 0]);
    expect(order('telesina', 'KdKs7c7h', 'KhKc7s7d')).toEqual([1, 0]);
    expect(strength('telesina', '9h9d')).toBe(strength('telesina', '9c9s')); // no side card: equal
  });

  test('Telesina in play: equal ranks showing, the higher suit acts first; the Vela is not counted', () => {
    // ups: 0: Ad Kc 8s 7c; 1: Ah Kd 8c 7s; 2: Qs Js Ts 9s. Vela Qh would pair 2's queen if it counted.
    const seen = openers(
      'telesina',
      ['9dAd', '9cAh', '9hQs'],
      [
        ['Kc', 'Kd', 'Js'],
        ['8s', '8c', 'Ts'],
        ['7c', '7s', '9s'],
      ],
      'Qh',
    );
    expect(seen).toEqual([1, 1, 1, 1, 1]); // bring-in Ah (hearts); then A-K of hearts over A-K of diamonds
  });

  test('Americana: as standard for up cards (a flush or straight needs five): a pair of sevens acts before A-K-Q-J', () => {
    const seen = openers(
      'americana',
      ['8dAs', '8cKs', '8h7c'],
      [
        ['Qs', 'Qd', 'Td'],
        ['Js', 'Jd', '7d'],
        ['9s', 'Tc', '9c'],
      ],
    );
    // ups: 0: As Qs Js 9s (four spades: no flush); 1: Ks Qd Jd Tc; 2: 7c Td 7d 9c (a pair)
    expect(seen).toEqual([0, 0, 2, 2]);
  });
});

describe('the big blind posted out of position: the real big blind is the first largest blind', () => {
  test('SB 1, BB 2, a player, a newcomer posting 2: preflop starts left of the real big blind, and the newcomer’s blind is live', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [100, 100, 100, 100, 100],
      blinds: [1, 2, 0, 2],
    });
    dealHoles(hand, 'AsKs', 'QhQd', 'JcTc', '9h9s', '2c3d');
    expect(hand.actor).toBe(2);
    call(hand, 2);
    expect(hand.actor).toBe(3);
    expect(hand.legalActions()).toMatchObject({ player: 3, check: true, call: null });
    call(hand, 3); // checks: his blind is live
    expect(hand.events.at(-1)).toEqual({ type: 'check', player: 3 });
    call(hand, 4);
    call(hand, 0);
    expect(hand.legalActions()).toMatchObject({ player: 1, check: true });
    call(hand, 1);
    expect(hand.pendingDeal()).toEqual({ kind: 'board', count: 3 });
  });

  test('32-card draw: "after the big blind" is after the real big blind, not the newcomer', () => {
    const hand = start({
      variant: 'draw32',
      structure: 'no-limit',
      stacks: [100, 100, 100, 100, 100],
      blinds: [1, 2, 0, 2],
    });
    dealHoles(hand, 'AsKsQsJs9s', 'AhKhQhJh9h', 'AdKdQdJd9d', 'AcKcQcJc9c', '7s8s7h8h7d');
    expect(hand.actor).toBe(2);
    for (const p of [2, 3, 4, 0, 1]) call(hand, p);
    standPat(hand, 0, 1, 2, 3, 4);
    split(hand, 2, false);
    expect(hand.actor).toBe(2);
  });

  test('straddles are larger and still act last; equal small and big blinds: the second is the big blind; heads-up: position 0', () => {
    expect(bigBlindOf([1, 2, 0, 2], 5)).toBe(1);
    expect(bigBlindOf([1, 2, 4], 4)).toBe(2);
    expect(bigBlindOf([1, 2, 4, 0, 4], 6)).toBe(2);
    expect(bigBlindOf([2, 2], 3)).toBe(1);
    expect(bigBlindOf([2, 1], 2)).toBe(0);
    expect(bigBlindOf([2, 2], 2)).toBe(0);
    expect(bigBlindOf([], 3)).toBe(-1);
    const straddled = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [100, 100, 100, 100],
      blinds: [1, 2, 4],
    });
    dealHoles(straddled, 'AsKs', 'QhQd', 'JcTc', '9h9s');
    expect(straddled.actor).toBe(3);
  });
});
