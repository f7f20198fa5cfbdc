/**
 * A table the staff close after its hand (`staff-table-close`): paused by the caller, so that no new
 * hand starts, it is watched until the hand in play is over; then every player seated there is cashed
 * out by the table's own leave, and the table is taken out of the room. Nobody's hand is cut short.
 */
import type { PlayerRef, Table } from '../table/types.js';

/** How often the table is looked at while its hand goes on. */
const POLL_MS = 100;
/** A bound on the wait (the hand's clocks end any hand long before). */
const MAX_WAIT_MS = 30 * 60_000;

export interface Closing {
  /** Cashes one seated player out (the table's leave, then whatever the room tells him). */
  leave(player: PlayerRef): Promise<void>;
  /** Takes the empty table out of the room. */
  remove(): Promise<void>;
}

export async function closeAfterHand(
  table: Table,
  closing: Closing,
  now: () => number = Date.now,
): Promise<void> {
  const until = now() + MAX_WAIT_MS;
  for (;;) {
    const hand = table.view(null).hand;
    if (hand === null || hand.phase === 'done') break;
    if (now() > until) throw new Error(`table ${table.id}: its hand did not end within ${MAX_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  await table.idle();
  for (const seat of table.view(null).seats) {
    if (seat !== null) await closing.leave({ account: seat.account, name: seat.name });
  }
  await closing.remove();
}
