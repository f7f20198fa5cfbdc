/**
 * What a member does with a table it has just taken (the last owner died or let its lease run out), by
 * the crash rule applied to that table alone (RULES.md §1, docs/rules.md): the hand in progress is
 * cancelled — its chips never left the seats' ledger accounts — and the players whose seats hold chips
 * keep them, to be seated again with those stacks (`restore-seat`), so that the table deals again. Every
 * write carries the new lease's epoch (./fence.ts): a member whose lease is gone changes nothing.
 */
import { intCol, textCol } from '../storage/sql.js';
import { sqlStorage } from '../storage/sql-storage.js';
import type { SqlDriver } from '../storage/sql.js';
import type { PlayerRef } from '../table/types.js';
import { fencedDriver, type Fence } from './fence.js';

/** A player to seat again: his seat of the table's last hand if he played one there, and his chips. */
export interface KeptSeat {
  readonly player: PlayerRef;
  /** Null: he sat down after the table's last hand began; any free seat. */
  readonly seat: number | null;
  readonly stack: number;
}

export interface Takeover {
  readonly handsCancelled: number;
  readonly seats: readonly KeptSeat[];
}

export async function takeOver(driver: SqlDriver, fence: Fence): Promise<Takeover> {
  const fenced = fencedDriver(driver, fence);
  const storage = sqlStorage(fenced);
  const hands = await fenced.all("SELECT id FROM hands WHERE table_id = ? AND status = 'in-progress'", [
    fence.tableId,
  ]);
  for (const row of hands) {
    const cancelled = await storage.cancelHand(intCol(row, 'id'));
    if (!cancelled.ok) throw new Error(`takeover of ${fence.tableId}: ${cancelled.error.message}`);
  }
  // The players whose seats at this table hold chips, each with his seat in the last hand he played here
  // (null: he sat down after it began). One statement: a member taking many tables at once reads little.
  const rows = await fenced.all(
    `SELECT la.user_id, u.name, la.balance,
            (SELECT hp.seat FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
              WHERE hp.user_id = la.user_id AND h.table_id = la.table_id
              ORDER BY hp.hand_id DESC LIMIT 1) AS seat
       FROM ledger_accounts la JOIN users u ON u.id = la.user_id
      WHERE la.kind = 'seat' AND la.table_id = ? AND la.balance > 0
      ORDER BY la.user_id`,
    [fence.tableId],
  );
  const seats: KeptSeat[] = rows.map((row) => ({
    player: { account: intCol(row, 'user_id'), name: textCol(row, 'name') },
    seat: row['seat'] === null ? null : intCol(row, 'seat'),
    stack: intCol(row, 'balance'),
  }));
  return { handsCancelled: hands.length, seats };
}

/** Seat numbers for the kept seats: each his last one when free, the others the lowest free ones. */
export function seatsFor(kept: readonly KeptSeat[], seatCount: number): Map<number, KeptSeat> {
  const placed = new Map<number, KeptSeat>();
  const waiting: KeptSeat[] = [];
  for (const seat of kept) {
    if (seat.seat !== null && seat.seat < seatCount && !placed.has(seat.seat)) placed.set(seat.seat, seat);
    else waiting.push(seat);
  }
  for (let at = 0; at < seatCount && waiting.length > 0; at++) {
    if (!placed.has(at)) placed.set(at, waiting.shift()!);
  }
  return placed;
}
