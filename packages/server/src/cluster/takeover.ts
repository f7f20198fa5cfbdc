/**
 * What a member does with a table it has just taken (the last owner died or let its lease run out), by
 * the crash rule applied to that table alone (RULES.md §1, docs/rules.md): the hand in progress is
 * cancelled — its chips never left the seats' ledger accounts — and the players whose seats hold chips
 * keep them, to be seated again with those stacks (`restore-seat`), so that the table deals again. Every
 * write carries the new lease's epoch (./fence.ts): a member whose lease is gone changes nothing.
 */
import { intCol } from '../storage/sql.js';
import { sqlStorage } from '../storage/sql-storage.js';
import type { SqlDriver } from '../storage/sql.js';
import type { PlayerRef } from '../table/types.js';
import { isHouseBotName } from '../practice/roster.js';
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
  // Each player's seat in the last hand he played at the table (later hands override earlier ones).
  const lastSeats = new Map<number, number>();
  for (const row of await fenced.all(
    `SELECT hp.user_id, hp.seat FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
      WHERE h.table_id = ? ORDER BY h.id`,
    [fence.tableId],
  )) {
    lastSeats.set(intCol(row, 'user_id'), intCol(row, 'seat'));
  }
  const seats: KeptSeat[] = [];
  for (const balance of await storage.seats()) {
    if (balance.tableId !== fence.tableId || balance.amount <= 0) continue;
    const user = await storage.userById(balance.userId);
    if (user === null) throw new Error(`takeover of ${fence.tableId}: no user ${balance.userId}`);
    seats.push({
      // A house bot's seat is restored as a bot's, for the new owner's house bots to play (src/practice/).
      player: { account: user.id, name: user.name, ...(isHouseBotName(user.name) ? { bot: true } : {}) },
      seat: lastSeats.get(user.id) ?? null,
      stack: balance.amount,
    });
  }
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
