import { describe, expect, test } from 'vitest';
import { awardPot, buildPots, houseRake, splitEvenly } from '../src/index.js';
import { awards, call, deal, dealHoles, fold, raiseTo, start, total } from './hand-helpers.js';

describe('side pots', () => {
  test('RULES.md §1 worked example: A $300, B $200, C $100 all-in: main $300, side $200, A gets $100 back', () => {
    // Positions: C = 0, B = 1, A = 2; no blinds, C acts first.
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [100, 200, 300],
      minBet: 2,
      autoShowdown: true,
    });
    dealHoles(hand, 'AsAh', 'KsKh', '7c2d');
    raiseTo(hand, 0, 100);
    call(hand, 1);
    raiseTo(hand, 2, 300);
    call(hand, 1);
    expect(hand.events.find((e) => e.type === 'return')).toEqual({ type: 'return', player: 2, amount: 100 });
    expect(hand.currentPots()).toEqual([
      { amount: 300, eligible: [0, 1, 2] },
      { amount: 200, eligible: [1, 2] },
    ]);
    deal(hand, '3c8d9h');
    deal(hand, 'Jc');
    deal(hand, '4s');
    expect(awards(hand)).toEqual([
      { pot: 0, player: 0, amount: 300, share: 'all' },
      { pot: 1, player: 1, amount: 200, share: 'all' },
    ]);
    expect(hand.finishingStacks()).toEqual([300, 200, 100]);
  });

  test('buildPots: a folded player’s chips stay in the pots they reached', () => {
    expect(buildPots([50, 100, 100, 30], [false, false, true, false])).toEqual([
      { amount: 120, eligible: [0, 1, 3] },
      { amount: 60, eligible: [0, 1] },
      { amount: 100, eligible: [1] },
    ]);
  });
});

describe('splitting pots', () => {
  test('odd chips go one each to the winners nearest the dealer’s left (lowest position first)', () => {
    expect(splitEvenly(11, [1, 3, 4])).toEqual([
      { player: 1, amount: 4 },
      { player: 3, amount: 4 },
      { player: 4, amount: 3 },
    ]);
  });

  test('hi/lo: the odd chip of the halves goes to the high half', () => {
    expect(awardPot(301, [2], [0])).toEqual([
      { player: 2, amount: 151, share: 'high' },
      { player: 0, amount: 150, share: 'low' },
    ]);
  });

  test('hi/lo without a qualifying low: the high takes all', () => {
    expect(awardPot(300, [2], [])).toEqual([{ player: 2, amount: 300, share: 'all' }]);
  });

  test('quartering (RULES.md §5): A best high and tied low with B → A ¾, B ¼', () => {
    const hand = start({
      variant: 'omaha-hilo',
      structure: 'pot-limit',
      stacks: [100, 100],
      blinds: [2, 1],
      autoShowdown: true,
    });
    dealHoles(hand, 'Ah4cKhQc', 'As4d9c9h');
    raiseTo(hand, 1, 6);
    raiseTo(hand, 0, 18);
    raiseTo(hand, 1, 54);
    raiseTo(hand, 0, 100);
    call(hand, 1);
    deal(hand, '2c3d7h');
    deal(hand, 'Ks');
    deal(hand, 'Kd');
    expect(hand.finishingStacks()).toEqual([150, 50]);
  });

  test('quartering (RULES.md §5): A best high and no low, B and C tied low → A ½, B ¼, C ¼', () => {
    const hand = start({
      variant: 'omaha-hilo',
      structure: 'no-limit',
      stacks: [100, 100, 100],
      minBet: 2,
      autoShowdown: true,
    });
    dealHoles(hand, 'KhKcQhQd', 'Ah4c9c9h', 'As4dTcTh');
    raiseTo(hand, 0, 100);
    call(hand, 1);
    call(hand, 2);
    deal(hand, '2c3d7h');
    deal(hand, 'Ks');
    deal(hand, 'Kd');
    expect(hand.finishingStacks()).toEqual([150, 75, 75]);
  });
});

describe('rake (RULES.md §1)', () => {
  test('€0.01 per full €0.20; pots of €0.20–€0.39 pay €0.02', () => {
    expect(houseRake({ pot: 19, playersDealt: 6, triggered: true })).toBe(0);
    expect(houseRake({ pot: 20, playersDealt: 6, triggered: true })).toBe(2);
    expect(houseRake({ pot: 39, playersDealt: 6, triggered: true })).toBe(2);
    expect(houseRake({ pot: 40, playersDealt: 6, triggered: true })).toBe(2);
    expect(houseRake({ pot: 59, playersDealt: 6, triggered: true })).toBe(2);
    expect(houseRake({ pot: 60, playersDealt: 6, triggered: true })).toBe(3);
    expect(houseRake({ pot: 1000, playersDealt: 6, triggered: true })).toBe(50);
  });

  test('caps by players dealt in: 75c with 2, €2 with 3, €3 with 4–10', () => {
    const pot = 100_000;
    expect(houseRake({ pot, playersDealt: 2, triggered: true })).toBe(75);
    expect(houseRake({ pot, playersDealt: 3, triggered: true })).toBe(200);
    expect(houseRake({ pot, playersDealt: 4, triggered: true })).toBe(300);
    expect(houseRake({ pot, playersDealt: 10, triggered: true })).toBe(300);
  });

  test('no flop, no drop', () => {
    expect(houseRake({ pot: 1000, playersDealt: 6, triggered: false })).toBe(0);
    const preflop = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [1000, 1000, 1000],
      blinds: [5, 10],
      rake: houseRake,
    });
    dealHoles(preflop, 'AsKs', 'QhQd', 'JcTc');
    raiseTo(preflop, 2, 500);
    call(preflop, 0);
    fold(preflop, 1);
    expect(preflop.phase).toBe('deal');
    expect(preflop.snapshot().rake).toBe(0);
    const flop = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [1000, 1000, 1000],
      blinds: [5, 10],
      rake: houseRake,
    });
    dealHoles(flop, 'AsKs', 'QhQd', 'JcTc');
    raiseTo(flop, 2, 100);
    fold(flop, 0);
    call(flop, 1);
    deal(flop, '2h7c9d');
    raiseTo(flop, 1, 100);
    fold(flop, 2);
    // pot 205 (5 + 100 + 100) after the uncalled 100 is returned: 10 cents, 3 dealt in.
    expect(flop.snapshot().rake).toBe(10);
    expect(total(flop.finishingStacks()!) + 10).toBe(3000);
  });

  test('rake in stud only once a fourth card is dealt', () => {
    const hand = start({
      variant: 'stud',
      structure: 'fixed-limit',
      stacks: [1000, 1000],
      antes: 5,
      bringIn: 10,
      smallBet: 20,
      bigBet: 40,
      rake: houseRake,
    });
    dealHoles(hand, '2c3c4c', 'AsKsQs');
    raiseTo(hand, 0, 20);
    fold(hand, 1);
    expect(hand.snapshot().rake).toBe(0);
  });
});

describe('antes in side pots', () => {
  test('uniform antes are matched like bets: a player all-in for his ante wins only the antes he matched', () => {
    // PokerKit test_all_ins case 2: antes 2, blinds 1/2, stacks 6/4/1.
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [6, 4, 1],
      antes: 2,
      blinds: [1, 2],
      minBet: 2,
      autoShowdown: true,
    });
    dealHoles(hand, 'AcAd', 'KcKd', 'QcQd');
    call(hand, 0);
    deal(hand, 'QhQs2c');
    deal(hand, '3c');
    deal(hand, '4c');
    expect(hand.finishingStacks()).toEqual([8, 0, 3]);
  });

  test('a big-blind ante is dead money in the main pot, never a side pot of its own', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [1000, 1000, 1000],
      antes: [0, 10, 0],
      blinds: [5, 10],
      autoShowdown: true,
    });
    dealHoles(hand, '7c2d', 'AsKs', 'QhQd');
    raiseTo(hand, 2, 30);
    fold(hand, 0);
    call(hand, 1);
    for (const board of ['2h7s9d', '3s', '4d']) {
      deal(hand, board);
      call(hand, 1);
      call(hand, 2);
    }
    expect(awards(hand)).toEqual([{ pot: 0, player: 2, amount: 75, share: 'all' }]);
  });
});

describe('rake across pots', () => {
  test('the total rake is taken from the pots in proportion; rakeEachPot applies the policy to each pot', () => {
    const play = (rakeEachPot: boolean) => {
      const hand = start({
        variant: 'holdem',
        structure: 'no-limit',
        stacks: [10, 100, 100],
        minBet: 2,
        autoShowdown: true,
        rake: ({ pot }) => Math.floor(pot / 10),
        rakeEachPot,
      });
      dealHoles(hand, 'AsAh', 'KsKh', '7c2d');
      raiseTo(hand, 0, 10);
      raiseTo(hand, 1, 100);
      call(hand, 2);
      for (const board of ['3c8d9h', 'Jc', '4s']) deal(hand, board);
      return hand;
    };
    // main pot 30 (rake 3), side pot 180 (rake 18): PokerKit's 10% per pot case
    expect(play(true).snapshot().rake).toBe(21);
    expect(play(false).snapshot().rake).toBe(21);
    expect(awards(play(true))).toEqual([
      { pot: 0, player: 0, amount: 27, share: 'all' },
      { pot: 1, player: 1, amount: 162, share: 'all' },
    ]);
  });
});
