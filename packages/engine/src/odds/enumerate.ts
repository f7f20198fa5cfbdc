import type { Card } from '../cards.js';
import { randomBelow, type RandomSource } from '../random.js';
import { bestOmahaValueOf, bestValueOf } from '../eval/combine.js';
import {
  FLUSH_SUIT,
  HighEvaluator,
  PIQUET_RULES,
  SHORT_DECK_RULES,
  standardHigh,
  SUIT_KEY,
} from '../eval/high.js';
import { NO_HAND, type Ranking } from '../eval/ranking.js';
import { indexOfKey, RANK_KEY } from '../eval/rank-index.js';
import type { OddsSpot } from './spot.js';

/**
 * Sums over the run-outs seen: per player, how often he alone had the best (high) hand, how often he
 * shared it, and his pot, high-half and low-half shares (a run-out's whole pot is 1).
 */
export interface Tally {
  runs: number;
  readonly wins: Float64Array;
  readonly ties: Float64Array;
  readonly equity: Float64Array;
  /** Sum of the squared pot shares: the sampling error comes from it. */
  readonly equitySquares: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly scoop: Float64Array;
}

export function newTally(players: number): Tally {
  const zeros = (): Float64Array => new Float64Array(players);
  return {
    runs: 0,
    wins: zeros(),
    ties: zeros(),
    equity: zeros(),
    equitySquares: zeros(),
    high: zeros(),
    low: zeros(),
    scoop: zeros(),
  };
}

/** C(n, k) as a float: exact for every count the calculator meets, and only compared when huge. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return Math.round(result);
}

/** How many different run-outs the spot has: every way to deal each hand's missing cards, then the board's. */
export function runOutCount(spot: OddsSpot): number {
  let left = spot.stub.length;
  let count = 1;
  for (const hand of spot.hands) {
    const missing = hand.size - hand.known.length;
    count *= choose(left, missing);
    left -= missing;
  }
  return count * choose(left, spot.boardSize - spot.board.length);
}

/**
 * The cards of one run-out being dealt: each player's cards (known ones first, then the dealt ones),
 * the board, and which cards are in use. Buffers are reused from run-out to run-out.
 */
class Deal {
  readonly players: number;
  readonly own: Card[][];
  readonly ownKnown: number[];
  readonly board: Card[];
  readonly boardKnown: number;
  /** For the games that take the best of all cards: own cards, then the board. */
  readonly combined: Card[][];
  readonly used = new Uint8Array(52);
  readonly stub: Int32Array;
  readonly headsUp: boolean;

  constructor(readonly spot: OddsSpot) {
    this.players = spot.hands.length;
    this.own = spot.hands.map((hand) => {
      const cards = new Array<Card>(hand.size).fill(0);
      hand.known.forEach((card, i) => (cards[i] = card));
      return cards;
    });
    this.ownKnown = spot.hands.map((hand) => hand.known.length);
    this.board = new Array<Card>(spot.boardSize).fill(0);
    spot.board.forEach((card, i) => (this.board[i] = card));
    this.boardKnown = spot.board.length;
    this.combined = spot.hands.map((hand) => new Array<Card>(hand.size + spot.boardSize).fill(0));
    this.stub = Int32Array.from(spot.stub);
    this.headsUp = this.players === 2;
  }
}

/** Decides run-outs whose every card is dealt: values under each ranking, then the pot shares. */
class Scorer {
  private readonly highValues: Float64Array;
  private readonly lowValues: Float64Array;

  constructor(
    private readonly deal: Deal,
    private readonly tally: Tally,
  ) {
    this.highValues = new Float64Array(deal.players);
    this.lowValues = new Float64Array(deal.players);
  }

  private valuesUnder(ranking: Ranking, out: Float64Array): void {
    const { deal } = this;
    const omaha = deal.spot.rules.combine === 'omaha';
    const headsUp = deal.headsUp ? ranking.headsUpValue : undefined;
    for (let i = 0; i < deal.players; i++) {
      let value: number;
      if (omaha) value = bestOmahaValueOf(ranking, deal.own[i]!, deal.board);
      else {
        const cards = deal.combined[i]!;
        const own = deal.own[i]!;
        for (let j = 0; j < own.length; j++) cards[j] = own[j]!;
        for (let j = 0; j < deal.board.length; j++) cards[own.length + j] = deal.board[j]!;
        value = bestValueOf(ranking, cards);
      }
      out[i] = headsUp ? headsUp(value) : value;
    }
  }

  /** Scores the run-out now in the deal's buffers. */
  score(): void {
    const { spot, players } = this.deal;
    this.valuesUnder(spot.high, this.highValues);
    if (spot.low) this.valuesUnder(spot.low, this.lowValues);
    settle(this.tally, players, this.highValues, spot.low ? this.lowValues : null);
  }
}

/** Adds one decided run-out to the tally. Values at or below NO_HAND do not qualify. */
export function settle(tally: Tally, players: number, high: Float64Array, low: Float64Array | null): void {
  let highBest = NO_HAND;
  let highCount = 0;
  let highWinner = -1;
  for (let i = 0; i < players; i++) {
    const value = high[i]!;
    if (value > highBest) {
      highBest = value;
      highCount = 1;
      highWinner = i;
    } else if (value === highBest && value > NO_HAND) highCount++;
  }
  let lowBest = NO_HAND;
  let lowCount = 0;
  let lowWinner = -1;
  if (low) {
    for (let i = 0; i < players; i++) {
      const value = low[i]!;
      if (value > lowBest) {
        lowBest = value;
        lowCount = 1;
        lowWinner = i;
      } else if (value === lowBest && value > NO_HAND) lowCount++;
    }
  }
  tally.runs++;
  for (let i = 0; i < players; i++) {
    const highShare = highCount > 0 && high[i] === highBest ? 1 / highCount : 0;
    const lowShare = lowCount > 0 && low![i] === lowBest ? 1 / lowCount : 0;
    const share = lowCount > 0 ? (highShare + lowShare) / 2 : highShare;
    if (highShare === 1) tally.wins[i]!++;
    else if (highShare > 0) tally.ties[i]!++;
    tally.equity[i]! += share;
    tally.equitySquares[i]! += share * share;
    tally.high[i]! += highShare;
    tally.low[i]! += lowShare;
  }
  if (highCount === 1 && (lowCount === 0 || (lowCount === 1 && lowWinner === highWinner))) {
    tally.scoop[highWinner]!++;
  }
}

/** Deals what is missing of the board in every way and scores each run-out. */
interface BoardStage {
  run(): void;
}

/** Any game: fills the board's missing cards one combination at a time and scores through the rankings. */
class GenericBoardStage implements BoardStage {
  private readonly scorer: Scorer;
  private readonly avail = new Int32Array(52);
  private count = 0;

  constructor(
    private readonly deal: Deal,
    tally: Tally,
  ) {
    this.scorer = new Scorer(deal, tally);
  }

  run(): void {
    const { deal } = this;
    if (deal.boardKnown === deal.board.length) {
      this.scorer.score();
      return;
    }
    this.count = 0;
    for (const card of deal.stub) if (deal.used[card] === 0) this.avail[this.count++] = card;
    this.step(deal.boardKnown, 0);
  }

  private step(position: number, start: number): void {
    const { deal } = this;
    if (position === deal.board.length) {
      this.scorer.score();
      return;
    }
    const last = this.count - (deal.board.length - position);
    for (let k = start; k <= last; k++) {
      deal.board[position] = this.avail[k]!;
      this.step(position + 1, k + 1);
    }
  }
}

let shortDeck: HighEvaluator | undefined;
let piquet: HighEvaluator | undefined;

/** The table evaluator behind a high-family ranking, where the fast stage can use it. */
function highEvaluatorOf(ranking: Ranking): HighEvaluator | null {
  if (ranking.headsUpValue) return null;
  switch (ranking.id) {
    case 'high':
      return standardHigh();
    case 'shortdeck':
      return (shortDeck ??= new HighEvaluator(SHORT_DECK_RULES));
    case 'americana':
      return (piquet ??= new HighEvaluator(PIQUET_RULES));
    default:
      return null;
  }
}

/**
 * Hold'em, short deck, stud, Americana: the best five of at most seven cards under a high ranking.
 * Each player's rank key and suit counts are summed once per stage, the board's once per card added,
 * so a run-out costs per player two sums and one table read (a flush: a mask and one read).
 */
class FastHighBoardStage implements BoardStage {
  private readonly players: number;
  private readonly ownKey: Int32Array;
  private readonly ownSuits: Int32Array;
  /** Per player and suit: the rank mask of his own cards of that suit. */
  private readonly ownMasks: Int32Array;
  private readonly total: Int32Array;
  private readonly values: Int32Array;
  private readonly avail = new Int32Array(52);
  private count = 0;
  private missing = 0;
  /** The board's rank mask per suit, by depth (four slots per depth); the last slot is the full board's. */
  private readonly boardMasks = new Int32Array(4 * 7);
  private readonly rankTable: Int32Array;
  private readonly flushTable: Int32Array;

  constructor(
    private readonly deal: Deal,
    private readonly tally: Tally,
    evaluator: HighEvaluator,
  ) {
    const players = (this.players = deal.players);
    this.ownKey = new Int32Array(players);
    this.ownSuits = new Int32Array(players);
    this.ownMasks = new Int32Array(players * 4);
    this.values = new Int32Array(players);
    this.total = Int32Array.from(deal.own, (own) => own.length + deal.board.length);
    this.rankTable = evaluator.rankTable;
    this.flushTable = evaluator.flushTable;
  }

  run(): void {
    const { deal } = this;
    this.ownMasks.fill(0);
    for (let i = 0; i < this.players; i++) {
      let key = 0;
      let suits = 0;
      for (const card of deal.own[i]!) {
        key += RANK_KEY[card]!;
        suits += SUIT_KEY[card]!;
        this.ownMasks[i * 4 + (card & 3)]! |= 1 << (card >> 2);
      }
      this.ownKey[i] = key;
      this.ownSuits[i] = suits;
    }
    let key = 0;
    let suits = 0;
    this.boardMasks.fill(0, 0, 4);
    for (let j = 0; j < deal.boardKnown; j++) {
      const card = deal.board[j]!;
      key += RANK_KEY[card]!;
      suits += SUIT_KEY[card]!;
      this.boardMasks[card & 3]! |= 1 << (card >> 2);
    }
    this.missing = deal.board.length - deal.boardKnown;
    if (this.missing === 0) {
      this.boardMasks.copyWithin(24, 0, 4);
      this.settle(key, suits);
      return;
    }
    this.count = 0;
    for (const card of deal.stub) if (deal.used[card] === 0) this.avail[this.count++] = card;
    this.step(0, 0, key, suits);
  }

  private step(depth: number, start: number, key: number, suits: number): void {
    const masks = this.boardMasks;
    const avail = this.avail;
    const base = depth * 4;
    const last = this.count - (this.missing - depth);
    if (depth === this.missing - 1) {
      for (let k = start; k <= last; k++) {
        const card = avail[k]!;
        masks[24] = masks[base]!;
        masks[25] = masks[base + 1]!;
        masks[26] = masks[base + 2]!;
        masks[27] = masks[base + 3]!;
        masks[24 + (card & 3)]! |= 1 << (card >> 2);
        this.settle(key + RANK_KEY[card]!, suits + SUIT_KEY[card]!);
      }
      return;
    }
    for (let k = start; k <= last; k++) {
      const card = avail[k]!;
      const next = base + 4;
      masks[next] = masks[base]!;
      masks[next + 1] = masks[base + 1]!;
      masks[next + 2] = masks[base + 2]!;
      masks[next + 3] = masks[base + 3]!;
      masks[next + (card & 3)]! |= 1 << (card >> 2);
      this.step(depth + 1, k + 1, key + RANK_KEY[card]!, suits + SUIT_KEY[card]!);
    }
  }

  /** Scores one complete board whose summed rank key and suit counts are given (its masks in slot 24). */
  private settle(boardKey: number, boardSuits: number): void {
    const players = this.players;
    const values = this.values;
    let best = -1;
    let bestCount = 0;
    let winner = -1;
    for (let i = 0; i < players; i++) {
      const flushSuit = FLUSH_SUIT[this.ownSuits[i]! + boardSuits]!;
      const value =
        flushSuit >= 0
          ? this.flushTable[this.boardMasks[24 + flushSuit]! | this.ownMasks[i * 4 + flushSuit]!]!
          : this.rankTable[indexOfKey(this.ownKey[i]! + boardKey, this.total[i]!)]!;
      values[i] = value;
      if (value > best) {
        best = value;
        bestCount = 1;
        winner = i;
      } else if (value === best) bestCount++;
    }
    const tally = this.tally;
    tally.runs++;
    if (bestCount === 1) {
      tally.wins[winner]!++;
      tally.equity[winner]!++;
      tally.equitySquares[winner]!++;
      tally.high[winner]!++;
      tally.scoop[winner]!++;
      return;
    }
    const share = 1 / bestCount;
    for (let i = 0; i < players; i++) {
      if (values[i] !== best) continue;
      tally.ties[i]!++;
      tally.equity[i]! += share;
      tally.equitySquares[i]! += share * share;
      tally.high[i]! += share;
    }
  }
}

function boardStageFor(deal: Deal, tally: Tally): BoardStage {
  const { spot } = deal;
  const evaluator = spot.low === null && spot.rules.combine === 'any' ? highEvaluatorOf(spot.high) : null;
  const sizesFit = deal.combined.every((cards) => cards.length >= 5 && cards.length <= 7);
  return evaluator && sizesFit
    ? new FastHighBoardStage(deal, tally, evaluator)
    : new GenericBoardStage(deal, tally);
}

/** Plays every run-out of the spot once: each hand's missing cards in every way, then the board's. */
export function enumerateSpot(spot: OddsSpot): Tally {
  const deal = new Deal(spot);
  const tally = newTally(deal.players);
  const stage = boardStageFor(deal, tally);
  const stub = deal.stub;

  const dealHand = (player: number, position: number, start: number): void => {
    if (player === deal.players) {
      stage.run();
      return;
    }
    const own = deal.own[player]!;
    if (position === own.length) {
      dealHand(player + 1, deal.ownKnown[player + 1] ?? 0, 0);
      return;
    }
    for (let k = start; k < stub.length; k++) {
      const card = stub[k]!;
      if (deal.used[card] !== 0) continue;
      deal.used[card] = 1;
      own[position] = card;
      dealHand(player, position + 1, k + 1);
      deal.used[card] = 0;
    }
  };
  dealHand(0, deal.ownKnown[0]!, 0);
  return tally;
}

/** Plays `samples` run-outs drawn uniformly from the stub by the random source. */
export function sampleSpot(spot: OddsSpot, samples: number, random: RandomSource): Tally {
  const deal = new Deal(spot);
  const tally = newTally(deal.players);
  const scorer = new Scorer(deal, tally);
  const stub = Int32Array.from(spot.stub);
  const needed =
    deal.own.reduce((sum, own, i) => sum + own.length - deal.ownKnown[i]!, 0) +
    deal.board.length -
    deal.boardKnown;
  for (let sample = 0; sample < samples; sample++) {
    // A partial Fisher–Yates shuffle: the first `needed` cards are a uniform ordered draw.
    for (let j = 0; j < needed; j++) {
      const pick = j + randomBelow(random, stub.length - j);
      const card = stub[pick]!;
      stub[pick] = stub[j]!;
      stub[j] = card;
    }
    let next = 0;
    for (let i = 0; i < deal.players; i++) {
      const own = deal.own[i]!;
      for (let position = deal.ownKnown[i]!; position < own.length; position++) own[position] = stub[next++]!;
    }
    for (let position = deal.boardKnown; position < deal.board.length; position++) {
      deal.board[position] = stub[next++]!;
    }
    scorer.score();
  }
  return tally;
}
