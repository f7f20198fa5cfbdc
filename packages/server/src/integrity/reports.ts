/**
 * The game-security reports, computed from the stored hand histories alone (./hands.ts): who sits
 * together far more than chance, chip flow between pairs without showdown (chip dumping), pairs who do
 * not raise each other (soft play), and win-rate outliers. Each is a statistical test with a stated
 * threshold: a finding is reported when its tail probability is below `alpha / tests`, tests being the
 * pairs (or players) the report could have flagged (Bonferroni), so that on honest play the chance of any
 * false finding in a report is at most `alpha`. Every finding lists the hands that support it.
 */
import type { UserId } from '../storage/types.js';
import type { ReadHand } from './hands.js';
import { normalUpperTail, poissonUpperTail } from './statistics.js';

export interface IntegrityOptions {
  /** The family-wise false-alarm bound of each report (default 0.01). */
  readonly alpha?: number;
  /** Hand ids listed per finding at most (default 500; `handCount` is the full number). */
  readonly maxHands?: number;
}

export const DEFAULT_ALPHA = 0.01;

/** A pair or player flagged, with the figure tested and the hands behind it. */
export interface Finding {
  readonly players: readonly UserId[];
  /** The tail probability of what was seen, if play were honest. */
  readonly pValue: number;
  /** `alpha / tests`: flagged when pValue is below it. */
  readonly threshold: number;
  readonly hands: readonly number[];
  readonly handCount: number;
}

export interface SeatingFinding extends Finding {
  /** Sittings of the two together at one table, and how many chance would give (table occupancy). */
  readonly together: number;
  readonly expected: number;
}

export interface ChipDumpingFinding extends Finding {
  /** `players[0]` loses to `players[1]`: chips he lost to him without showdown, less the reverse. */
  readonly from: UserId;
  readonly to: UserId;
  readonly netFlow: number;
  readonly z: number;
}

export interface SoftPlayFinding extends Finding {
  /** Bets and raises either made heads-up against the other, and what their heads-up rates against others give. */
  readonly raises: number;
  readonly expected: number;
  readonly decisions: number;
  readonly z: number;
}

export interface WinRateFinding extends Finding {
  /** Big blinds won per 100 hands. */
  readonly bbPer100: number;
  readonly handsPlayed: number;
  readonly z: number;
}

export interface IntegrityReports {
  readonly alpha: number;
  readonly hands: number;
  readonly players: number;
  readonly seating: readonly SeatingFinding[];
  readonly chipDumping: readonly ChipDumpingFinding[];
  readonly softPlay: readonly SoftPlayFinding[];
  readonly winRate: readonly WinRateFinding[];
}

/** Fewest hands, decisions or expected events below which a pair or player is not tested. */
const MIN_SHARED_HANDS = 30;
const MIN_EXPECTED_RAISES = 5;
/** Heads-up decisions against one opponent before his rate counts as the highest (`softPlayReport`). */
const MIN_RATE_DECISIONS = 20;
const MIN_HANDS_PLAYED = 200;

const pairKey = (a: UserId, b: UserId): string => (a < b ? `${a}:${b}` : `${b}:${a}`);
const orderedKey = (from: UserId, to: UserId): string => `${from}>${to}`;

/** Counters per key, made on first use. */
function tally<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

const byPValue = <T extends Finding>(list: T[]): T[] => list.sort((a, b) => a.pValue - b.pValue);

interface Sitting {
  readonly userId: UserId;
  readonly tableId: string;
  readonly start: number;
  end: number;
  last: number;
  readonly hands: number[];
}

/** Each player's runs of consecutive hands at one table (a hand missed at the table ends a run). */
function sittingsOf(hands: readonly ReadHand[]): Sitting[] {
  const current = new Map<string, Sitting>();
  const dealt = new Map<string, number>();
  const done: Sitting[] = [];
  for (const hand of hands) {
    const index = (dealt.get(hand.tableId) ?? 0) + 1;
    dealt.set(hand.tableId, index);
    for (const { userId } of hand.players) {
      const key = `${hand.tableId}:${userId}`;
      const sitting = current.get(key);
      if (sitting !== undefined && sitting.last === index - 1) {
        sitting.end = hand.endedAt;
        sitting.last = index;
        sitting.hands.push(hand.handId);
        continue;
      }
      if (sitting !== undefined) done.push(sitting);
      const start = hand.startedAt;
      current.set(key, {
        userId,
        tableId: hand.tableId,
        start,
        end: hand.endedAt,
        last: index,
        hands: [hand.handId],
      });
    }
  }
  return [...done, ...current.values()].sort((a, b) => a.start - b.start);
}

/**
 * Who sits together more than chance. A sitting is a player's run of consecutive hands at one table;
 * chance seats him as the room's occupancy would: for each of A's sittings, the share of the other
 * sittings overlapping it in time (anywhere in the room) that were at his table. B's sittings
 * overlapping it, each at that share, are what chance gives; the count together is tested with the
 * Poisson tail, over every pair that overlapped in time.
 */
function seatingReport(hands: readonly ReadHand[], alpha: number, maxHands: number): SeatingFinding[] {
  const sittings = sittingsOf(hands);
  const pairs = new Map<
    string,
    { a: UserId; b: UserId; together: number; expected: number; hands: number[] }
  >();
  for (let i = 0; i < sittings.length; i++) {
    const mine = sittings[i]!;
    const overlapping: Sitting[] = [];
    for (const other of sittings) {
      if (other.start > mine.end) break;
      if (other.userId !== mine.userId && other.end >= mine.start) overlapping.push(other);
    }
    if (overlapping.length === 0) continue;
    const mates = overlapping.filter((other) => other.tableId === mine.tableId);
    const share = mates.length / overlapping.length;
    for (const other of overlapping) {
      const pair = tally(pairs, pairKey(mine.userId, other.userId), () => ({
        a: Math.min(mine.userId, other.userId),
        b: Math.max(mine.userId, other.userId),
        together: 0,
        expected: 0,
        hands: [],
      }));
      // Each direction counts half, so that a pair's figures do not depend on which one is "A".
      pair.expected += share / 2;
      if (other.tableId === mine.tableId) {
        pair.together += 0.5;
        if (mine.userId < other.userId) {
          const theirs = new Set(other.hands);
          pair.hands.push(...mine.hands.filter((id) => theirs.has(id)));
        }
      }
    }
  }
  const threshold = alpha / Math.max(1, pairs.size);
  const found: SeatingFinding[] = [];
  for (const pair of pairs.values()) {
    const together = Math.round(pair.together);
    const pValue = poissonUpperTail(together, pair.expected);
    if (pValue >= threshold) continue;
    const sorted = pair.hands.sort((x, y) => x - y);
    found.push({
      players: [pair.a, pair.b],
      pValue,
      threshold,
      together,
      expected: round(pair.expected),
      hands: sorted.slice(0, maxHands),
      handCount: sorted.length,
    });
  }
  return byPValue(found);
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Chip dumping: in each pot won without a showdown, a loser's loss is shared among the winners in
 * proportion to their gains (so a player's folds count toward whoever took the pot uncontested). The net flow from A to B over their hands together,
 * divided by the root of the sum of its squares per hand (a self-normalised z, robust to the few big
 * pots poker has), is tested one-sided for each direction of each pair.
 */
function chipDumpingReport(
  hands: readonly ReadHand[],
  alpha: number,
  maxHands: number,
): ChipDumpingFinding[] {
  const flows = new Map<
    string,
    { from: UserId; to: UserId; sum: number; squares: number; n: number; hands: number[] }
  >();
  for (const hand of hands) {
    if (hand.players.some((p) => p.showdown)) continue;
    const gains = hand.players.filter((p) => p.net > 0);
    const total = gains.reduce((sum, p) => sum + p.net, 0);
    const moved = new Map<string, number>();
    for (const loser of hand.players) {
      if (loser.net >= 0) continue;
      for (const winner of gains)
        moved.set(orderedKey(loser.userId, winner.userId), (-loser.net * winner.net) / total);
    }
    const players = hand.players;
    for (let i = 0; i < players.length; i++) {
      for (let j = i + 1; j < players.length; j++) {
        const a = players[i]!.userId;
        const b = players[j]!.userId;
        const d = (moved.get(orderedKey(a, b)) ?? 0) - (moved.get(orderedKey(b, a)) ?? 0);
        if (d === 0) continue;
        const [from, to, flow] = d > 0 ? [a, b, d] : [b, a, -d];
        for (const [x, y, v] of [
          [from, to, flow],
          [to, from, -flow],
        ] as const) {
          const entry = tally(flows, orderedKey(x, y), () => ({
            from: x,
            to: y,
            sum: 0,
            squares: 0,
            n: 0,
            hands: [],
          }));
          entry.sum += v;
          entry.squares += v * v;
          entry.n++;
          if (v > 0) entry.hands.push(hand.handId);
        }
      }
    }
  }
  const tested = [...flows.values()].filter((f) => f.n >= MIN_SHARED_HANDS);
  const threshold = alpha / Math.max(1, tested.length);
  const found: ChipDumpingFinding[] = [];
  for (const flow of tested) {
    const z = flow.sum / Math.sqrt(flow.squares);
    const pValue = normalUpperTail(z);
    if (pValue >= threshold) continue;
    found.push({
      players: [flow.from, flow.to],
      from: flow.from,
      to: flow.to,
      netFlow: Math.round(flow.sum),
      z: round(z),
      pValue,
      threshold,
      hands: flow.hands.slice(0, maxHands),
      handCount: flow.hands.length,
    });
  }
  return byPValue(found);
}

/**
 * Soft play: A's bets and raises heads-up against B, against what A's rate heads-up against the
 * others (see `rateWithout`) would give for as many decisions, and the same for B; the pair's total is tested one-sided
 * (fewer than chance) with its normal approximation. Heads-up only, so that a third player who sits
 * with a soft pair is not taken for one of it (the pair's restraint would show in his pots too).
 */
function softPlayReport(hands: readonly ReadHand[], alpha: number, maxHands: number): SoftPlayFinding[] {
  const overall = new Map<string, { decisions: number; raises: number }>();
  const facing = new Map<string, { decisions: number; raises: number }>();
  const shared = new Map<string, Set<number>>();
  for (const hand of hands) {
    for (const decision of hand.decisions) {
      if (decision.against.length !== 1) continue;
      const other = decision.against[0]!;
      const mine = tally(overall, String(decision.userId), () => ({ decisions: 0, raises: 0 }));
      mine.decisions++;
      if (decision.raised) mine.raises++;
      const entry = tally(facing, orderedKey(decision.userId, other), () => ({ decisions: 0, raises: 0 }));
      entry.decisions++;
      if (decision.raised) entry.raises++;
      tally(shared, pairKey(decision.userId, other), () => new Set()).add(hand.handId);
    }
  }
  // Each player's opponents by his heads-up rate against them, highest first (those with enough decisions).
  const opponents = new Map<string, { other: UserId; decisions: number; raises: number }[]>();
  for (const [key, entry] of facing) {
    const [me, other] = key.split('>').map(Number) as [UserId, UserId];
    if (entry.decisions >= MIN_RATE_DECISIONS)
      tally(opponents, String(me), () => []).push({ other, ...entry });
  }
  for (const list of opponents.values()) list.sort((x, y) => y.raises / y.decisions - x.raises / x.decisions);
  /**
   * A's heads-up rate against everyone but B, and but the one opponent he raised most often: a partner
   * he bets into on purpose (a chip dumper's) would otherwise raise the rate every other pair of his is
   * held to. Leaving one honest opponent out lowers the rate a little, which only makes the test stricter.
   */
  const rateWithout = (me: UserId, other: UserId): number => {
    const all = overall.get(String(me))!;
    const withOther = facing.get(orderedKey(me, other))!;
    const top = opponents.get(String(me))?.find((o) => o.other !== other);
    const decisions = all.decisions - withOther.decisions - (top?.decisions ?? 0);
    return decisions <= 0 ? 0 : (all.raises - withOther.raises - (top?.raises ?? 0)) / decisions;
  };
  const candidates: {
    a: UserId;
    b: UserId;
    raises: number;
    mean: number;
    variance: number;
    decisions: number;
  }[] = [];
  for (const key of shared.keys()) {
    const [a, b] = key.split(':').map(Number) as [UserId, UserId];
    let raises = 0;
    let mean = 0;
    let variance = 0;
    let decisions = 0;
    for (const [me, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const entry = facing.get(orderedKey(me, other));
      if (entry === undefined) continue;
      const p = rateWithout(me, other);
      raises += entry.raises;
      decisions += entry.decisions;
      mean += entry.decisions * p;
      variance += entry.decisions * p * (1 - p);
    }
    if (mean >= MIN_EXPECTED_RAISES && variance > 0)
      candidates.push({ a, b, raises, mean, variance, decisions });
  }
  const threshold = alpha / Math.max(1, candidates.length);
  const found: SoftPlayFinding[] = [];
  for (const c of candidates) {
    const z = (c.raises - c.mean) / Math.sqrt(c.variance);
    const pValue = normalUpperTail(-z);
    if (pValue >= threshold) continue;
    const list = [...shared.get(pairKey(c.a, c.b))!].sort((x, y) => x - y);
    found.push({
      players: [c.a, c.b],
      raises: c.raises,
      expected: round(c.mean),
      decisions: c.decisions,
      z: round(z),
      pValue,
      threshold,
      hands: list.slice(0, maxHands),
      handCount: list.length,
    });
  }
  return byPValue(found);
}

/**
 * Win-rate outliers: a player's results in big blinds per hand, summed and divided by the root of
 * their sum of squares (self-normalised), tested two-sided over every player with enough hands. The
 * hands listed are his biggest results in the direction flagged.
 */
function winRateReport(hands: readonly ReadHand[], alpha: number, maxHands: number): WinRateFinding[] {
  const players = new Map<
    string,
    { userId: UserId; sum: number; squares: number; results: [number, number][] }
  >();
  for (const hand of hands) {
    for (const p of hand.players) {
      const x = p.net / hand.bigBlind;
      const entry = tally(players, String(p.userId), () => ({
        userId: p.userId,
        sum: 0,
        squares: 0,
        results: [],
      }));
      entry.sum += x;
      entry.squares += x * x;
      entry.results.push([hand.handId, x]);
    }
  }
  const tested = [...players.values()].filter((p) => p.results.length >= MIN_HANDS_PLAYED && p.squares > 0);
  const threshold = alpha / Math.max(1, tested.length);
  const found: WinRateFinding[] = [];
  for (const p of tested) {
    const z = p.sum / Math.sqrt(p.squares);
    const pValue = 2 * normalUpperTail(Math.abs(z));
    if (pValue >= threshold) continue;
    const sign = Math.sign(z);
    const supporting = p.results.filter(([, x]) => x * sign > 0).sort((x, y) => (y[1] - x[1]) * sign);
    found.push({
      players: [p.userId],
      bbPer100: round((100 * p.sum) / p.results.length),
      handsPlayed: p.results.length,
      z: round(z),
      pValue,
      threshold,
      hands: supporting.slice(0, maxHands).map(([id]) => id),
      handCount: supporting.length,
    });
  }
  return byPValue(found);
}

/** Every report over the hands (in id order). */
export function integrityReports(
  hands: readonly ReadHand[],
  options: IntegrityOptions = {},
): IntegrityReports {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const maxHands = options.maxHands ?? 500;
  const players = new Set(hands.flatMap((h) => h.players.map((p) => p.userId)));
  return {
    alpha,
    hands: hands.length,
    players: players.size,
    seating: seatingReport(hands, alpha, maxHands),
    chipDumping: chipDumpingReport(hands, alpha, maxHands),
    softPlay: softPlayReport(hands, alpha, maxHands),
    winRate: winRateReport(hands, alpha, maxHands),
  };
}
