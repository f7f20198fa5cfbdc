/**
 * `felt cluster up`: a secured room of N `felt serve` processes on this machine — its own nats-server
 * with one nkey user per member (./nats-config.ts), TLS when asked (./tls-files.ts), the database
 * (./postgres.ts) — and its orderly stop: the members, then NATS, then its own PostgreSQL.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { databaseOf, ensureDatabase, startLocalPostgres } from './postgres.js';
import { freePort, startChild } from './processes.js';
import { natsServerConfig, newNkeyUser } from './nats-config.js';
import { makeTlsFiles } from './tls-files.js';

export interface ClusterUpOptions {
  readonly processes: number;
  /** The room's PostgreSQL database (created when missing); default: a PostgreSQL of its own. */
  readonly db?: string;
  /** The cluster's folder (keys, configuration, logs); default: a new temporary one. */
  readonly dir?: string;
  /** TLS between the members and NATS, with a CA of the cluster's own. */
  readonly busTls?: boolean;
  /** More `felt serve` arguments, the same for every member (`--tables FILE`, `--log-level debug`, …). */
  readonly serveArgs?: readonly string[];
  /** How to run `felt` (e.g. `[process.execPath, '…/felt.js']`). */
  readonly felt: readonly [string, ...string[]];
}

/** What `felt cluster up` prints once every member answers. */
export interface ClusterInfo {
  /** The bus's URL (`tls://…` with TLS: the CA is DIR/ca.pem); its users' seeds are DIR/NODE.nk. */
  readonly bus: string;
  /** The database's URL, without its password if it had one. */
  readonly db: string;
  readonly members: readonly { readonly node: string; readonly port: number; readonly pid: number }[];
  readonly dir: string;
}

export interface RunningCluster {
  readonly info: ClusterInfo;
  /** Tells `listener` of each member that exits before {@link stop}: which one, and how. */
  onMemberExit(listener: (node: string, exit: number | string) => void): void;
  /** Stops the members (SIGTERM, each awaited), then nats-server, then its own PostgreSQL. */
  stop(): Promise<void>;
}

/** A database URL as it may be printed: the password, if any, left out. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/** Writes a secret file only its owner may read. */
function writeSecret(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  // The mode above applies only to a new file: one left in a reused DIR keeps its own.
  chmodSync(file, 0o600);
}

export async function clusterUp(options: ClusterUpOptions): Promise<RunningCluster> {
  if (!Number.isInteger(options.processes) || options.processes < 1) {
    throw new Error('a cluster has at least one process');
  }
  const dir = options.dir !== undefined ? resolve(options.dir) : mkdtempSync(join(tmpdir(), 'felt-cluster-'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // What is running, stopped last first when the start fails half-way or the cluster is stopped.
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    let db = options.db;
    if (db === undefined) {
      const postgres = await startLocalPostgres(dir, await freePort());
      stops.push(() => postgres.stop());
      db = `${postgres.serverUrl}felt`;
    }
    await ensureDatabase(db);

    const nodes = Array.from({ length: options.processes }, (_, i) => `m${String(i + 1)}`);
    const users = [...nodes, 'spare'].map((name) => ({ name, ...newNkeyUser() }));
    for (const user of users) writeSecret(join(dir, `${user.name}.nk`), `${user.seed}\n`);
    const tls = options.busTls === true ? makeTlsFiles(dir) : undefined;
    const natsPort = await freePort();
    const config = join(dir, 'nats.conf');
    writeSecret(
      config,
      natsServerConfig({
        host: '127.0.0.1',
        port: natsPort,
        database: databaseOf(db),
        users,
        pidFile: join(dir, 'nats.pid'),
        ...(tls !== undefined ? { tls } : {}),
      }),
    );
    const nats = await startChild(
      'nats-server',
      'nats-server',
      ['-c', config],
      join(dir, 'nats.log'),
      /Server is ready/,
    );
    stops.push(() => nats.stop());
    const bus = `${tls !== undefined ? 'tls' : 'nats'}://127.0.0.1:${String(natsPort)}`;

    const starts = await Promise.allSettled(
      nodes.map(async (node) => {
        const data = join(dir, node);
        mkdirSync(data, { recursive: true, mode: 0o700 });
        const port = await freePort();
        const [command, ...prefix] = options.felt;
        const args = [
          ...[...prefix, 'serve', '--db', db, '--bus', bus, '--bus-creds', join(dir, `${node}.nk`)],
          ...(tls !== undefined ? ['--bus-ca', tls.caFile] : []),
          ...['--node', node, '--port', String(port), '--data', data, ...(options.serveArgs ?? [])],
        ];
        const log = join(dir, `${node}.log`);
        const child = await startChild(`member ${node}`, command, args, log, /"msg":"listening"/);
        return { node, port, child };
      }),
    );
    // Every member that started is stopped, even when another did not (all were awaited: none is left
    // starting behind the stop). They are stopped together: each waits for its own tables' hands.
    const members = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    stops.push(() => Promise.all(members.map(({ child }) => child.stop())));
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed !== undefined) throw failed.reason;

    let stopping = false;
    const listeners: ((node: string, exit: number | string) => void)[] = [];
    for (const { node, child } of members) {
      void child.exited.then((exit) => {
        if (!stopping) for (const listener of listeners) listener(node, exit);
      });
    }
    return {
      info: {
        bus,
        db: withoutPassword(db),
        members: members.map(({ node, port, child }) => ({ node, port, pid: child.pid })),
        dir,
      },
      onMemberExit: (listener) => {
        listeners.push(listener);
      },
      stop: async () => {
        stopping = true;
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
