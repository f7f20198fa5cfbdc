/**
 * Pots: side pots from what each player put in, hi/lo halves (and so quartering), odd chips.
 * Pure functions over plain arrays, indexed by position.
 */
import type { Pot } from './types.js';

/**
 * The pots of a hand from each position's live chips (blinds and bets): a main pot everybody still
 * in can win, then one side pot per all-in level (RULES.md §1). `dead` money (antes, dead blinds)
 * goes to the main pot, as PokerKit counts it (a big-blind ante is never a side pot of its own).
 * Chips of folded players stay in the pots they reached; chips above the highest commitment of a
 * player still in (a folded player's dead bet) join the last pot. Uncalled bets must already have
 * been returned.
 */
export function buildPots(live: readonly number[], folded: readonly boolean[], dead = 0): Pot[] {
  // Plain loops, no closures: this runs at the end of every hand.
  const n = live.length;
  const levels: number[] = []; // the distinct all-in levels, ascending
  let anyZero = false;
  for (let p = 0; p < n; p++) {
    if (folded[p]) continue;
    const amount = live[p] ?? 0;
    if (amount === 0) {
      anyZero = true;
      continue;
    }
    let i = levels.length;
    while (i > 0 && levels[i - 1]! > amount) i--;
    if (i > 0 && levels[i - 1] === amount) continue;
    levels.push(amount);
    for (let k = levels.length - 1; k > i; k--) levels[k] = levels[k - 1]!;
    levels[i] = amount;
  }
  const amounts: number[] = [];
  const eligibles: number[][] = [];
  if (anyZero || levels.length === 0) {
    const eligible: number[] = [];
    for (let p = 0; p < n; p++) if (!folded[p]) eligible.push(p);
    amounts.push(0);
    eligibles.push(eligible);
  }
  let previous = 0;
  for (let l = 0; l < levels.length; l++) {
    const level = levels[l]!;
    let amount = 0;
    const eligible: number[] = [];
    for (let p = 0; p < n; p++) {
      const c = live[p] ?? 0;
      amount += Math.min(c, level) - Math.min(c, previous);
      if (!folded[p] && c >= level) eligible.push(p);
    }
    amounts.push(amount);
    eligibles.push(eligible);
    previous = level;
  }
  let over = 0;
  for (let p = 0; p < n; p++) over += Math.max(0, live[p]! - previous);
  const count = amounts.length;
  amounts[0]! += dead;
  if (over > 0) amounts[count - 1]! += over;
  const pots: Pot[] = [];
  for (let i = 0; i < count; i++) {
    const amount = amounts[i]!;
    if (amount > 0 || (i === 0 && count === 1)) pots.push({ amount, eligible: eligibles[i]! });
  }
  return pots;
}

/**
 * Divides `amount` equally among `winners`, given in odd-chip order (the first gets the first odd
 * chip, and so on: RULES.md §1, one chip each starting nearest the dealer's left).
 */
export function splitEvenly(
  amount: number,
  winners: readonly number[],
): { player: number; amount: number }[] {
  const n = winners.length;
  if (n === 0) return [];
  const base = Math.floor(amount / n);
  let odd = amount - base * n;
  return winners.map((player) => {
    const extra = odd > 0 ? 1 : 0;
    odd -= extra;
    return { player, amount: base + extra };
  });
}

export interface PotShare {
  readonly player: number;
  readonly amount: number;
  readonly share: 'all' | 'high' | 'low';
}

/** Positions sorted nearest the dealer's left first: ascending position (see ./types.ts). */
export function oddChipOrder(players: readonly number[]): readonly number[] {
  for (let i = 1; i < players.length; i++) {
    if (players[i]! < players[i - 1]!) return [...players].sort((a, b) => a - b);
  }
  return players;
}

/**
 * Awards one pot: to the high winners, or in a hi/lo game half to the best high and half to the
 * best qualifying low (the odd chip of the halves to the high half), each half split evenly with its
 * odd chips nearest the dealer's left. A player who wins a half outright and ties the other half
 * gets three quarters ("quartering", RULES.md §5). No low → the high takes all.
 */
export function awardPot(amount: number, high: readonly number[], low: readonly number[] | null): PotShare[] {
  const shares: PotShare[] = [];
  const add = (total: number, winners: readonly number[], share: PotShare['share']): void => {
    for (const s of splitEvenly(total, oddChipOrder(winners)))
      shares.push({ player: s.player, amount: s.amount, share });
  };
  if (low === null || low.length === 0) {
    add(amount, high, 'all');
    return shares;
  }
  const lowHalf = Math.floor(amount / 2);
  add(amount - lowHalf, high, 'high');
  add(lowHalf, low, 'low');
  return shares;
}

/** A pot with the band of live chips it holds (each player's chips from `low` up to `high`). */
export interface PotPart extends Pot {
  readonly low: number;
  readonly high: number;
  /** A pot settled by agreement (32-card draw's split, RULES.md §11): divided equally among `eligible`. */
  readonly agreed: boolean;
}

/**
 * The pots as `buildPots` makes them, each with its band of live chips, keeping the pots `agreed`
 * earlier (32-card draw's split: same band, the players who agreed) apart from the chips bet since.
 * Chips of folded players above every band go to the last pot not agreed. Without `agreed` the pots
 * are those of `buildPots`.
 */
export function buildPotParts(
  live: readonly number[],
  folded: readonly boolean[],
  dead = 0,
  agreed: readonly PotPart[] = [],
): PotPart[] {
  const levels: number[] = [];
  let anyZero = false;
  for (let p = 0; p < live.length; p++) {
    if (folded[p]) continue;
    const amount = live[p] ?? 0;
    if (amount === 0) anyZero = true;
    else if (!levels.includes(amount)) levels.push(amount);
  }
  for (const part of agreed) {
    if (part.high === 0) anyZero = true;
    for (const cut of [part.low, part.high]) if (cut > 0 && !levels.includes(cut)) levels.push(cut);
  }
  levels.sort((a, b) => a - b);
  const settled = (low: number, high: number): PotPart | undefined =>
    agreed.find((part) =>
      high === 0 ? part.high === 0 : part.high > part.low && part.low <= low && high <= part.high,
    );
  const parts: PotPart[] = [];
  const add = (amount: number, eligible: readonly number[], low: number, high: number): void => {
    const deal = settled(low, high);
    parts.push(
      deal === undefined
        ? { amount, eligible, low, high, agreed: false }
        : { amount, eligible: deal.eligible, low, high, agreed: true },
    );
  };
  if (anyZero || levels.length === 0) {
    const eligible: number[] = [];
    for (let p = 0; p < live.length; p++) if (!folded[p]) eligible.push(p);
    add(0, eligible, 0, 0);
  }
  let previous = 0;
  for (const level of levels) {
    let amount = 0;
    const eligible: number[] = [];
    for (let p = 0; p < live.length; p++) {
      const c = live[p] ?? 0;
      amount += Math.min(c, level) - Math.min(c, previous);
      if (!folded[p] && c >= level) eligible.push(p);
    }
    add(amount, eligible, previous, level);
    previous = level;
  }
  let over = 0;
  for (const c of live) over += Math.max(0, c - previous);
  const first = parts[0]!;
  parts[0] = { ...first, amount: first.amount + dead };
  if (over > 0) {
    let last = parts.length - 1;
    while (last > 0 && parts[last]!.agreed) last--;
    const pot = parts[last]!;
    parts[last] = { ...pot, amount: pot.amount + over };
  }
  return parts.filter((pot, i) => pot.amount > 0 || (i === 0 && parts.length === 1));
}
