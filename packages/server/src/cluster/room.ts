/**
 * What `felt serve --db postgres://… --bus nats://…` adds to the room: the storage without the
 * one-process room's lock and start-up recovery (each table is recovered by whoever takes it), the
 * member (./member.ts) on its own small pool for the leases, the bus, and the takeover of a table:
 * recovered by the crash rule with its seats kept (./takeover.ts), then run on storage fenced by the
 * table's lease (./fence.ts).
 */
import { hostname } from 'node:os';
import type { Logger } from '../log.js';
import { PostgresDriver } from '../storage/postgres.js';
import { textCol } from '../storage/sql.js';
import { migrated } from '../storage/index.js';
import { roomModeGuard } from '../storage/room-mode.js';
import { sqlStorage } from '../storage/sql-storage.js';
import type { RecoveryReport } from '../storage/hand-journal.js';
import type { Storage } from '../storage/types.js';
import type { Table, TableConfig, TableStorage } from '../table/types.js';
import { SharedAllInCounter } from './all-ins.js';
import { Bus, type RefusalSink } from './bus.js';
import { MemberKeys } from './bus-crypto.js';
import { LiveMembers } from './peers.js';
import type { BusConnectOptions } from './bus-connection.js';
import { fencedTableStorage } from './fence.js';
import { ClusterMember } from './member.js';
import { ClusterRegistry, type Lease } from './registry.js';
import { cancelHand, seatsFor, takeOver } from './takeover.js';
import { ClusterTournaments, type ClusterTournamentsOptions } from './tournaments.js';
import { SharedWaitingLists } from './waiting-lists.js';

/** A lease's length: a dead member's tables are taken this long after its last renewal (the issue: ≤ 4 s). */
export const LEASE_MS = 4000;
/**
 * A transaction left open longer than this is ended by PostgreSQL: a paused process must not hold
 * the lease row's lock (or any other) against the member taking its tables over.
 */
const IDLE_IN_TRANSACTION_MS = 2000;

/** How often each process reads the others' all-in grants. */
const ALL_IN_LOAD_MS = 1000;

/**
 * Logs the bus messages refused (not a live member's, stale, forged): at most one line a second, with
 * how many more were refused since the last one, so that a flood of them does not flood the log.
 */
function refusalLog(logger: Logger): RefusalSink {
  let loggedAt = 0;
  let unlogged = 0;
  return (why, subject, from) => {
    const now = Date.now();
    if (now - loggedAt < 1000) {
      unlogged++;
      return;
    }
    logger.warn({ why, subject, from, refusedSinceLastLine: unlogged }, 'bus message refused');
    loggedAt = now;
    unlogged = 0;
  };
}

export interface ClusterRoomOptions {
  readonly db: string;
  readonly bus: string;
  /** Credentials and TLS for the bus beyond its URL's. */
  readonly busAuth?: BusConnectOptions;
  /** The `--node` label (default: the host name). */
  readonly node?: string;
  /** Starts a table's actor on the storage given (fenced by its lease). */
  readonly openActor: (config: TableConfig, storage: TableStorage) => Table;
  /** This process runs a table now (taken and recovered, its seats restored; before anyone is served). */
  readonly taken?: (table: Table) => void;
  /** This process stopped running a table (it lost its lease). */
  readonly dropped: (tableId: string) => void;
  /** Another process runs a table this one does not know (its lobby opened it): list it here too. */
  readonly discovered: (config: TableConfig) => void;
  /** The staff closed a table through another process: take it out of this lobby too. */
  readonly closed: (tableId: string) => void;
  readonly logger: Logger;
  /** The operator's `--switch-mode`: a database last used by one process becomes a cluster's. */
  readonly switchMode?: boolean;
}

export interface ClusterRoom {
  /** The room's storage for everything but a table's own writes (accounts, balances, the audit). */
  readonly storage: Storage;
  readonly member: ClusterMember;
  readonly registry: ClusterRegistry;
  /** The artificial all-ins granted by every process (./all-ins.ts), for the tables this one runs. */
  readonly allIns: SharedAllInCounter;
  /** The waiting lists every process shares (./waiting-lists.ts). */
  readonly waitingLists: SharedWaitingLists;
  /**
   * Records the database as a cluster's, or refuses (StorageOpenError) while a one-process server runs
   * on it or when it is one's (../storage/room-mode.ts): called once the port is bound, before joining.
   */
  claimMode(): Promise<void>;
  /**
   * The last member leaving (SIGTERM, no other live): its tables closed as one process closes its own —
   * hands in progress cancelled, every seat cashed out (RULES.md §1) — each through its lease, still held.
   */
  closeAsLast(leases: readonly Lease[]): Promise<RecoveryReport>;
  /** The room's tournaments, each run directed by whichever member holds its lease (./tournaments.ts). */
  tournaments(
    options: Pick<ClusterTournamentsOptions, 'open' | 'file' | 'clock' | 'pollMs'>,
  ): ClusterTournaments;
  /** Leaves the cluster (its tables to the others) and closes the bus and the database. */
  close(): Promise<void>;
}

export async function openClusterRoom(options: ClusterRoomOptions): Promise<ClusterRoom> {
  const driver = new PostgresDriver({ url: options.db, idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_MS });
  const storage = await migrated(sqlStorage(driver));
  const mode = roomModeGuard(driver, 'cluster', {
    leaseMs: LEASE_MS,
    ...(options.switchMode !== undefined ? { switchMode: options.switchMode } : {}),
  });
  try {
    await mode.check();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const leaseDriver = new PostgresDriver({
    url: options.db,
    poolSize: 2,
    idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_MS,
  });
  const registry = new ClusterRegistry(leaseDriver, LEASE_MS);
  const label = options.node ?? hostname();
  const members = new LiveMembers(registry);
  let bus: Bus;
  try {
    // The room is its database: processes on other databases may share the NATS server.
    const room = await leaseDriver.get('SELECT current_database() AS name');
    bus = await Bus.connect(
      options.bus,
      `felt ${label}`,
      textCol(room!, 'name'),
      {
        keys: new MemberKeys(),
        members,
        refused: refusalLog(options.logger),
      },
      options.busAuth,
    );
  } catch (error) {
    await leaseDriver.close();
    await storage.close();
    throw error;
  }
  const member = new ClusterMember({
    registry,
    bus,
    members,
    label,
    logger: options.logger,
    dropped: options.dropped,
    discovered: options.discovered,
    closed: options.closed,
    openTable: async (config, fence) => {
      const taken = await takeOver(driver, fence);
      const tableStorage = fencedTableStorage(driver, fence);
      const table = options.openActor(config, tableStorage);
      let handsCancelled = taken.handsCancelled;
      let handResumed: number | null = null;
      try {
        for (const [seat, kept] of seatsFor(taken.seats, table.view(null).seatCount)) {
          const restored = await table.control({
            type: 'restore-seat',
            player: kept.player,
            seat,
            stack: kept.stack,
          });
          if (!restored.ok) throw new Error(`seat ${seat} not restored: ${restored.error.message}`);
        }
        const resume = taken.resume;
        if (resume !== null) {
          tableStorage.adopt(resume.handId);
          const resumed = await table.control({ type: 'resume-hand', ...resume });
          if (resumed.ok) handResumed = resume.handId;
          else {
            // Not as the journal says: the crash rule after all.
            options.logger.warn(
              { tableId: config.id, handId: resume.handId, error: resumed.error.message },
              'hand handed over in play not resumed: cancelled',
            );
            await cancelHand(driver, fence, resume.handId);
            handsCancelled++;
          }
        }
      } catch (error) {
        await table.dispose();
        throw error;
      }
      if (handsCancelled > 0 || handResumed !== null || taken.seats.length > 0) {
        options.logger.info(
          {
            tableId: config.id,
            epoch: fence.epoch,
            handsCancelled,
            handResumed,
            seatsKept: taken.seats.length,
          },
          'table taken over',
        );
      }
      options.taken?.(table);
      return table;
    },
  });
  const waitingLists = new SharedWaitingLists(driver, bus, (tableId) => member.runs(tableId));
  const allIns = new SharedAllInCounter(driver, options.logger);
  const loadAllIns = () =>
    allIns.load(Date.now()).catch((error: unknown) => {
      options.logger.error({ err: error }, 'all-in grants not read');
    });
  await loadAllIns();
  const allInTimer = setInterval(() => void loadAllIns(), ALL_IN_LOAD_MS);
  allInTimer.unref();
  return {
    storage,
    member,
    registry,
    allIns,
    waitingLists,
    claimMode: () => mode.claim(),
    async closeAsLast(leases) {
      let report: RecoveryReport = { handsCancelled: 0, refunded: 0, seatsCashedOut: 0, cashedOut: 0 };
      for (const lease of leases) {
        const fenced = fencedTableStorage(driver, { ...lease, memberId: member.id });
        const closed = await fenced.recoverTables([lease.tableId]);
        report = {
          handsCancelled: report.handsCancelled + closed.handsCancelled,
          refunded: report.refunded + closed.refunded,
          seatsCashedOut: report.seatsCashedOut + closed.seatsCashedOut,
          cashedOut: report.cashedOut + closed.cashedOut,
        };
      }
      return report;
    },
    tournaments: (rest) =>
      new ClusterTournaments({ ...rest, driver, registry, bus, member, logger: options.logger }),
    async close() {
      clearInterval(allInTimer);
      waitingLists.close();
      await member.stop();
      await bus.close();
      await leaseDriver.close();
      await storage.close();
    },
  };
}
