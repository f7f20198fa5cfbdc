/**
 * Slow, obviously correct reference rankings for the tests: every hand becomes a tuple that compares
 * lexicographically, built straight from the rules' words, sharing no code with the fast evaluators.
 */
export type Tuple = number[];

export function compareTuples(a: Tuple, b: Tuple): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? -1) - (b[i] ?? -1);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

const rank = (card: number): number => Math.floor(card / 4);
const suit = (card: number): number => card % 4;

/** Ranks grouped: biggest groups first, then higher ranks; e.g. full house K-K-K-5-5 → [[11,3],[3,2]]. */
function groups(ranks: number[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0]);
}

export interface HighOptions {
  /** The ranks, besides the ace, of the lowest straight, e.g. [0,1,2,3] for A-2-3-4-5; null for none. */
  wheel: number[] | null;
  flushBeatsFullHouse: boolean;
}

export const STANDARD: HighOptions = { wheel: [0, 1, 2, 3], flushBeatsFullHouse: false };

/** Class order from worst to best, by the rules' names. */
function classOrder(options: HighOptions): string[] {
  return [
    'high-card',
    'pair',
    'two-pair',
    'three-of-a-kind',
    'straight',
    ...(options.flushBeatsFullHouse ? ['full-house', 'flush'] : ['flush', 'full-house']),
    'four-of-a-kind',
    'straight-flush',
  ];
}

/** The class name and the tie-break ranks of five cards under high rules. */
export function highClass(
  cards: number[],
  options: HighOptions = STANDARD,
): { name: string; ties: number[] } {
  const ranks = cards.map(rank);
  const isFlush = new Set(cards.map(suit)).size === 1;
  const distinct = [...new Set(ranks)].sort((x, y) => y - x);
  let straightTop = -1;
  if (distinct.length === 5) {
    if (distinct[0]! - distinct[4]! === 4) straightTop = distinct[0]!;
    const wheel = options.wheel;
    if (wheel && distinct[0] === 12 && [...wheel].reverse().every((r, i) => distinct[i + 1] === r)) {
      straightTop = wheel[3]!;
    }
  }
  const grouped = groups(ranks);
  const shape = grouped.map((group) => group[1]).join('');
  const byGroups = grouped.map((group) => group[0]);
  if (straightTop >= 0 && isFlush) return { name: 'straight-flush', ties: [straightTop] };
  if (shape === '41') return { name: 'four-of-a-kind', ties: byGroups };
  if (shape === '32') return { name: 'full-house', ties: byGroups };
  if (isFlush) return { name: 'flush', ties: distinct };
  if (straightTop >= 0) return { name: 'straight', ties: [straightTop] };
  if (shape === '311') return { name: 'three-of-a-kind', ties: byGroups };
  if (shape === '221') return { name: 'two-pair', ties: byGroups };
  if (shape === '2111') return { name: 'pair', ties: byGroups };
  return { name: 'high-card', ties: distinct };
}

export function highTuple(cards: number[], options: HighOptions = STANDARD): Tuple {
  const { name, ties } = highClass(cards, options);
  return [classOrder(options).indexOf(name), ...ties];
}

/** 8-or-better: five different ranks, ace low, all eight or lower; better is lower from the top. Null: no low. */
export function low8Tuple(cards: number[]): Tuple | null {
  const lows = cards.map((card) => (rank(card) === 12 ? 1 : rank(card) + 2));
  if (new Set(lows).size !== 5 || lows.some((r) => r > 8)) return null;
  return lows.sort((x, y) => y - x).map((r) => -r);
}

/** A-5 lowball: ace low, straights and flushes ignored, pairs count; the tuple is negated so better is higher. */
export function lowA5Tuple(cards: number[]): Tuple {
  const lows = cards.map((card) => (rank(card) === 12 ? 0 : rank(card) + 1));
  const grouped = groups(lows);
  const shape = grouped.map((group) => group[1]).join('');
  const order = ['11111', '2111', '221', '311', '32', '41'];
  return [order.indexOf(shape), ...grouped.map((group) => group[0])].map((x) => -x);
}

/** 2-7 lowball: the lowest high hand with the ace only high; negated so better is higher. */
export function low27Tuple(cards: number[]): Tuple {
  return highTuple(cards, { wheel: null, flushBeatsFullHouse: false }).map((x) => -x);
}

export function subsets<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  if (items.length < size) return [];
  const [first, ...rest] = items as [T, ...T[]];
  return [...subsets(rest, size - 1).map((subset) => [first, ...subset]), ...subsets(rest, size)];
}

/** The best tuple of any five of the cards (null tuples never win). */
export function bestOfAny(cards: number[], tuple: (five: number[]) => Tuple | null): Tuple | null {
  let best: Tuple | null = null;
  for (const five of subsets(cards, 5)) {
    const candidate = tuple(five);
    if (candidate && (!best || compareTuples(candidate, best) > 0)) best = candidate;
  }
  return best;
}

/** The best tuple of exactly two hole and three board cards. */
export function bestOmaha(
  hole: number[],
  board: number[],
  tuple: (five: number[]) => Tuple | null,
): Tuple | null {
  let best: Tuple | null = null;
  for (const pair of subsets(hole, 2)) {
    for (const triple of subsets(board, 3)) {
      const candidate = tuple([...pair, ...triple]);
      if (candidate && (!best || compareTuples(candidate, best) > 0)) best = candidate;
    }
  }
  return best;
}
