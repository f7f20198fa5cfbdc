/**
 * The composition root: opens storage on its own thread (migrations on start), runs crash recovery,
 * creates the lobby and its tables, and serves HTTP + WebSocket. `stop()` (SIGTERM in `felt serve`)
 * refuses new requests, lets the running ones finish, stops the tables, returns every chip on the
 * tables to its owner by the server-crash rule (RULES.md §1) and closes storage — everything is
 * durable when it resolves.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Accounts, type AccountsOptions } from './accounts/accounts.js';
import { loadTableSet } from './lobby/config.js';
import { Lobby } from './lobby/lobby.js';
import { DEFAULT_DATA_DIR } from './storage/index.js';
import { openStorageThread } from './storage/thread.js';
import type { RecoveryReport, Storage } from './storage/types.js';
import { createTable, cryptoRandomSource, memoryAllInCounter, realClock } from './table/index.js';
import type { TableConfig } from './table/types.js';
import { httpHandler } from './transport/http.js';
import { Hub } from './transport/hub.js';
import type { RateLimit } from './transport/rate-limit.js';
import { LatencyRecorder, LoopDelayMonitor } from './transport/figures.js';
import { attachWebSocket } from './transport/websocket.js';

export interface ServerOptions {
  /** TCP port; default 8080; 0 = any free port (tests). */
  readonly port?: number;
  /** Default: all interfaces. */
  readonly host?: string;
  /** Data directory (the SQLite file `felt.db`, optional `tables.json`); default `./data`. */
  readonly dataDir?: string;
  /** The table set: a file (default `DATA/tables.json` when present, else the built-in set) or a list. */
  readonly tables?: string | readonly TableConfig[];
  /** The web client's build; default `packages/web/dist` when it exists, else the plain lobby page. */
  readonly webDir?: string | null;
  readonly rate?: RateLimit;
  readonly accounts?: AccountsOptions;
  /** SQLite durability (default 'full': every commit fsynced). */
  readonly synchronous?: 'full' | 'normal';
  /** The least time between two group commits, in ms (default {@link DEFAULT_COMMIT_GAP_MS}). */
  readonly commitGapMs?: number;
  /** Lobby refresh period in ms (default 1,000). */
  readonly lobbyPollMs?: number;
  /** The window of `/health`'s figures (event-loop delay, action latency); default 10 s. */
  readonly figuresWindowMs?: number;
  /** Log lines (start, recovery, stop); default stderr. */
  readonly log?: (line: string) => void;
}

export interface RunningServer {
  readonly port: number;
  /** `ws://host:port` */
  readonly url: string;
  readonly storage: Storage;
  readonly lobby: Lobby;
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

/** `packages/web/dist` next to this package, if built. */
function defaultWebDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const dist = resolve(here, '../../web/dist');
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const storage = await openStorageThread({
    dataDir,
    commitGapMs: options.commitGapMs ?? DEFAULT_COMMIT_GAP_MS,
    ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
  });
  let http: HttpServer | null = null;
  try {
    // RULES.md §1, server crash: hands in progress cancelled and refunded, chips at tables back to accounts.
    const recovery = await storage.recover();
    if (recovery.handsCancelled > 0 || recovery.seatsCashedOut > 0) {
      log(
        `recovery: ${recovery.handsCancelled} hands cancelled (${recovery.refunded} refunded), ` +
          `${recovery.seatsCashedOut} seats cashed out (${recovery.cashedOut})`,
      );
    }
    const tableSet = Array.isArray(options.tables)
      ? (options.tables as readonly TableConfig[])
      : await loadTableSet(
          typeof options.tables === 'string' ? options.tables : join(dataDir, 'tables.json'),
        );
    const clock = realClock();
    const allIns = memoryAllInCounter();
    const lobby = new Lobby({
      tables: tableSet,
      open: (config) =>
        createTable(config, {
          storage,
          clock,
          random: cryptoRandomSource(),
          allIns,
          onError: (error) => {
            log(
              `table ${config.id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            );
          },
        }),
      ...(options.lobbyPollMs !== undefined ? { pollMs: options.lobbyPollMs } : {}),
    });
    const accounts = new Accounts(storage, options.accounts);
    const actLatency = new LatencyRecorder(options.figuresWindowMs);
    const hub = new Hub(
      { storage, accounts, lobby },
      {
        ...(options.rate ? { rate: options.rate } : {}),
        actLatency,
        log: (message, error) => {
          log(`${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        },
      },
    );
    let ready = false;
    const startedAt = Date.now();
    const loopDelay = new LoopDelayMonitor(options.figuresWindowMs);
    const webDir = options.webDir === undefined ? defaultWebDir() : options.webDir;
    const server = createServer(
      httpHandler({
        health: () =>
          ready && !hub.shuttingDown
            ? {
                tables: lobby.allTables().length,
                connections: hub.connectionCount,
                uptimeMs: Date.now() - startedAt,
                eventLoopDelayMs: loopDelay.last,
                actLatencyMs: actLatency.last,
              }
            : null,
        tables: () => lobby.list(),
        webDir,
      }),
    );
    http = server;
    server.keepAliveTimeout = 5000;
    const ws = attachWebSocket(server, hub);
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, options.host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
    lobby.start();
    ready = true;
    const port = (server.address() as AddressInfo).port;
    log(`felt: listening on port ${port} (data ${resolve(dataDir)}, ${lobby.allTables().length} tables)`);

    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        loopDelay.stop();
        actLatency.stop();
        await hub.shutdown(1500);
        await ws.close();
        await lobby.dispose();
        // Same rule as a crash, applied at once: players' chips go back to their balances now.
        const report = await storage.recover();
        await storage.close();
        await new Promise<void>((resolveClose) => {
          server.close(() => {
            resolveClose();
          });
          server.closeAllConnections();
        });
        log(
          `felt: stopped (${report.handsCancelled} hands cancelled and refunded, ${report.seatsCashedOut} seats cashed out)`,
        );
      })();
      return stopping;
    };
    return { port, url: `ws://localhost:${port}`, storage, lobby, hub, recovery, stop };
  } catch (error) {
    http?.close();
    await storage.close();
    throw error;
  }
}
