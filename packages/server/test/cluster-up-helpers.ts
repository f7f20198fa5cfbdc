/**
 * `felt cluster up` for tests: a secured room of several real processes (its own nats-server with a
 * user per member, the members, the database given or its own PostgreSQL), started as a child process
 * and read from the one JSON line it prints. DIR/spare.nk is a user with a member's bus rights that no
 * member uses: for tests that must speak on the bus as a member-credentialed client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionOptions } from 'nats';
import { natsConnectionOptions } from '../src/cluster/bus-connection.js';
import { FELT, tempDir } from './integration-helpers.js';
import { serviceReachable } from './services.js';

export interface ClusterMemberInfo {
  readonly node: string;
  readonly port: number;
  readonly pid: number;
}

export interface ClusterUp {
  /** The bus's URL (no secrets in it; `tls://…` with `--bus-tls`, its CA in DIR/ca.pem). */
  readonly bus: string;
  readonly db: string;
  readonly members: readonly ClusterMemberInfo[];
  /** The cluster's folder: the users' seeds (`m1.nk`, …, `spare.nk`), `nats.conf`, the logs. */
  readonly dir: string;
  /** The `felt cluster up` process. */
  readonly child: ChildProcess;
  /** What it wrote on standard error so far. */
  readonly stderr: () => string;
  /** Resolves with its exit status once it has exited. */
  readonly exited: Promise<number | null>;
  /**
   * SIGTERM to `felt cluster up` (which stops everything it started); its exit status, once its
   * folder is removed.
   */
  stop(): Promise<number | null>;
}

export interface ClusterUpArgs {
  readonly processes: number;
  /** The room's database (created when missing); default: `felt cluster up` starts a PostgreSQL. */
  readonly db?: string;
  /** More arguments for `felt cluster up` (`--bus-tls`, `--tables FILE`, …). */
  readonly extraArgs?: readonly string[];
}

/**
 * Starts `felt cluster up` in a new folder; resolves once it has printed its JSON line (every member
 * listening).
 */
export function clusterUp(args: ClusterUpArgs): Promise<ClusterUp> {
  const folder = tempDir('felt-cluster-up-');
  const argv = [
    ...[FELT, 'cluster', 'up', '--processes', String(args.processes), '--dir', folder.dir],
    ...(args.db !== undefined ? ['--db', args.db] : []),
    ...(args.extraArgs ?? []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    const exited = new Promise<number | null>((done) => child.on('close', done)).then((status) => {
      // What went wrong is in the logs: kept in the error of a start that failed, before they go.
      if (!started) logs = logsOf(folder.dir);
      folder.remove();
      return status;
    });
    let stdout = '';
    let stderr = '';
    let started = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const end = stdout.indexOf('\n');
      if (started || end < 0) return;
      started = true;
      const info = JSON.parse(stdout.slice(0, end)) as Pick<ClusterUp, 'bus' | 'db' | 'members' | 'dir'>;
      resolve({
        ...info,
        child,
        stderr: () => stderr,
        exited,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.on('error', reject);
    void exited.then((status) => {
      if (!started) reject(new Error(`felt cluster up exited (${String(status)}): ${stderr}${logs}`));
    });
  });
}

/** The last lines of each log in `dir`. */
function logsOf(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map(
      (name) => `\n--- ${name}\n${readFileSync(join(dir, name), 'utf8').split('\n').slice(-20).join('\n')}`,
    )
    .join('');
}

/** The spare bus user's seed (`SU…`): member rights on the bus, no member's identity. */
export const spareSeed = (cluster: Pick<ClusterUp, 'dir'>): string =>
  readFileSync(join(cluster.dir, 'spare.nk'), 'utf8').trim();

/**
 * The nats client's options to speak on the cluster's bus as the spare user, as a member connects
 * (its key, its own reply inbox, the cluster's CA with `--bus-tls`): `connect(spareConnection(…))`.
 */
export function spareConnection(cluster: Pick<ClusterUp, 'dir' | 'bus'>): Promise<ConnectionOptions> {
  const ca = join(cluster.dir, 'ca.pem');
  return natsConnectionOptions(cluster.bus, {
    credsFile: join(cluster.dir, 'spare.nk'),
    ...(existsSync(ca) ? { caFile: ca } : {}),
  });
}

/** The pid of the cluster's nats-server (its pid file). */
export const natsPid = (cluster: Pick<ClusterUp, 'dir'>): number =>
  Number(readFileSync(join(cluster.dir, 'nats.pid'), 'utf8').trim());

/** Whether a process `pid` still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the `command` of a service is installed (see ./services.ts for when it is not). */
export function commandInstalled(
  command: string,
  probe: readonly string[] = ['--version'],
): Promise<boolean> {
  return serviceReachable(`the ${command} command`, () => {
    const run = spawnSync(command, probe);
    if (run.status !== 0)
      throw run.error ?? new Error(`${command} ${probe.join(' ')} exited ${String(run.status)}`);
    return Promise.resolve();
  });
}

/** The room's subjects on the bus, as `Bus.connect` makes them from the database's name. */
export const roomOf = (db: string): string =>
  `felt.${decodeURIComponent(new URL(db).pathname.slice(1)).replaceAll(/[^A-Za-z0-9_-]/g, '_')}`;
