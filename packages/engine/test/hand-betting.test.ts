import { describe, expect, test } from 'vitest';
import { HandErrorCode, smallBlindFor } from '../src/index.js';
import { act, call, dealHoles, deal, fold, raiseTo, start } from './hand-helpers.js';

const holdem = (
  structure: 'fixed-limit' | 'pot-limit' | 'half-pot-limit' | 'no-limit' | 'spread-limit',
  stacks: number[],
  extra = {},
) =>
  start({
    variant: 'holdem',
    structure,
    stacks,
    blinds: [1, 2],
    smallBet: 2,
    bigBet: 4,
    minBet: 2,
    ...extra,
  });

const holes = ['AsKs', 'QhQd', 'JcTc', '9s9h', '8d7d', '6c5c', '4h4s', '3c2d', 'AdAc', 'KhKd'];

describe('forced bets', () => {
  test('small blind is half the big blind rounded down ($5 → $2, €15 → €7, €2 → €1, $10 → $5)', () => {
    expect(smallBlindFor(5)).toBe(2);
    expect(smallBlindFor(15)).toBe(7);
    expect(smallBlindFor(2)).toBe(1);
    expect(smallBlindFor(10)).toBe(5);
  });

  test('blinds are posted live and antes dead; a dead small blind goes to the pot without counting as a bet', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [100, 100, 100, 100],
      blinds: [1, 2, 0, 2],
      deadBlinds: [0, 0, 0, 1],
      antes: 1,
    });
    const s = hand.snapshot();
    expect(s.players.map((p) => p.bet)).toEqual([1, 2, 0, 2]);
    expect(s.players.map((p) => p.committed)).toEqual([2, 3, 1, 4]);
    expect(s.collected).toBe(5);
    expect(s.currentBet).toBe(2);
  });

  test('a blind larger than the stack puts the player all-in', () => {
    const hand = holdem('no-limit', [1, 1, 50]);
    expect(hand.snapshot().players[1]!.allIn).toBe(true);
  });
});

describe('order of action', () => {
  test('preflop the player left of the big blind acts first; later rounds the first active left of the button', () => {
    const hand = holdem('no-limit', [100, 100, 100, 100]);
    dealHoles(hand, ...holes.slice(0, 4));
    expect(hand.actor).toBe(2);
    call(hand, 2);
    call(hand, 3);
    call(hand, 0);
    expect(hand.actor).toBe(1);
    expect(hand.legalActions()!.check).toBe(true); // the big blind's option
    call(hand, 1);
    deal(hand, '2h7c9d');
    expect(hand.actor).toBe(0);
  });

  test('heads-up: the button posts the small blind, acts first preflop and last after the flop', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    dealHoles(hand, 'AsKs', 'QhQd');
    expect(hand.actor).toBe(1);
    call(hand, 1);
    call(hand, 0);
    deal(hand, '2h7c9d');
    expect(hand.actor).toBe(0);
  });

  test('32-card draw: the second round starts with the first active player after the big blind', () => {
    const hand = start({
      variant: 'draw32',
      structure: 'no-limit',
      stacks: [100, 100, 100, 100],
      blinds: [1, 2],
    });
    dealHoles(hand, 'AsKsQsJsTs', 'AhKhQhJhTh', 'AdKdQdJdTd', 'AcKcQcJcTc');
    for (const p of [2, 3, 0]) call(hand, p);
    call(hand, 1);
    for (let p = 0; p < 4; p++) act(hand, { type: 'discard', player: p, cards: [] });
    expect(hand.phase).toBe('split');
    expect(hand.actor).toBe(2);
    act(hand, { type: 'split', player: 2, accept: false });
    expect(hand.actor).toBe(2);
  });
});

describe('betting', () => {
  test('minimum raise: facing a $100 bet the smallest raise is to $200', () => {
    const hand = holdem('no-limit', [1000, 1000, 1000]);
    dealHoles(hand, ...holes.slice(0, 3));
    for (const p of [2, 0, 1]) call(hand, p);
    deal(hand, '2h7c9d');
    raiseTo(hand, 0, 100);
    expect(hand.legalActions()!.raise).toEqual({ min: 200, max: 998 });
    expect(hand.apply({ type: 'bet-raise', player: 1, to: 199 })).toMatchObject({
      ok: false,
      error: { code: HandErrorCode.BAD_AMOUNT },
    });
  });

  test('a short all-in does not reopen the betting to players who already acted', () => {
    const hand = holdem('no-limit', [1000, 150, 1000]);
    dealHoles(hand, ...holes.slice(0, 3));
    for (const p of [2, 0, 1]) call(hand, p);
    deal(hand, '2h7c9d');
    raiseTo(hand, 0, 100);
    raiseTo(hand, 1, 148); // all-in: less than a full raise
    expect(hand.legalActions()!.raise).toMatchObject({ min: 248 }); // player 2 has not acted: may raise
    call(hand, 2);
    expect(hand.actor).toBe(0);
    expect(hand.legalActions()!.raise).toBeNull();
    expect(hand.legalActions()!.call).toBe(48);
  });

  test('fixed-limit cap: a bet and three raises (RULES.md §2, $10/$20 worked example)', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'fixed-limit',
      stacks: Array.from({ length: 10 }, () => 1000),
      blinds: [5, 10],
      smallBet: 10,
      bigBet: 20,
    });
    dealHoles(hand, ...holes);
    expect(hand.legalActions()!.raise).toEqual({ min: 20, max: 20 });
    raiseTo(hand, 2, 20);
    for (const p of [3, 4, 5, 6]) fold(hand, p);
    raiseTo(hand, 7, 30);
    call(hand, 8);
    fold(hand, 9);
    expect(call(hand, 0)).toMatchObject({ type: 'call', amount: 25 });
    expect(raiseTo(hand, 1, 40)).toMatchObject({ amount: 30 });
    expect(hand.actor).toBe(2);
    const legal = hand.legalActions()!;
    expect(legal.raise).toBeNull();
    expect(legal.call).toBe(20);
  });

  test('fixed-limit heads-up: capped by default, uncapped with capHeadsUp false (real-money cash tables)', () => {
    for (const capHeadsUp of [true, false]) {
      const hand = start({
        variant: 'holdem',
        structure: 'fixed-limit',
        stacks: [1000, 1000],
        blinds: [2, 1],
        smallBet: 2,
        bigBet: 4,
        capHeadsUp,
      });
      dealHoles(hand, 'AsKs', 'QhQd');
      let to = 4;
      let player = 1;
      for (let i = 0; i < 3; i++) {
        raiseTo(hand, player, to);
        to += 2;
        player = 1 - player;
      }
      expect(hand.legalActions()!.raise === null).toBe(capHeadsUp);
    }
  });

  test('pot limit $1-$2: first raise at most $7, the next re-raise at most $24 (RULES.md §2)', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'pot-limit',
      stacks: [1000, 1000, 1000, 1000],
      blinds: [1, 2],
      minBet: 2,
    });
    dealHoles(hand, ...holes.slice(0, 4));
    expect(hand.legalActions()!.raise).toEqual({ min: 4, max: 7 });
    raiseTo(hand, 2, 7);
    expect(hand.legalActions()!.raise).toEqual({ min: 12, max: 24 });
  });

  test('pot limit: pot $200, a bet of $150 and a call of $150: the next player may make it $800', () => {
    // Antes of 50 make the $200 pot; no blinds, everybody checks the first round.
    const hand = start({
      variant: 'holdem',
      structure: 'pot-limit',
      stacks: [2000, 2000, 2000, 2000],
      antes: 50,
      minBet: 2,
    });
    dealHoles(hand, ...holes.slice(0, 4));
    for (const p of [0, 1, 2, 3]) call(hand, p);
    deal(hand, '2h7c9d');
    expect(hand.snapshot().collected).toBe(200);
    raiseTo(hand, 0, 150);
    call(hand, 1);
    expect(hand.legalActions()!.raise).toEqual({ min: 300, max: 800 });
  });

  test('half-pot limit: the largest bet is half of the pot-limit pot', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'half-pot-limit',
      stacks: [2000, 2000, 2000, 2000],
      blinds: [1, 2],
      minBet: 2,
    });
    dealHoles(hand, ...holes.slice(0, 4));
    expect(hand.legalActions()!.raise).toEqual({ min: 4, max: 4 }); // 2 + (3 + 2) / 2 rounded down = 4
    raiseTo(hand, 2, 4);
    call(hand, 3);
    call(hand, 0);
    call(hand, 1);
    deal(hand, '2h7c9d');
    raiseTo(hand, 0, 8);
    call(hand, 1);
    expect(hand.legalActions()!.raise).toEqual({ min: 16, max: 8 + Math.floor((16 + 16 + 8) / 2) });
  });

  test('spread limit: increments up to the round limit, capped at 3 × the limit (€1 limit, €1 big blind: raises to €2, €3, then calls)', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'spread-limit',
      stacks: [5000, 5000, 5000, 5000],
      blinds: [50, 100],
      minBet: 100,
      spreadLimits: [100, 100, 200, 300],
    });
    dealHoles(hand, ...holes.slice(0, 4));
    expect(hand.legalActions()!.raise).toEqual({ min: 200, max: 200 });
    raiseTo(hand, 2, 200);
    raiseTo(hand, 3, 300);
    expect(hand.legalActions()!.raise).toBeNull();
    expect(hand.legalActions()!.call).toBe(250);
  });

  test('no limit: the largest bet is the stack', () => {
    const hand = holdem('no-limit', [100, 100, 77]);
    dealHoles(hand, ...holes.slice(0, 3));
    expect(hand.legalActions()!.raise).toEqual({ min: 4, max: 77 });
  });

  test('uncalled bets are returned and an uncalled winner need not show', () => {
    const hand = holdem('no-limit', [100, 100, 100], { autoShowdown: false });
    dealHoles(hand, ...holes.slice(0, 3));
    raiseTo(hand, 2, 50);
    fold(hand, 0);
    fold(hand, 1);
    expect(hand.isDone).toBe(true);
    expect(hand.events.find((e) => e.type === 'return')).toMatchObject({ player: 2, amount: 48 });
    expect(hand.events.some((e) => e.type === 'show')).toBe(false);
    expect(hand.finishingStacks()).toEqual([99, 98, 103]);
  });

  test('illegal input is a typed error and changes nothing', () => {
    const hand = holdem('no-limit', [100, 100, 100]);
    dealHoles(hand, ...holes.slice(0, 3));
    const before = JSON.stringify(hand.snapshot());
    expect(hand.apply({ type: 'fold', player: 0 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_YOUR_TURN' },
    });
    expect(hand.apply({ type: 'bet-raise', player: 2, to: 3 })).toMatchObject({
      ok: false,
      error: { code: 'BAD_AMOUNT' },
    });
    expect(hand.apply({ type: 'bring-in', player: 2 })).toMatchObject({
      ok: false,
      error: { code: 'ILLEGAL_ACTION' },
    });
    expect(hand.apply({ type: 'deal' })).toMatchObject({ ok: false, error: { code: 'WRONG_PHASE' } });
    expect(hand.apply({ type: 'discard', player: 2, cards: [] })).toMatchObject({
      ok: false,
      error: { code: 'WRONG_PHASE' },
    });
    expect(JSON.stringify(hand.snapshot())).toBe(before);
  });

  test('configuration is validated: seat limit, stacks, limits', () => {
    const seats = Array.from({ length: 7 }, () => 100);
    expect(start.bind(null, { variant: 'draw5', structure: 'no-limit', stacks: seats })).toThrow(
      /seats at most 6/,
    );
    expect(start.bind(null, { variant: 'holdem', structure: 'fixed-limit', stacks: [1, 2] })).toThrow(
      /smallBet/,
    );
    expect(start.bind(null, { variant: 'holdem', structure: 'no-limit', stacks: [0, 2] })).toThrow(
      /positive/,
    );
  });
});

describe('short all-ins and PokerKit compatibility', () => {
  test('stud: a short all-in completion does not reopen the betting (house); shortAllInReopens lets it (PokerKit)', () => {
    for (const shortAllInReopens of [false, true]) {
      const hand = start({
        variant: 'stud',
        structure: 'fixed-limit',
        stacks: [200, 150, 175],
        bringIn: 50,
        smallBet: 200,
        bigBet: 400,
        shortAllInReopens,
      });
      dealHoles(hand, 'AcAdAh', 'KcKdKh', 'QcQdQh');
      act(hand, { type: 'bring-in', player: 2 });
      call(hand, 0);
      raiseTo(hand, 1, 150);
      call(hand, 2);
      expect(hand.actor).toBe(0);
      expect(hand.can({ type: 'bet-raise', player: 0, to: 200 })).toBe(shortAllInReopens);
    }
  });
});

describe('artificial all-in (RULES.md §1)', () => {
  test('fixed limit: a player who cannot act with chips in the pot stays in for what he matched and acts no more', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'fixed-limit',
      stacks: [100, 100, 100],
      blinds: [1, 2],
      smallBet: 2,
      bigBet: 4,
      autoShowdown: true,
    });
    dealHoles(hand, 'AsAh', 'KsKh', '7c2d');
    call(hand, 2);
    act(hand, { type: 'timeout', player: 0 });
    expect(hand.events.at(-1)).toEqual({ type: 'timeout', player: 0, result: 'artificial-all-in' });
    expect(hand.actor).toBe(1);
    call(hand, 1);
    deal(hand, '3c8d9h');
    expect(hand.actor).toBe(1);
    raiseTo(hand, 1, 2);
    call(hand, 2);
    deal(hand, 'Jc');
    call(hand, 1);
    call(hand, 2);
    deal(hand, '4s');
    call(hand, 1);
    call(hand, 2);
    // Player 0 (aces) matched 1 chip of each: he wins the main pot of 3; kings win the side pot of 6.
    expect(hand.finishingStacks()).toEqual([102, 102, 96]);
  });

  test('no limit: a timeout checks where it can, else folds', () => {
    const hand = holdem('no-limit', [100, 100, 100]);
    dealHoles(hand, 'AsAh', 'KsKh', '7c2d');
    act(hand, { type: 'timeout', player: 2 });
    expect(hand.snapshot().players[2]!.folded).toBe(true);
    call(hand, 0);
    act(hand, { type: 'timeout', player: 1 });
    expect(hand.phase).toBe('deal');
  });
});

describe('WSOP rule 96 (c): short all-ins that add up to a full raise reopen the betting', () => {
  test('house rules: 500, raise to 1000, all-ins to 1300 and 1700 (700 >= 500): the raiser may raise again, min 2200', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [20_000, 20_000, 20_000, 1300, 1700],
      minBet: 1,
    });
    dealHoles(hand, 'AcAd', 'KcKd', 'QcQd', 'JcJd', 'TcTd');
    raiseTo(hand, 0, 500);
    raiseTo(hand, 1, 1000);
    call(hand, 2);
    raiseTo(hand, 3, 1300);
    raiseTo(hand, 4, 1700);
    call(hand, 0);
    expect(hand.actor).toBe(1);
    expect(hand.legalActions()?.raise).toEqual({ min: 2200, max: 20_000 });
  });

  test('house rules: one short all-in (600, then 650 over it) does not reopen the betting', () => {
    const hand = start({
      variant: 'holdem',
      structure: 'no-limit',
      stacks: [650, 20_000, 20_000],
      blinds: [100, 200],
    });
    dealHoles(hand, 'AcAd', 'KcKd', 'QcQd');
    raiseTo(hand, 2, 600);
    raiseTo(hand, 0, 650);
    call(hand, 1);
    expect(hand.actor).toBe(2);
    expect(hand.legalActions()?.raise).toBeNull();
  });
});

describe('a raise someone can call (docs/rules.md "No raise nobody can call")', () => {
  test('no raise when every other player still to act is covered by the current bet', () => {
    // p3 raises to 97; p4 calls all-in; p5 (100) could raise to 100, but p6, p1 and p2 hold less than 97.
    const hand = holdem('no-limit', [56, 43, 97, 23, 100, 13]);
    dealHoles(hand, '7h9h', 'JsAc', 'Td9s', 'Ks7d', '6dTc', 'AsAh');
    raiseTo(hand, 2, 97);
    call(hand, 3);
    expect(hand.actor).toBe(4);
    const legal = hand.legalActions()!;
    expect(legal.raise).toBeNull();
    expect(legal.call).toBe(97);
  });

  test('a raise stays open while one other player can put in more than the bet', () => {
    const hand = holdem('no-limit', [56, 43, 97, 23, 100, 98]);
    dealHoles(hand, '7h9h', 'JsAc', 'Td9s', 'Ks7d', '6dTc', 'AsAh');
    raiseTo(hand, 2, 97);
    call(hand, 3);
    expect(hand.legalActions()!.raise).toEqual({ min: 100, max: 100 });
  });
});

describe('shortAllInReopens: a short all-in is a bet or raise (PokerKit)', () => {
  const flop = (shortAllInReopens: boolean) => {
    const hand = holdem('fixed-limit', [100, 100, 3, 100], { shortAllInReopens });
    dealHoles(hand, 'AsKs', 'QhQd', '2c3c', '9h9d');
    for (const player of [2, 3, 0, 1]) call(hand, player); // p3 keeps 1 chip
    deal(hand, '4d5d6h');
    call(hand, 0);
    call(hand, 1);
    raiseTo(hand, 2, 1); // all in for half the 2 bet
    expect(hand.actor).toBe(3);
    return hand;
  };

  test('the next raise is a full one above the short bet (to 3), where the house completes it to 2', () => {
    expect(flop(true).legalActions()!.raise).toEqual({ min: 3, max: 3 });
    expect(flop(false).legalActions()!.raise).toEqual({ min: 2, max: 2 });
  });

  test('the short bet counts toward the cap of a bet and three raises', () => {
    const hand = flop(true);
    raiseTo(hand, 3, 3);
    raiseTo(hand, 0, 5);
    raiseTo(hand, 1, 7);
    expect(hand.actor).toBe(3);
    expect(hand.legalActions()!.raise).toBeNull();
  });
});

describe("all in with no betting left: hands turned face up in PokerKit's order", () => {
  test('no bet in the round: from where its action started (after the big blind)', () => {
    const hand = holdem('no-limit', [1, 2, 2]);
    dealHoles(hand, 'AsKs', 'QhQd', '2c3c');
    call(hand, 2);
    expect(hand.phase).toBe('deal');
    expect(hand.exposureOrder()).toEqual([2, 0, 1]);
    const shown: number[] = [];
    for (let show = hand.nextExposure(); show !== null; show = hand.nextExposure()) {
      if (show.type === 'show') shown.push(show.player);
      act(hand, show);
    }
    expect(shown).toEqual([2, 0, 1]);
    expect(hand.phase).toBe('deal');
  });

  test('from the last bettor or raiser, a short all-in included', () => {
    const hand = holdem('no-limit', [60, 40, 100]);
    dealHoles(hand, 'AsKs', 'QhQd', '2c3c');
    raiseTo(hand, 2, 50);
    raiseTo(hand, 0, 60); // all in, short of a full raise
    call(hand, 1);
    call(hand, 2);
    expect(hand.phase).toBe('deal');
    expect(hand.exposureOrder()).toEqual([0, 1, 2]);
    expect(hand.nextExposure()).toEqual({ type: 'show', player: 0 });
  });

  test('nothing is turned up while two players can still bet', () => {
    const hand = holdem('no-limit', [10, 100, 100]);
    dealHoles(hand, 'AsKs', 'QhQd', '2c3c');
    raiseTo(hand, 2, 10);
    call(hand, 0);
    call(hand, 1);
    expect(hand.phase).toBe('deal');
    expect(hand.nextExposure()).toBeNull();
  });
});
