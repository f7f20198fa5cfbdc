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
  const levels: number[] = [];
  let anyZero = false;
  for (let p = 0; p < live.length; p++) {
    if (folded[p]) continue;
    const amount = live[p] ?? 0;
    if (amount === 0) anyZero = true;
    else if (!levels.includes(amount)) levels.push(amount);
  }
  levels.sort((a, b) => a - b);
  const pots: Pot[] = [];
  if (anyZero || levels.length === 0) {
    const eligible: number[] = [];
    for (let p = 0; p < live.length; p++) if (!folded[p]) eligible.push(p);
    pots.push({ amount: 0, eligible });
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
    pots.push({ amount, eligible });
    previous = level;
  }
  let over = 0;
  for (const c of live) over += Math.max(0, c - previous);
  const first = pots[0]!;
  pots[0] = { amount: first.amount + dead, eligible: first.eligible };
  if (over > 0) {
    const last = pots[pots.length - 1]!;
    pots[pots.length - 1] = { amount: last.amount + over, eligible: last.eligible };
  }
  return pots.filter((pot, i) => pot.amount > 0 || (i === 0 && pots.length === 1));
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
