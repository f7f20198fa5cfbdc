/**
 * The final-table deal as data (docs/tournaments.md, "Final-table deals"): which players are in it,
 * what each would get, who has accepted, when it lapses. The director opens, answers and closes it;
 * the amounts come from ./payouts.ts (`icmDeal`, `chipChop`) over the prizes not yet paid.
 */
import type { AccountId } from '../table/types.js';
import { chipChop, icmDeal } from './payouts.js';
import type { Finish } from './places.js';
import type { PlayerId } from './seating.js';
import { standings } from './standings.js';

export type DealKind = 'icm' | 'chip-chop';

/** How long every player has to answer a proposal before it lapses (declined), in ms. */
export const DEAL_MS = 60_000;

export interface Deal {
  readonly kind: DealKind;
  readonly proposer: AccountId;
  /** The players left when it was proposed. */
  readonly players: readonly AccountId[];
  /** Each player's prize in cents, in the order of `players`; null while the final table finishes its hand. */
  readonly amounts: readonly number[] | null;
  readonly accepted: ReadonlySet<AccountId>;
  /** When it lapses (ms since the epoch): counted from the moment its amounts are known. */
  readonly expiresAt: number | null;
}

/** The prizes of the places still to be decided (1st first): one per player left at most. */
export function unpaidPrizes(prizes: readonly number[], playersLeft: number): number[] {
  return prizes.slice(0, playersLeft);
}

/** Each player's prize in whole cents, adding up to the unpaid prizes. */
export function dealAmounts(kind: DealKind, stacks: readonly number[], unpaid: readonly number[]): number[] {
  return kind === 'icm' ? icmDeal(stacks, unpaid) : chipChop(stacks, unpaid);
}

/**
 * The places of the players in an accepted deal, as the big rooms record them: by chips, the biggest
 * stack first; equal stacks share a place.
 */
export function dealPlaces(stacks: ReadonlyMap<PlayerId, number>): Finish[] {
  const ranked = standings(stacks);
  return ranked.map((s) => ({
    player: s.player,
    place: s.rank,
    tied: ranked.filter((other) => other.rank === s.rank).length,
  }));
}
