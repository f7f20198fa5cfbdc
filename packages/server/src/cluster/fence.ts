/**
 * Fencing: every write for a table carries the epoch of the lease its writer holds, and the database
 * refuses it when that lease is no longer the table's (./registry.ts). The check is the first statement
 * of the write's own transaction and locks the lease row (`FOR SHARE`) until the commit, so a takeover
 * (which changes that row) comes either wholly before the write — which is then refused — or wholly
 * after it, and then the new owner's recovery sees the write.
 *
 * A paused process cannot hold that lock against a takeover: its sessions have
 * `idle_in_transaction_session_timeout`, which ends a transaction left open by a process that stopped.
 */
import { fail } from '@felt/engine';
import { refuse } from '../storage/sql-common.js';
import { sqlStorage } from '../storage/sql-storage.js';
import { StorageErrorCode, type HandId } from '../storage/common.js';
import type { HandJournal } from '../storage/hand-journal.js';
import type { SqlDriver, SqlExecutor } from '../storage/sql.js';
import type { TableStorage } from '../table/types.js';
import type { Lease, MemberId } from './registry.js';

/** Whose write this is: a member, and the lease through which it owns the table. */
export interface Fence extends Lease {
  readonly memberId: MemberId;
}

const CHECK = `SELECT epoch FROM table_leases
  WHERE table_id = ? AND member_id = ? AND epoch = ? AND expires_at > clock_timestamp()`;

async function checkFence(tx: SqlExecutor, fence: Fence, readOnly: boolean): Promise<void> {
  // A read-only transaction may not lock; it reads nothing it goes on to write.
  const row = await tx.get(readOnly ? CHECK : `${CHECK} FOR SHARE`, [
    fence.tableId,
    fence.memberId,
    fence.epoch,
  ]);
  if (row === undefined) {
    refuse(
      StorageErrorCode.FENCED,
      `table ${fence.tableId}: the lease of epoch ${fence.epoch} is not held any more`,
    );
  }
}

/**
 * The driver as one table's owner uses it: every statement runs in a transaction that first checks the
 * table's lease. It shares the driver's connections and does not close them.
 */
export function fencedDriver(inner: SqlDriver, fence: Fence): SqlDriver {
  if (inner.dialect !== 'postgres') throw new Error('fencing needs PostgreSQL');
  const transaction: SqlDriver['transaction'] = (fn, options) =>
    inner.transaction(async (tx) => {
      await checkFence(tx, fence, options?.readOnly === true);
      return fn(tx);
    }, options);
  return {
    dialect: inner.dialect,
    transaction,
    run: (sql, params) => transaction((tx) => tx.run(sql, params)),
    get: (sql, params) => transaction((tx) => tx.get(sql, params)),
    all: (sql, params) => transaction((tx) => tx.all(sql, params)),
    exec: (script) => transaction((tx) => tx.exec(script)),
    close: () => Promise.resolve(),
  };
}

/** What the owner of a table writes for it: the table's storage, and the recovery of a table taken over. */
export interface FencedTableStorage extends TableStorage, Pick<HandJournal, 'recoverTables'> {
  /** The hand in progress handed over in play that this owner goes on with: its actions are its own. */
  adopt(handId: HandId): void;
}

/**
 * The storage of one table owned through `fence`: its buy-ins, cash-outs, hands and their recovery, each
 * refused with FENCED once the lease is another's. A write for another table, or an action of a hand this
 * storage did not start nor adopt, is refused outright: the owner of a table writes only its own hands
 * (after a takeover, the hand in progress is cancelled, or continued when it was handed over in play).
 */
export function fencedTableStorage(
  inner: SqlDriver,
  fence: Fence,
  clock: () => number = Date.now,
): FencedTableStorage {
  const storage = sqlStorage(fencedDriver(inner, fence), clock);
  const started = new Set<HandId>();
  const notCovered = (what: string) =>
    Promise.resolve(
      fail(StorageErrorCode.FENCED, `the lease of table ${fence.tableId} does not cover ${what}`),
    );
  return {
    buyIn: (tableId, userId, currency, amount) =>
      tableId === fence.tableId
        ? storage.buyIn(tableId, userId, currency, amount)
        : notCovered(`table ${tableId}`),
    cashOut: (tableId, userId, currency) =>
      tableId === fence.tableId ? storage.cashOut(tableId, userId, currency) : notCovered(`table ${tableId}`),
    async startHand(hand) {
      if (hand.tableId !== fence.tableId) return notCovered(`table ${hand.tableId}`);
      const result = await storage.startHand(hand);
      if (result.ok) started.add(result.value);
      return result;
    },
    async recordAction(record) {
      if (!started.has(record.handId)) return notCovered(`hand ${record.handId}`);
      const result = await storage.recordAction(record);
      if (result.ok && record.settlement !== undefined) started.delete(record.handId);
      return result;
    },
    fairLink: (tableId) => (tableId === fence.tableId ? storage.fairLink(tableId) : Promise.resolve(null)),
    saveFairLink: (tableId, link) =>
      tableId === fence.tableId ? storage.saveFairLink(tableId, link) : notCovered(`table ${tableId}`),
    recoverTables: (tableIds) => storage.recoverTables(tableIds.filter((id) => id === fence.tableId)),
    adopt: (handId) => started.add(handId),
  };
}
