/**
 * Which kind of room a PostgreSQL database is (migration 27, `room_mode`): one process running every
 * table (`felt serve --db`), or a cluster of processes leasing them (`felt serve --db --bus`). The two
 * recover differently — one process cashes out every seat of the database at start and stop, a member
 * keeps the seats of the tables it takes — so a process of one kind on the other's database would
 * cash out, or take over, seats that are live elsewhere. The first server to start records its kind;
 * a server of the other kind is refused, and always while the other kind is live on the database.
 *
 * `check` (before the port is bound) only reads; `claim` (once the port is bound) checks again and
 * records the kind in one transaction. The one-process server holds the `felt room` advisory lock for
 * its whole life (./index.ts); a member's claim takes the same lock, shared, for its transaction, so
 * the two kinds' claims can never both pass while members starting together never refuse each other.
 */
import { OpenErrorCode, StorageOpenError } from './open-errors.js';
import { intCol, textCol, type SqlDriver, type SqlExecutor } from './sql.js';

export type RoomMode = 'one-process' | 'cluster';

/** The advisory lock a one-process server holds on its database for as long as it runs. */
export const ROOM_LOCK = 'felt room';

export interface RoomModeOptions {
  /** The operator's `--switch-mode`: run a database last used by the other kind (none of it live). */
  readonly switchMode?: boolean;
  /** A member is live while its heartbeat is younger than this (the cluster's lease period). */
  readonly leaseMs: number;
}

export interface RoomModeGuard {
  /** Refuses (StorageOpenError) a start that must not go on; writes nothing. */
  check(): Promise<void>;
  /** Checks again and records this server's kind. */
  claim(): Promise<void>;
}

const NAMES: Record<RoomMode, string> = {
  'one-process': 'a one-process room (felt serve --db without --bus)',
  cluster: 'a room of several processes (felt serve --db --bus)',
};

export function roomModeGuard(driver: SqlDriver, wanted: RoomMode, options: RoomModeOptions): RoomModeGuard {
  if (driver.dialect !== 'postgres') throw new Error('a room mode is kept in PostgreSQL only');
  const refusal = (tx: SqlExecutor) => whyNot(tx, wanted, options);
  return {
    async check() {
      const error = await driver.transaction(refusal);
      if (error !== null) throw error;
    },
    async claim() {
      const error = await driver.transaction(async (tx) => {
        const why = await refusal(tx);
        if (why !== null) return why;
        await tx.run(
          `INSERT INTO room_mode (id, mode, claimed_at) VALUES (1, ?, clock_timestamp())
             ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, claimed_at = excluded.claimed_at`,
          [wanted],
        );
        return null;
      });
      if (error !== null) throw error;
    },
  };
}

async function whyNot(
  tx: SqlExecutor,
  wanted: RoomMode,
  options: RoomModeOptions,
): Promise<StorageOpenError | null> {
  const live = `INTERVAL '${options.leaseMs} milliseconds'`;
  const row = await tx.get(
    `SELECT mode, CASE WHEN claimed_at > clock_timestamp() - ${live} THEN 1 ELSE 0 END AS fresh
       FROM room_mode WHERE id = 1`,
  );
  const mode = row === undefined ? null : textCol(row, 'mode');
  if (wanted === 'one-process') {
    // It would cash out every seat: never while a member runs, or is about to join (a fresh claim).
    const members = await tx.get(
      `SELECT (SELECT COUNT(*) FROM cluster_members
                WHERE left_at IS NULL AND heartbeat_at > clock_timestamp() - ${live}) AS members,
              (SELECT COUNT(*) FROM table_leases WHERE expires_at > clock_timestamp()) AS leases`,
    );
    const memberCount = intCol(members!, 'members');
    const leaseCount = intCol(members!, 'leases');
    if (memberCount > 0 || leaseCount > 0 || (mode === 'cluster' && intCol(row!, 'fresh') === 1)) {
      return new StorageOpenError(
        OpenErrorCode.ROOM_IN_USE,
        `${NAMES.cluster} runs on this database (${memberCount} live members, ${leaseCount} leases held): ` +
          'a process without --bus would cash out its seats',
      );
    }
  } else {
    // The lock a one-process server holds while it runs, taken shared until this transaction ends:
    // members starting together do not shut each other out, a one-process server is.
    const free = await tx.get(
      `SELECT CASE WHEN pg_try_advisory_xact_lock_shared(hashtext('${ROOM_LOCK}')) THEN 1 ELSE 0 END AS free`,
    );
    if (intCol(free!, 'free') !== 1) {
      return new StorageOpenError(
        OpenErrorCode.ROOM_IN_USE,
        `${NAMES['one-process']} runs on this database: a member would cancel its hands`,
      );
    }
  }
  if (mode !== null && mode !== wanted && options.switchMode !== true) {
    return new StorageOpenError(
      OpenErrorCode.WRONG_MODE,
      `this database is ${mode in NAMES ? NAMES[mode as RoomMode] : mode}, not ${NAMES[wanted]}: start it as it was ` +
        'started, or with --switch-mode once none of it runs (its seats are then recovered the new way)',
    );
  }
  return null;
}
