/**
 * The composition root: opens storage — SQLite on its own thread, or PostgreSQL on a pool — (migrations
 * on start), binds its port, runs crash recovery, creates the lobby and its tables with the house bots of
 * its practice tables, and serves HTTP + WebSocket. `stop()` (SIGTERM in `felt serve`)
 * refuses new requests, lets the running ones finish, stops the tables, returns every chip on the
 * tables to its owner by the server-crash rule (RULES.md §1) and closes storage — everything is
 * durable when it resolves.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Accounts, type AccountsOptions } from './accounts/accounts.js';
import { loadTableSet } from './lobby/config.js';
import { Lobby } from './lobby/lobby.js';
import { HouseBots } from './practice/house.js';
import { localDesk, type TournamentService } from './tournament/desk.js';
import { TournamentRoom, type TournamentRoomOptions } from './tournament/room.js';
import type { TournamentEntry } from './tournament/schedule.js';
import { loadTournamentFile, loadTournamentSet } from './tournament/table-file.js';
import { DEFAULT_DATA_DIR, isPostgresUrl, openPostgresRoomStorage } from './storage/index.js';
import { lockDataDir } from './storage/data-lock.js';
import { openStorageThread } from './storage/thread.js';
import { StorageReadiness, watchedStorage } from './storage/readiness.js';
import type { RecoveryReport, Storage } from './storage/types.js';
import { createTable, cryptoRandomSource, memoryAllInCounter, realClock } from './table/index.js';
import type { ClockConfig, Table, TableConfig, TableStorage } from './table/types.js';
import { AddressPolicy, type AddressOptions } from './transport/addresses.js';
import { closeSlowHeaders } from './transport/header-deadline.js';
import { httpHandler } from './transport/http.js';
import {
  DEFAULT_METRICS_HOST,
  startOperatorServer,
  type MetricsAccess,
  type OperatorRoutes,
} from './transport/operator-http.js';
import { Hub } from './transport/hub.js';
import type { RateLimit } from './transport/rate-limit.js';
import { LatencyRecorder, LoopDelayMonitor } from './transport/figures.js';
import { LiveFigures, type RoomReadings } from './transport/live-figures.js';
import { RoomMetrics } from './transport/metrics.js';
import { TableChat } from './chat/chat.js';
import { createLogger, type Logger } from './log.js';
import { attachWebSocket } from './transport/websocket.js';
import { LEASE_MS, openClusterRoom, type ClusterRoom } from './cluster/room.js';
import type { BusConnectOptions } from './cluster/bus-connection.js';
import { gateConnections, type ConnectionGate } from './connection-gate.js';
import type { RoomModeGuard } from './storage/room-mode.js';
import { trackedStorage, watchStacks, WriteTracker } from './ledger/live-stacks.js';

export interface ServerOptions {
  /** TCP port; default 8080; 0 = any free port (tests). */
  readonly port?: number;
  /** Default: all interfaces. */
  readonly host?: string;
  /** Data directory (the SQLite file `felt.db`, optional `tables.json`); default `./data`. */
  readonly dataDir?: string;
  /** A PostgreSQL URL (`postgres://…`): the room's storage in that database instead of `felt.db`. */
  readonly db?: string;
  /**
   * A NATS URL (`nats://host:4222`, needs `db`): this process is one of several sharing the room's
   * tables (src/cluster/, docs/deploy.md).
   */
  readonly bus?: string;
  /** Credentials and TLS for the bus beyond its URL's (src/cluster/bus-connection.ts). */
  readonly busAuth?: BusConnectOptions;
  /** This process's name in the cluster (default: the host name); a label only. */
  readonly node?: string;
  /**
   * Start on a PostgreSQL database last used by the other kind of room (one process, or a cluster)
   * once none of it runs; without it such a start is refused (storage/room-mode.ts).
   */
  readonly switchMode?: boolean;
  /** The table set: a file (default `DATA/tables.json` when present, else the built-in set) or a list. */
  readonly tables?: string | readonly TableConfig[];
  /** The tournaments: a list, else those of the table file (none when `tables` is a list). */
  readonly tournaments?: readonly TournamentEntry[];
  /** The tournament tables' clocks (default: the tables' defaults). */
  readonly tournamentClocks?: Partial<ClockConfig>;
  /** How often the next scheduled tournament runs are opened, ms (default 10 s). */
  readonly tournamentPollMs?: number;
  /** The web client's build; default `packages/web/dist` when it exists, else the plain lobby page. */
  readonly webDir?: string | null;
  readonly rate?: RateLimit;
  readonly accounts?: AccountsOptions;
  /** SQLite durability (default 'full': every commit fsynced). */
  readonly synchronous?: 'full' | 'normal';
  /** The least time between two group commits, in ms (default {@link DEFAULT_COMMIT_GAP_MS}). */
  readonly commitGapMs?: number;
  /** House bots at practice tables: average think (ms, default 900) and how often audiences are looked at (ms, default 1,000). */
  readonly houseBots?: { readonly thinkMs?: number; readonly pollMs?: number };
  /** Lobby refresh period in ms (default 1,000). */
  readonly lobbyPollMs?: number;
  /** The window of `/health`'s figures (event-loop delay, action latency); default 10 s. */
  readonly figuresWindowMs?: number;
  /** The room's log (start, recovery, logins, tables, staff actions, errors, stop); default JSON lines on stdout at `info`. */
  readonly logger?: Logger;
  /** Tests: the room's storage wrapped before any part uses it (to make it refuse writes at will). */
  readonly wrapStorage?: (storage: Storage) => Storage;
  /** Origins whose pages may use the room besides its own (e.g. `https://poker.example`). */
  readonly allowedOrigins?: readonly string[];
  /**
   * Where operators read `/metrics` and `/health`'s figures: a port of their own (loopback unless a host
   * is given) and/or a bearer token on the players' port; neither: nowhere (docs/operators.md).
   */
  readonly metrics?: MetricsAccess;
  /** Per-address limits and their exemptions (loopback and `trusted`); see docs/security.md. */
  readonly addresses?: AddressOptions;
  /** A WebSocket not signed in is closed after this long; default 60 s. */
  readonly loginTimeoutMs?: number;
  /** An HTTP request must send its headers within this long (default 10 s) … */
  readonly headersTimeoutMs?: number;
  /** … and all of itself within this long (default 30 s); a half-sent one is dropped. */
  readonly requestTimeoutMs?: number;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface RunningServer {
  readonly port: number;
  /** The operators' port (`/metrics`, the full `/health`), or null when there is none. */
  readonly metricsPort: number | null;
  /** `ws://host:port` */
  readonly url: string;
  readonly storage: Storage;
  /** Whether storage takes writes: not ready while a table or the requests wait for it (`/health`). */
  readonly storageReadiness: StorageReadiness;
  readonly lobby: Lobby;
  readonly houseBots: HouseBots;
  readonly tournaments: TournamentService;
  readonly hub: Hub;
  readonly recovery: RecoveryReport;
  /** Stops everything durably; idempotent. */
  stop(): Promise<void>;
}

/**
 * The room commits at most once every 4 ms: a commit's sync costs about as much CPU whether it holds one
 * action or sixteen, and at 6,000 bots committing each turn of the storage thread's loop (one or two
 * actions) took about a third of a core; an action waits at most this long more (docs/benchmarks.md, ninth
 * session).
 */
export const DEFAULT_COMMIT_GAP_MS = 4;

/**
 * How long a stopping process of several waits for the hands at its tables to end before it hands those
 * still running over in play (the rest of its stop takes about 2 s; `felt serve` allows 10 s).
 */
export const CLUSTER_FINISH_HANDS_MS = 6000;

/** `packages/web/dist` next to this package, if built. */
function defaultWebDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const dist = resolve(here, '../../web/dist');
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  if (options.db !== undefined && !isPostgresUrl(options.db)) {
    throw new Error('the database is a postgres:// or postgresql:// URL');
  }
  if (options.bus !== undefined && options.db === undefined) {
    throw new Error('a room on several processes (--bus) keeps its data in PostgreSQL (--db postgres://…)');
  }
  // One server per data folder: a second one's crash recovery would cancel this one's live hands.
  // (PostgreSQL: the room's advisory lock in openPostgresRoomStorage.)
  const lock = options.db === undefined ? lockDataDir(dataDir) : null;
  let storage: Storage;
  // PostgreSQL without --bus: the database's kind, checked now and recorded once the port is bound.
  let roomMode: RoomModeGuard | null = null;
  // Several processes: each table's writes go through its lease (made below, once the tables can be).
  let cluster: ClusterRoom | null = null;
  // The actor of a table this process runs; set below, where its dependencies are made.
  let openActor: (config: TableConfig, tableStorage: TableStorage) => Table = () => {
    throw new Error('no table before the room is made');
  };
  // The house bots of the practice tables this process runs; set below, once they are made.
  let practice: HouseBots | null = null;
  // A table another process's lobby opened: listed here too; set below, once the lobby is made.
  let discovered: (config: TableConfig) => void = () => undefined;
  // A table the staff closed through another process: out of this lobby too; set with the lobby.
  let closed: (tableId: string) => void = () => undefined;
  // Tables stopped by an error (storage down, a bug, a lease lost): `/health` is not ok while there is one.
  const failedTables = new Map<string, { readonly error: string; readonly at: number }>();
  // Storage refusing writes (a full disk, the database away): the room is not ready until it takes them.
  const storageReadiness = new StorageReadiness();
  try {
    let opened: Storage;
    if (options.bus !== undefined) {
      cluster = await openClusterRoom({
        db: options.db!,
        bus: options.bus,
        ...(options.busAuth !== undefined ? { busAuth: options.busAuth } : {}),
        ...(options.node !== undefined ? { node: options.node } : {}),
        openActor: (config, tableStorage) => openActor(config, tableStorage),
        taken: (table) => practice?.add(table),
        // Another process runs it now: its failure and its house bots here are over.
        dropped: (tableId) => {
          failedTables.delete(tableId);
          practice?.remove(tableId);
        },
        discovered: (config) => {
          discovered(config);
        },
        closed: (tableId) => {
          closed(tableId);
        },
        logger,
        ...(options.switchMode !== undefined ? { switchMode: options.switchMode } : {}),
      });
      opened = cluster.storage;
    } else if (options.db !== undefined) {
      const room = await openPostgresRoomStorage({
        url: options.db,
        leaseMs: LEASE_MS,
        ...(options.switchMode !== undefined ? { switchMode: options.switchMode } : {}),
      });
      opened = room.storage;
      roomMode = room.mode;
    } else {
      opened = await openStorageThread({
        dataDir,
        commitGapMs: options.commitGapMs ?? DEFAULT_COMMIT_GAP_MS,
        ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
      });
    }
    storage = watchedStorage(options.wrapStorage?.(opened) ?? opened, storageReadiness);
  } catch (error) {
    lock?.release();
    throw error;
  }
  let http: HttpServer | null = null;
  let operatorHttp: { readonly port: number; close(): Promise<void> } | null = null;
  let gate: ConnectionGate | null = null;
  try {
    const addresses = new AddressPolicy(options.addresses);
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    const server = createServer({
      headersTimeout,
      requestTimeout,
      // Node looks for overdue requests this often (default 30 s, which would outlast the timeouts).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
    });
    http = server;
    server.keepAliveTimeout = 5000;
    addresses.attach(server);
    // The port first: a start that cannot bind it exits having recovered nothing. Players who connect
    // meanwhile wait until the room is recovered and ready.
    gate = gateConnections(server);
    // Counted from the accept, held or not: a connection silent past it is closed.
    closeSlowHeaders(server, headersTimeout);
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, options.host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    const port = (server.address() as AddressInfo).port;
    // Sure to serve: the database is this kind of room's from now on (else refused, nothing written).
    await (cluster?.claimMode() ?? roomMode?.claim());
    // RULES.md §1, server crash: hands in progress cancelled and refunded, chips at tables back to
    // accounts. This one process owns every table, so it recovers every table the journal shows in play.
    // (In a cluster, whoever takes a table recovers it: src/cluster/takeover.ts.)
    const recovery =
      cluster === null
        ? await storage.recoverTables(await storage.tablesInPlay())
        : { handsCancelled: 0, refunded: 0, seatsCashedOut: 0, cashedOut: 0 };
    if (recovery.handsCancelled > 0 || recovery.seatsCashedOut > 0) {
      logger.warn({ ...recovery }, 'recovery');
    }
    const tableFile = Array.isArray(options.tables)
      ? null
      : typeof options.tables === 'string'
        ? options.tables
        : join(dataDir, 'tables.json');
    const allTables =
      tableFile === null ? (options.tables as readonly TableConfig[]) : await loadTableSet(tableFile);
    const tournamentSet = options.tournaments ?? (await loadTournamentSet(tableFile));
    const reloadTournaments =
      options.tournaments === undefined && tableFile !== null ? () => loadTournamentFile(tableFile) : null;
    const clock = realClock();
    const allIns = cluster?.allIns ?? memoryAllInCounter();
    // The gauges read the lobby and the hub, made below, when Prometheus scrapes.
    const metrics: RoomMetrics = new RoomMetrics({
      tables: () => lobby.allTables().length,
      playersOnline: () => hub.playersOnline,
      connections: () => hub.connectionCount,
    });
    const houseBots = new HouseBots({
      storage,
      clock,
      ...options.houseBots,
      shared: cluster !== null,
      onError: (error) => {
        metrics.error('house-bots');
        logger.error({ err: error }, 'house bots failed');
      },
    });
    practice = houseBots;
    openActor = (config, tableStorage) => {
      // Counted so that the audit reads the table's seats only while memory and ledger agree.
      const writes = new WriteTracker();
      const table = createTable(config, {
        storage: trackedStorage(
          {
            buyIn: (...args) => tableStorage.buyIn(...args),
            cashOut: (...args) => tableStorage.cashOut(...args),
            recordAction: (...args) => tableStorage.recordAction(...args),
            fairLink: (...args) => tableStorage.fairLink(...args),
            saveFairLink: (...args) => tableStorage.saveFairLink(...args),
            startHand: async (...args) => {
              const started = await tableStorage.startHand(...args);
              if (started.ok) metrics.handStarted();
              return started;
            },
          },
          writes,
        ),
        clock,
        random: cryptoRandomSource(),
        allIns,
        // One process owns every table: a table waits out a full disk and goes on by itself. (Several
        // processes: a fenced table still stops, and its next owner recovers it.)
        ...(cluster === null
          ? {
              recovery: {
                handInPlay: (tableId: string) => storage.handInPlay(tableId),
                cancelHand: (handId: number) => storage.cancelHand(handId),
                seat: (...args: Parameters<Storage['seat']>) => storage.seat(...args),
              },
            }
          : {}),
        storageWaits: storageReadiness,
        onError: (error) => {
          const words = error instanceof Error ? error.message : String(error);
          metrics.error('table');
          failedTables.set(config.id, { error: words, at: Date.now() });
          logger.error({ tableId: config.id, err: error }, 'table stopped');
        },
        logger: logger.child({ tableId: config.id }),
      });
      watchStacks(table, writes, storage);
      return table;
    };
    const lobby = new Lobby({
      tables: allTables,
      open: (config) => {
        if (cluster !== null) return cluster.member.table(config);
        const table = openActor(config, storage);
        houseBots.add(table);
        return table;
      },
      ...(options.lobbyPollMs !== undefined ? { pollMs: options.lobbyPollMs } : {}),
      ...(cluster !== null
        ? { waitingLists: cluster.waitingLists, removed: (tableId: string) => cluster.member.close(tableId) }
        : {}),
      onError: (error) => {
        metrics.error('lobby');
        logger.error({ err: error }, 'waiting lists failed');
      },
    });
    discovered = (config) => {
      try {
        lobby.open(config);
      } catch (error) {
        logger.warn({ tableId: config.id, err: error }, 'table of another process not listed');
      }
    };
    closed = (tableId) => {
      lobby.remove(tableId).catch((error: unknown) => {
        logger.error({ tableId, err: error }, 'closed table not taken out of the lobby');
      });
    };
    const openTournaments = (tournamentStorage: TournamentRoomOptions['storage'], run?: string) =>
      new TournamentRoom({
        storage: tournamentStorage,
        clock,
        entries: tournamentSet,
        ...(run !== undefined ? { run } : {}),
        ...(reloadTournaments !== null ? { reload: reloadTournaments } : {}),
        ...(options.tournamentClocks !== undefined ? { tableClocks: options.tournamentClocks } : {}),
        ...(options.tournamentPollMs !== undefined ? { pollMs: options.tournamentPollMs } : {}),
        logger,
      });
    // Several processes: each run is directed by the member holding its lease (src/cluster/tournaments.ts).
    const tournaments: TournamentService =
      cluster === null
        ? localDesk(openTournaments(storage))
        : cluster.tournaments({
            open: openTournaments,
            file: reloadTournaments ?? (() => Promise.resolve({ entries: tournamentSet, cancelled: [] })),
            clock,
            ...(options.tournamentPollMs !== undefined ? { pollMs: options.tournamentPollMs } : {}),
          });
    const accounts = new Accounts(storage, { ...options.accounts, logger });
    const actLatency = new LatencyRecorder(options.figuresWindowMs, (seconds) => {
      metrics.actionLatency(seconds);
    });
    const loopDelay = new LoopDelayMonitor(options.figuresWindowMs);
    const failures = () => [...failedTables].map(([tableId, failure]) => ({ tableId, ...failure }));
    // Read when the console asks and at each sample; the hub it reads is made just below.
    const figures: LiveFigures = new LiveFigures((): RoomReadings => ({
      tables: lobby.allTables().length,
      playersOnline: hub.playersOnline,
      connections: hub.connectionCount,
      handsStarted: metrics.handsStarted,
      errors: metrics.errorCount,
      actLatencyMs: actLatency.last,
      eventLoopDelayMs: loopDelay.last,
      failedTables: failures(),
      cluster: cluster?.member.health() ?? null,
    }));
    const hub = new Hub(
      {
        storage,
        accounts,
        lobby,
        figures,
        tournaments,
        chat: new TableChat(storage),
        // Several processes: a player may have sat down through another one.
        ...(cluster !== null
          ? {
              seatedAnywhere: (account: number) =>
                lobby
                  .allTables()
                  .filter((table) => table.view(account).you !== null)
                  .map((table) => table.id),
            }
          : {}),
      },
      {
        ...(options.rate ? { rate: options.rate } : {}),
        ...(options.loginTimeoutMs !== undefined ? { loginTimeoutMs: options.loginTimeoutMs } : {}),
        actLatency,
        logger,
        onError: () => {
          metrics.error('request');
        },
      },
    );
    let ready = false;
    const startedAt = Date.now();
    const webDir = options.webDir === undefined ? defaultWebDir() : options.webDir;
    const allowedOrigins = options.allowedOrigins ?? [];
    const operator: OperatorRoutes = {
      health: () =>
        ready && !hub.shuttingDown
          ? {
              ok: failedTables.size === 0 && storageReadiness.ready,
              failedTables: failures(),
              ...(storageReadiness.ready ? {} : { storageOutages: storageReadiness.outages() }),
              tables: lobby.allTables().length,
              connections: hub.connectionCount,
              uptimeMs: Date.now() - startedAt,
              eventLoopDelayMs: loopDelay.last,
              actLatencyMs: actLatency.last,
              ...(cluster !== null ? { cluster: cluster.member.health() } : {}),
            }
          : null,
      metrics: async () => ({ contentType: metrics.contentType, text: await metrics.text() }),
    };
    server.on(
      'request',
      httpHandler({
        operator,
        metricsToken: options.metrics?.token ?? null,
        tables: () => lobby.list(),
        webDir,
        sessions: {
          signUp: (name, password, caller) => accounts.signUp(name, password, caller),
          login: (name, password, caller, totp) => accounts.login(name, password, caller, totp),
          logout: async (token) => {
            const hash = await accounts.logoutToken(token);
            hub.endToken(hash);
          },
          sessionMs: accounts.sessionMs,
          callerOf: (request) => addresses.callerOf(request),
          allowedOrigins,
        },
      }),
    );
    const ws = attachWebSocket(server, hub, { addresses, allowedOrigins });
    const metricsPort = options.metrics?.port;
    operatorHttp =
      metricsPort === undefined
        ? null
        : await startOperatorServer(operator, metricsPort, options.metrics?.host ?? DEFAULT_METRICS_HOST);
    await cluster?.member.start(`${options.host ?? hostname()}:${port}`);
    // The tournaments stored in play go on from their checkpoints (their hands in progress cancelled).
    await tournaments.start();
    lobby.start();
    houseBots.start();
    figures.start();
    ready = true;
    gate.open();
    const where =
      cluster !== null
        ? { storage: 'postgres', member: cluster.member.id }
        : options.db !== undefined
          ? { storage: 'postgres' }
          : { storage: 'sqlite', dataDir: resolve(dataDir) };
    logger.info(
      {
        port,
        ...(operatorHttp !== null ? { metricsPort: operatorHttp.port } : {}),
        ...where,
        tables: lobby.allTables().length,
      },
      'listening',
    );

    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        figures.stop();
        loopDelay.stop();
        actLatency.stop();
        houseBots.stop();
        // A process of several lets the hands at its tables end, and hands over in play those still
        // running when the wait is over (docs/deploy.md).
        const lastLeases = (await cluster?.member.finishHands(CLUSTER_FINISH_HANDS_MS)) ?? [];
        await hub.shutdown(1500);
        await ws.close();
        await lobby.dispose();
        await tournaments.close();
        // Same rule as a crash, applied at once: players' chips go back to their balances now — in a
        // cluster too when this is its last process. Otherwise the others take this process's tables
        // over (seats kept; a hand handed over in play goes on there, any other is cancelled).
        const report =
          cluster === null
            ? await storage.recoverTables(await storage.tablesInPlay())
            : await cluster.closeAsLast(lastLeases);
        await (cluster ?? storage).close();
        lock?.release();
        await operatorHttp?.close();
        await new Promise<void>((resolveClose) => {
          server.close(() => {
            resolveClose();
          });
          server.closeAllConnections();
        });
        logger.info({ ...report }, 'stopped');
      })();
      return stopping;
    };
    return {
      port,
      metricsPort: operatorHttp?.port ?? null,
      url: `ws://localhost:${port}`,
      storage,
      storageReadiness,
      lobby,
      houseBots,
      tournaments,
      hub,
      recovery,
      stop,
    };
  } catch (error) {
    gate?.drop();
    http?.close();
    await operatorHttp?.close();
    await (cluster ?? storage).close();
    lock?.release();
    throw error;
  }
}
