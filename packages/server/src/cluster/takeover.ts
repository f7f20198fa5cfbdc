/**
 * What a member does with a table it has just taken (the last owner died or let its lease run out), by
 * the crash rule applied to that table alone (RULES.md §1, docs/rules.md): the hand in progress is
 * cancelled — its chips never left the seats' ledger accounts — and the players whose seats hold chips
 * keep them, to be seated again with those stacks (`restore-seat`), so that the table deals again. A
 * hand its last owner handed over in play (a lease released so, ./registry.ts) is not cancelled: it is
 * given back to be resumed (`resume-hand`) once the seats are restored. Every write carries the new
 * lease's epoch (./fence.ts): a member whose lease is gone changes nothing.
 */
import type { HandId } from '../storage/common.js';
import type { StoredHandInPlay } from '../storage/hand-journal.js';
import { intCol, intColOr, textCol } from '../storage/sql.js';
import type { HandStart } from '../table/hand-start.js';
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
  /** The hand handed over in play, to go on with once the seats are restored (`resume-hand`); else null. */
  readonly resume: (StoredHandInPlay & { readonly start: string }) | null;
  readonly seats: readonly KeptSeat[];
}

export async function takeOver(driver: SqlDriver, fence: Fence): Promise<Takeover> {
  const fenced = fencedDriver(driver, fence);
  const storage = sqlStorage(fenced);
  const resume = (await handedOverInPlay(fenced, fence)) ? await storage.handInPlay(fence.tableId) : null;
  const hands = await fenced.all("SELECT id FROM hands WHERE table_id = ? AND status = 'in-progress'", [
    fence.tableId,
  ]);
  let handsCancelled = 0;
  for (const row of hands) {
    const id = intCol(row, 'id');
    if (id === resume?.handId && resume.start !== null) continue;
    await cancelHand(driver, fence, id);
    handsCancelled++;
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
  const seats: KeptSeat[] = rows.map((row) => {
    const name = textCol(row, 'name');
    return {
      // A house bot's seat is restored as a bot's, for the new owner's house bots to play (src/practice/).
      player: { account: intCol(row, 'user_id'), name, ...(isHouseBotName(name) ? { bot: true } : {}) },
      seat: row['seat'] === null ? null : intCol(row, 'seat'),
      stack: intCol(row, 'balance'),
    };
  });
  return resume === null || resume.start === null
    ? { handsCancelled, resume: null, seats }
    : {
        handsCancelled,
        resume: { ...resume, start: resume.start },
        seats: withoutLeavers(seats, JSON.parse(resume.start) as HandStart),
      };
}

/**
 * The seats to restore for a hand handed over in play: a player of the hand whose seat holds other than
 * his stack at the deal left it after folding (he took what he had not put in; what he put in stays
 * for the settlement), so he is not seated again — nothing else moves a seat's chips during a hand.
 */
function withoutLeavers(seats: readonly KeptSeat[], start: HandStart): KeptSeat[] {
  return seats.filter((kept) => {
    const p = start.accounts.indexOf(kept.player.account);
    return p < 0 || start.stacks[p] === kept.stack;
  });
}

/**
 * Whether the lease just taken follows one released with its hand still running (./registry.ts
 * `release`): the lease before this one, and only that one — a lease that ran out (a crash) leaves no
 * mark, and a mark left for an owner that then crashed names an older lease.
 */
async function handedOverInPlay(fenced: SqlDriver, fence: Fence): Promise<boolean> {
  const row = await fenced.get('SELECT handed_over_epoch FROM table_leases WHERE table_id = ?', [
    fence.tableId,
  ]);
  return row !== undefined && intColOr(row, 'handed_over_epoch', 0) === fence.epoch - 1;
}

/** Cancels a hand in progress of the table taken over, by the crash rule (its chips never left the seats). */
export async function cancelHand(driver: SqlDriver, fence: Fence, handId: HandId): Promise<void> {
  const cancelled = await sqlStorage(fencedDriver(driver, fence)).cancelHand(handId);
  if (!cancelled.ok) throw new Error(`takeover of ${fence.tableId}: ${cancelled.error.message}`);
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
