import { describe, expect, it } from 'vitest';
import { formatCard, type Card } from '../src/cards.js';
import { deckCards } from '../src/deck.js';
import { GAME_IDS, SHOWDOWN_RULES, type GameId } from '../src/eval/games.js';
import { showdownWinners } from '../src/eval/showdown.js';
import { seededRandom, shuffleInPlace } from '../src/random.js';
import {
  computeOdds,
  discardChoices,
  enumerateSpot,
  EXACT_LIMIT,
  oddsJson,
  parseOddsRequest,
  roundToSum,
  runOutCount,
  type OddsRequest,
  type OddsSpot,
} from '../src/odds/index.js';

function spotOf(request: OddsRequest): OddsSpot {
  const parsed = parseOddsRequest(request);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** Sums per player, from the independent brute force below. */
interface Totals {
  runs: number;
  wins: number[];
  ties: number[];
  equity: number[];
  low: number[];
  scoop: number[];
}

/**
 * The slow, obvious way: deal every hand's missing cards and then the board's in every way, with
 * plain arrays, and ask the room's showdown who wins each run-out.
 */
function bruteForce(spot: OddsSpot): Totals {
  const players = spot.hands.length;
  const totals: Totals = {
    runs: 0,
    wins: new Array<number>(players).fill(0),
    ties: new Array<number>(players).fill(0),
    equity: new Array<number>(players).fill(0),
    low: new Array<number>(players).fill(0),
    scoop: new Array<number>(players).fill(0),
  };
  const combos = (from: readonly Card[], k: number): Card[][] => {
    if (k === 0) return [[]];
    const result: Card[][] = [];
    from.forEach((card, i) => {
      for (const rest of combos(from.slice(i + 1), k - 1)) result.push([card, ...rest]);
    });
    return result;
  };
  const visit = (player: number, holes: Card[][], left: readonly Card[]): void => {
    if (player < players) {
      const hand = spot.hands[player]!;
      for (const extra of combos(left, hand.size - hand.known.length)) {
        visit(
          player + 1,
          [...holes, [...hand.known, ...extra]],
          left.filter((card) => !extra.includes(card)),
        );
      }
      return;
    }
    for (const extra of combos(left, spot.boardSize - spot.board.length)) {
      const { winners, lowWinners } = showdownWinners({
        rules: spot.rules,
        board: [...spot.board, ...extra],
        holes,
      });
      const hasLow = lowWinners !== null && lowWinners.length > 0;
      totals.runs++;
      for (let i = 0; i < players; i++) {
        const high = winners.includes(i) ? 1 / winners.length : 0;
        const low = hasLow && lowWinners.includes(i) ? 1 / lowWinners.length : 0;
        if (high === 1) totals.wins[i]!++;
        else if (high > 0) totals.ties[i]!++;
        totals.equity[i]! += hasLow ? (high + low) / 2 : high;
        totals.low[i]! += low;
      }
      if (winners.length === 1 && (!hasLow || (lowWinners.length === 1 && lowWinners[0] === winners[0]))) {
        totals.scoop[winners[0]!]!++;
      }
    }
  };
  visit(0, [], spot.stub);
  return totals;
}

function expectSameAsBruteForce(spot: OddsSpot): void {
  const tally = enumerateSpot(spot);
  const slow = bruteForce(spot);
  expect(tally.runs).toBe(slow.runs);
  expect(runOutCount(spot)).toBe(slow.runs);
  expect([...tally.wins]).toEqual(slow.wins);
  expect([...tally.ties]).toEqual(slow.ties);
  [...tally.equity].forEach((equity, i) => {
    expect(equity).toBeCloseTo(slow.equity[i]!, 9);
  });
  if (spot.low) {
    [...tally.low].forEach((low, i) => {
      expect(low).toBeCloseTo(slow.low[i]!, 9);
    });
    expect([...tally.scoop]).toEqual(slow.scoop);
  }
}

const REGISTERED = GAME_IDS.filter((game) => parseOddsRequest({ game, hands: ['??', '??'] }).ok);

/**
 * A random spot of the game with only a few cards still to come (so that the brute force stays
 * quick): hands of known cards, one of them sometimes unknown, the rest dealt.
 */
function smallSpot(game: GameId, seed: number): OddsRequest {
  const rules = SHOWDOWN_RULES[game];
  const deck = shuffleInPlace(deckCards(rules.deck), seededRandom(seed));
  const take = (n: number): string =>
    deck
      .splice(0, n)
      .map((card) => formatCard(card))
      .join('');
  const players = 2 + (seed % 2);
  const dead = take(2);
  switch (game) {
    case 'holdem':
    case 'shortdeck':
    case 'omaha':
    case 'omaha5':
    case 'omaha-hilo':
    case 'omaha5-hilo': {
      const hole = rules.hole[0];
      const hands = Array.from({ length: players }, () => take(hole));
      // An unknown hand where the brute force stays small: two hole cards.
      const unknown = hole === 2 && seed % 3 !== 1;
      return { game, board: take(4), dead, hands: unknown ? [...hands.slice(1), '??'] : hands };
    }
    case 'draw5':
    case 'triple-draw-27':
    case 'single-draw-27':
    case 'badugi':
    case 'draw32': {
      const size = rules.hole[0];
      const others = Array.from({ length: players - 1 }, () => take(size));
      return { game, dead, hands: [`${take(size - 1)}??`, ...others] };
    }
    default: {
      // Stud games: two players two and one cards short, or three players with one card to come.
      const full = game === 'stud' || game === 'stud-hilo' || game === 'razz' ? 7 : 5;
      // (Telesina's Vela is one more card to come, and its hands are slow to rank: one card short at most.)
      const twoShort = players === 2 && game !== 'telesina';
      const short = (i: number): number => (twoShort ? 2 - i : i === 0 ? 1 : 0);
      return { game, dead, hands: Array.from({ length: players }, (_, i) => take(full - short(i))) };
    }
  }
}

describe('the odds are exact counts over every run-out', () => {
  it('AsKs against QhQd preflop: 787,966 wins, 917,606 losses and 6,732 ties of 1,712,304 boards', () => {
    const result = computeOdds(spotOf({ game: 'holdem', hands: ['AsKs', 'QhQd'] }));
    expect(result.method).toBe('exact');
    expect(result.boards).toBe(1_712_304);
    const [ak, qq] = result.players;
    expect(ak!.win * 1_712_304).toBeCloseTo(787_966, 6);
    expect(qq!.win * 1_712_304).toBeCloseTo(917_606, 6);
    expect(ak!.tie * 1_712_304).toBeCloseTo(6_732, 6);
    expect(oddsJson(result)).toMatchObject({
      method: 'exact',
      boards: 1_712_304,
      players: [
        { hand: 'AsKs', win: 0.4602, tie: 0.0039, equity: 0.4621 },
        { hand: 'QhQd', win: 0.5359, tie: 0.0039, equity: 0.5379 },
      ],
    });
  });

  it('three-way preflop enumerates all C(46,5) = 1,370,754 boards and the shares add up', () => {
    const result = computeOdds(spotOf({ game: 'holdem', hands: ['AsKs', 'QhQd', 'JcTc'] }));
    expect(result.boards).toBe(1_370_754);
    expect(result.players.reduce((sum, player) => sum + player.equity, 0)).toBeCloseTo(1, 12);
  });

  it.each(REGISTERED.flatMap((game) => [0, 1, 2].map((round) => [game, round] as const)))(
    '%s spot %i agrees with a brute force over the room showdown',
    (game, round) => {
      expectSameAsBruteForce(spotOf(smallSpot(game, round * 17 + game.length)));
    },
  );

  it("hold'em and Omaha on the flop agree with the brute force (the fast path against the room showdown)", () => {
    expectSameAsBruteForce(spotOf({ game: 'holdem', board: '7h8h2c', hands: ['AhKh', 'QsQc', '9s9d'] }));
    expectSameAsBruteForce(
      spotOf({ game: 'shortdeck', board: '7h8h9c', dead: 'AsKd', hands: ['AhKh', '??'] }),
    );
    expectSameAsBruteForce(spotOf({ game: 'omaha-hilo', board: '7h5h2c', hands: ['Ah2hKs9d', '3s4sQcJc'] }));
  });
});

describe('unknown hands and dead cards', () => {
  it('an unknown hand (??) is dealt from the stub: on the river it is every two cards left, 990 of them', () => {
    const spot = spotOf({ game: 'holdem', board: '2h7h9cQdKs', hands: ['AhKh', '??'] });
    const result = computeOdds(spot);
    expect(result.method).toBe('exact');
    expect(result.boards).toBe(990);
    // Kings with an ace kicker lose to two pair or better, two-card hands only.
    expectSameAsBruteForce(spot);
    expect(result.players[1]!.hand).toBe('??');
  });

  it('`????` means the same unknown hand, and `As??` one known and one unknown card', () => {
    const one = computeOdds(spotOf({ game: 'holdem', board: '2h7h9cQd', hands: ['AhKh', '??'] }));
    const two = computeOdds(spotOf({ game: 'holdem', board: '2h7h9cQd', hands: ['AhKh', '????'] }));
    expect(two.players.map((p) => p.equity)).toEqual(one.players.map((p) => p.equity));
    expectSameAsBruteForce(spotOf({ game: 'omaha', board: '2h7h9cQd', hands: ['AhKhQhJd', 'Ts9s????'] }));
  });

  it('dead cards leave the stub: AsKs against QhQd with two dead cards has C(46,5) boards', () => {
    const spot = spotOf({ game: 'holdem', dead: '2c3c', hands: ['AsKs', 'QhQd'] });
    expect(runOutCount(spot)).toBe(1_370_754);
    const flop = spotOf({
      game: 'holdem',
      board: 'Js Tc 4h'.replace(/ /g, ''),
      dead: 'QsQcAh',
      hands: ['AsKs', 'QhQd'],
    });
    expect(computeOdds(flop).boards).toBe(861);
    expectSameAsBruteForce(flop);
  });

  it('the stud hands are the cards so far: the rest of the seven come from the stub', () => {
    const spot = spotOf({ game: 'stud', dead: 'Kc4d9h', hands: ['AsAdKs7h', 'QhQdJsJc'] });
    // 41 cards left; the first player's three cards to come, then the second's.
    expect(runOutCount(spot)).toBe(((41 * 40 * 39) / 6) * ((38 * 37 * 36) / 6));
    expect(computeOdds(spot).method).toBe('sampled');
    expect(spot.hands.map((hand) => hand.size)).toEqual([7, 7]);
  });
});

describe('hi/lo games give high, low and scoop shares that fit together', () => {
  it('shares add up, scoops are wins, and the pot is the halves', () => {
    const result = computeOdds(
      spotOf({ game: 'omaha-hilo', board: '7h5h2c', hands: ['Ah2hKs9d', '3s4sQcJc', '9h9cTdTh'] }),
    );
    const players = result.players;
    const sum = (pick: (p: (typeof players)[number]) => number): number =>
      players.reduce((s, p) => s + pick(p), 0);
    expect(sum((p) => p.equity)).toBeCloseTo(1, 12);
    expect(sum((p) => p.high!)).toBeCloseTo(1, 12);
    expect(sum((p) => p.low!)).toBeLessThanOrEqual(1 + 1e-12);
    for (const player of players) {
      expect(player.scoop!).toBeLessThanOrEqual(player.win + 1e-12);
      // The equity sits between half his high share and his high share plus half his low share.
      expect(player.equity).toBeGreaterThanOrEqual(player.high! / 2 + player.low! / 2 - 1e-12);
      expect(player.equity).toBeLessThanOrEqual(player.high! + player.low! / 2 + 1e-12);
    }
    // No low card for the nines and tens: never a low share, never a scoop with a low on board.
    expect(players[2]!.low).toBe(0);
  });

  it('without a qualifying low the high hand scoops: a board of big cards', () => {
    const result = computeOdds(spotOf({ game: 'stud-hilo', hands: ['AsAdKsKhQcQdJs', 'TcTd9c9h8s8d7c'] }));
    expect(result.boards).toBe(1);
    expect(result.players.map((p) => [p.win, p.equity, p.low, p.scoop])).toEqual([
      [1, 1, 0, 1],
      [0, 0, 0, 0],
    ]);
  });

  it('the other games have no low and no scoop (null)', () => {
    const [player] = computeOdds(
      spotOf({ game: 'holdem', board: '2h7h9cQdKs', hands: ['AhKh', 'QsQc'] }),
    ).players;
    expect([player!.high, player!.low, player!.scoop]).toEqual([null, null, null]);
  });
});

describe('sampling: past the exact limit, or when asked, with a seed and a standard error', () => {
  it('the same seed gives the same figures, and they sit within four standard errors of the exact ones', () => {
    const spot = spotOf({ game: 'holdem', board: '7h8h2c', hands: ['AhKh', 'QsQc', '9s9d'] });
    const exact = computeOdds(spot);
    const first = computeOdds(spot, { samples: 20_000, seed: 7 });
    const again = computeOdds(spot, { samples: 20_000, seed: 7 });
    expect(again).toEqual(first);
    expect(first.method).toBe('sampled');
    expect(first.seed).toBe(7);
    expect(first.boards).toBe(20_000);
    first.players.forEach((player, i) => {
      expect(player.stdErr).toBeGreaterThan(0);
      expect(Math.abs(player.equity - exact.players[i]!.equity)).toBeLessThan(4 * player.stdErr!);
    });
    expect(computeOdds(spot, { samples: 20_000, seed: 8 })).not.toEqual(first);
  });

  it('a spot past EXACT_LIMIT run-outs is sampled, always: AsKs against an unknown hand preflop', () => {
    const spot = spotOf({ game: 'holdem', hands: ['AsKs', '??'] });
    expect(runOutCount(spot)).toBeGreaterThan(EXACT_LIMIT);
    const result = computeOdds(spot, { samples: 20_000 });
    expect(result.method).toBe('sampled');
    // AKs against a random hand: about 67%.
    expect(result.players[0]!.equity).toBeGreaterThan(0.64);
    expect(result.players[0]!.equity).toBeLessThan(0.7);
  });
});

describe('outs: the next cards that put a player ahead when he is not', () => {
  it('a flush draw with two overcards against a pair of queens has 15 outs on the flop', () => {
    const result = computeOdds(spotOf({ game: 'holdem', board: '2h7h9c', hands: ['AhKh', 'QsQc'] }));
    const outs = result.players[0]!.outs.map((card) => formatCard(card)).sort();
    const hearts = ['3h', '4h', '5h', '6h', '8h', '9h', 'Th', 'Jh', 'Qh'];
    expect(outs).toEqual([...hearts, 'Ac', 'Ad', 'As', 'Kc', 'Kd', 'Ks'].sort());
    expect(result.players[1]!.outs).toEqual([]);
  });

  it('on the river, preflop and with an unknown hand there are none to list', () => {
    for (const request of [
      { game: 'holdem', board: '2h7h9cQdKs', hands: ['AhKh', 'QsQc'] },
      { game: 'holdem', hands: ['AhKh', 'QsQc'] },
      { game: 'holdem', board: '2h7h9c', hands: ['AhKh', '??'] },
    ]) {
      expect(computeOdds(spotOf(request)).players.every((player) => player.outs.length === 0)).toBe(true);
    }
  });

  it("stud: the trailing player's next own card", () => {
    const result = computeOdds(spotOf({ game: 'stud', hands: ['AsAd7c5d2h3c', 'KsKdKhJc9c8d'] }));
    // Aces catch up with an ace or a wheel card that makes the straight: A, 4.
    expect(result.players[0]!.outs.map((card) => formatCard(card)).sort()).toEqual(
      ['4c', '4d', '4h', '4s', 'Ac', 'Ah'].sort(),
    );
    expect(result.players[1]!.outs).toEqual([]);
  });
});

describe("draw games: the hands as they stand, and the first player's discards", () => {
  it('as they stand, two known hands are one showdown', () => {
    const result = computeOdds(spotOf({ game: 'draw5', hands: ['AsAdKc7h2c', 'QhQdJsJc3c'] }));
    expect(result.boards).toBe(1);
    expect(result.players.map((p) => p.equity)).toEqual([0, 1]);
  });

  it('a discard of one card draws from the stub, never the discard itself, and lists the outs', () => {
    const spot = spotOf({ game: 'draw5', hands: ['AsAdKc7h2c', 'QhQdJsJc3c'], discard: '2c' });
    expect(spot.hands[0]!.known.map((card) => formatCard(card))).toEqual(['As', 'Ad', 'Kc', '7h']);
    const result = computeOdds(spot);
    expect(result.boards).toBe(42);
    // Aces up beat queens up: a king or a seven (three of each left), aces full or trips with an ace (two).
    const outs = result.players[0]!.outs.map((card) => formatCard(card)).sort();
    expect(outs).toEqual(['7c', '7d', '7s', 'Ac', 'Ah', 'Kd', 'Kh', 'Ks'].sort());
    expect(result.players[0]!.equity).toBeCloseTo(8 / 42, 12);
    expectSameAsBruteForce(spot);
  });

  it('every discard is priced against the hands as they stand, best first', () => {
    const spot = spotOf({ game: 'single-draw-27', hands: ['7c5d4h3s9c', '8c6d5h3d2s'] });
    const choices = discardChoices(spot);
    expect(choices).toHaveLength(32);
    const best = choices[0]!;
    expect(best.discard.map((card) => formatCard(card))).toEqual(['9c']);
    // Drawing one to 7-5-4-3: a 2 or a 6 (four each less the 2s and 6d out) beats 8-6-5-3-2.
    const pat = choices.find((choice) => choice.discard.length === 0)!;
    expect(pat.odds.equity).toBe(0);
    expect(best.boards).toBe(42);
  });
});

describe('bad input is a typed error', () => {
  it.each([
    [{ game: 'holdem', hands: ['AsKs', 'AsQd'] }, 'DUPLICATE_CARD'],
    [{ game: 'holdem', board: '2c3c4c', dead: '2c', hands: ['AsKs', 'QdQh'] }, 'DUPLICATE_CARD'],
    [{ game: 'holdem', hands: ['AsKx', 'QdQh'] }, 'BAD_CARD'],
    [{ game: 'holdem', hands: ['AsK', 'QdQh'] }, 'BAD_CARD'],
    [{ game: 'holdem', hands: ['AsKsQs', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'holdem', hands: ['As', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'omaha', hands: ['AsKs', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'holdem', board: '2c3c', hands: ['AsKs', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'holdem', board: '2c3c4c5c6c7c', hands: ['AsKs', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'draw5', hands: ['AsKs', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'stud', hands: ['AsKsQsJsTs9s8s7s', 'QdQh'] }, 'BAD_CARD_COUNT'],
    [{ game: 'holdem', hands: ['AsKs'] }, 'BAD_REQUEST'],
    [{ game: 'holdem', hands: ['AsKs', 'QdQh'], discard: 'As' }, 'BAD_REQUEST'],
    [{ game: 'draw5', hands: ['AsKsQsJs9d', 'QdQh2c3c4c'], discard: 'Ah' }, 'BAD_REQUEST'],
    [{ game: 'shortdeck', hands: ['AsKs', '2d2h'] }, 'CARD_NOT_IN_DECK'],
    [{ game: 'nope', hands: ['AsKs', 'QdQh'] }, 'UNKNOWN_GAME'],
    [{ game: 'draw32', hands: Array.from({ length: 7 }, () => '??') }, 'BAD_CARD_COUNT'],
  ] as [OddsRequest, string][])('%j → %s', (request, code) => {
    const parsed = parseOddsRequest(request);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe(code);
  });
});

describe('rounding for the command line', () => {
  it('keeps the equities adding up to one at four decimals', () => {
    expect(roundToSum([1 / 3, 1 / 3, 1 / 3])).toEqual([0.3334, 0.3333, 0.3333]);
    expect(roundToSum([0.12345, 0.87655]).reduce((a, b) => a + b)).toBeCloseTo(1, 12);
  });
});
