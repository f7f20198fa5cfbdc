/**
 * What a table does not decide for itself: where its stakes, chips and hand schedule come from, who
 * seats players, and how the button moves. A cash table is `CASH_GAME`; a tournament table passes its
 * own set (stakes from the level schedule, stacks handed in and out by the tournament, hands dealt
 * when the tournament allows, dead button).
 */
import type { TableStakes } from './types.js';

export type StakesPolicy =
  /** The stakes of the table's configuration, for good. */
  | { readonly kind: 'fixed' }
  /** Read at each hand's start: `at(handNumber, now)` (hand numbers count from 1; `now` clock ms). */
  | { readonly kind: 'schedule'; readonly at: (handNumber: number, now: number) => TableStakes };

export interface TablePolicies {
  readonly stakes: StakesPolicy;
  /**
   * `ledger`: players sit with a buy-in and leave with a cash-out (storage's ledger), top up between
   * hands. `controller`: players have no chips of their own at this table: a controller seats them
   * with a stack (`seat`) and takes them out with it (`unseat`); players cannot sit, top up or leave.
   */
  readonly chips: 'ledger' | 'controller';
  /** `auto`: a hand starts when enough players are ready; `controller`: also only once allowed (`allow-hands`). */
  readonly handStart: 'auto' | 'controller';
  /**
   * `moving`: the button goes to the next player who has paid his blinds (cash games, RULES.md §1).
   * `dead`: the big blind moves one player on every hand and the small blind and button follow
   * behind it, even onto empty seats (tournaments).
   */
  readonly button: 'moving' | 'dead';
}

export const CASH_GAME: TablePolicies = {
  stakes: { kind: 'fixed' },
  chips: 'ledger',
  handStart: 'auto',
  button: 'moving',
};
