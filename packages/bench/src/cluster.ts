/**
 * cluster: a load run of the room on several processes — three `felt serve --db postgres://… --bus
 * nats://…` on this machine, sharing a database the run creates on the PostgreSQL server at
 * postgres://postgres@127.0.0.1:5432 (and drops after it) and the NATS server at nats://127.0.0.1:4222,
 * with one `felt bots` process (at a lower CPU priority, as in the room group) whose bots are spread
 * over the three addresses. A third of the way through the measured seconds the process that runs the
 * most tables is killed (SIGKILL): the others take its tables over, and its bots reconnect to them.
 *
 * Rows: `cluster-processes`, `cluster-bots` (seated), `cluster-actions` (actions/s over the measured
 * seconds, the kill included), `cluster-latency-p50` and `-p99` (ms, send `act` → ack, as the bots
 * measure it), `cluster-failover-s` (from the kill to the first hand dealt again at the slowest of the
 * killed process's tables that were dealing: an empty table has nothing to deal), `cluster-errors` (error answers and unanswered requests, except those lost
 * with the connections the kill cut) and `cluster-conserved` (1 when `felt admin audit --db` finds every
 * chip afterwards). No flag: without PostgreSQL or NATS there it fails at once, saying which is missing.
 *
 * Sized by the environment:
 *   FELT_CLUSTER_BOTS (1500)       bots, six to a table
 *   FELT_CLUSTER_SECONDS (60)      measured seconds, from when every bot is seated; the kill at a third
 *   FELT_CLUSTER_THINK_MS (500)    each bot's pause before each action, on average (± half of it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { withBenchDatabase } from './bench-database.js';
import { envNumber } from './env.js';
import { BOTS_NICE, felt, serve, type Served } from './felt-processes.js';
import type { BenchGroup, BenchRow } from './registry.js';
import { writeRoomTables, type BotsDetailLine } from './room.js';

export const CLUSTER_POSTGRES = 'postgres://postgres@127.0.0.1:5432';
export const CLUSTER_NATS = 'nats://127.0.0.1:4222';
const PROCESSES = 3;
/** An orphaned table that has not dealt again this long after the kill fails the run. */
const FAILOVER_LIMIT_MS = 60_000;
/**
 * A table of the killed process is orphaned when it dealt a hand this long before the kill: a table
 * nobody plays at (one a lobby opened when all of its kind were full) has nothing to deal again.
 */
const DEALING_WITHIN_MS = 30_000;

export interface ClusterSettings {
  readonly bots: number;
  readonly seconds: number;
  readonly thinkMs: number;
}

export function clusterSettings(): ClusterSettings {
  return {
    bots: Math.round(envNumber('FELT_CLUSTER_BOTS', 1500, PROCESSES * 2)),
    seconds: envNumber('FELT_CLUSTER_SECONDS', 60, 3),
    thinkMs: Math.round(envNumber('FELT_CLUSTER_THINK_MS', 500, 0)),
  };
}

/** Resolves when a NATS server answers at `url` (it greets every connection with `INFO`); else throws. */
export function natsAnswers(url: string, timeoutMs = 3000): Promise<void> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port || 4222) });
    const fail = (why: string): void => {
      socket.destroy();
      reject(new Error(`NATS at ${url} does not answer (${why}): the cluster group needs it`));
    };
    socket.setTimeout(timeoutMs, () => {
      fail(`nothing in ${timeoutMs} ms`);
    });
    socket.once('error', (error) => {
      fail(error.message);
    });
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      if (chunk.toString('latin1').startsWith('INFO ')) resolve();
      else fail('not a NATS greeting');
    });
  });
}

/** A run's rows, and what its `cluster-errors` counts. */
export interface ClusterRun {
  readonly rows: readonly BenchRow[];
  /** The error answers, by request and code (`act:NO_SUCH_HAND`): the rest of the count is unanswered. */
  readonly errorCodes: Readonly<Record<string, number>>;
}

/** One run: the rows of {@link clusterGroup}. */
export async function runCluster(
  settings: ClusterSettings,
  log: (line: string) => void = () => undefined,
): Promise<ClusterRun> {
  await natsAnswers(CLUSTER_NATS);
  const probe = new pg.Client({ connectionString: CLUSTER_POSTGRES, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.end();
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${CLUSTER_POSTGRES} does not answer (${(error as Error).message}): the cluster group needs it`,
      { cause: error },
    );
  }
  return withBenchDatabase(CLUSTER_POSTGRES, (url) => runClusterOn(url, settings, log));
}

/** What the kill left: when, and the tables the killed process ran that were dealing (orphaned). */
interface Kill {
  readonly at: number;
  readonly label: string;
  readonly tables: readonly string[];
}

async function runClusterOn(
  url: string,
  settings: ClusterSettings,
  log: (line: string) => void,
): Promise<ClusterRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'felt-cluster-bench-'));
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  const servers = new Map<string, Served>();
  try {
    const tables = writeRoomTables(dataDir, settings.bots);
    const labels = Array.from({ length: PROCESSES }, (_, i) => `bench-${i + 1}`);
    // Started at once: they create the schema and the table set once between them, and share the tables.
    const started = await Promise.allSettled(
      labels.map((label) => serve(['--data', dataDir, '--db', url, '--bus', CLUSTER_NATS, '--node', label])),
    );
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') servers.set(labels[i]!, result.value);
    });
    const refused = started.find((result) => result.status === 'rejected');
    if (refused !== undefined) throw refused.reason;
    await until(async () => (await leases(sql)).length === tables, 'every table to have an owner', 60_000);
    log(`cluster: ${PROCESSES} processes, ${settings.bots} bots at ${tables} tables, ${settings.seconds} s`);

    const killed: { kill: Promise<Kill> | null } = { kill: null };
    const run = await felt(
      [
        'bots',
        ...[...servers.values()].flatMap((server) => ['--url', `ws://127.0.0.1:${server.port}`]),
        ...['--bots', String(settings.bots), '--game', 'holdem', '--structure', 'nl'],
        ...['--seconds', String(settings.seconds), '--think-ms', String(settings.thinkMs), '--detail'],
      ],
      (child) => {
        child.stderr?.on('data', (chunk: Buffer) => {
          const text = chunk.toString('utf8');
          if (/ seated at \d+ tables /.test(text) && killed.kill === null) {
            killed.kill = delay((settings.seconds * 1000) / 3).then(() => killBusiest(sql, servers, log));
            killed.kill.catch(() => undefined); // awaited once the bots are done
          }
          log(text.trimEnd());
        });
      },
      BOTS_NICE,
    );
    if (run.status !== 0) throw new Error(`felt bots failed (${run.status}): ${run.stderr}`);
    if (killed.kill === null) throw new Error('the bots never started measuring: nothing was killed');
    const kill = await killed.kill;
    const dealtAgain = await dealtAgainAfter(sql, kill);
    const failoverMs = dealtAgain[dealtAgain.length - 1]!;
    const takenAfter = await takenAfterKill(sql, kill);
    const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as BotsDetailLine;
    log(
      `cluster: ${kill.label} killed with ${kill.tables.length} tables; taken over ${seconds(median(takenAfter))} s ` +
        `(the last ${seconds(takenAfter[takenAfter.length - 1] ?? 0)} s) and dealing again ${seconds(median(dealtAgain))} s ` +
        `(the slowest ${seconds(failoverMs)} s) after the kill, by their median; ` +
        `${result.reconnects} reconnections, ${result.cut} requests lost with the cut connections, ` +
        `${result.unanswered - result.cut} other unanswered, errors by request and code ${JSON.stringify(result.errorCodes)}`,
    );

    await Promise.all(
      [...servers.values()].map((server) => {
        server.child.kill('SIGTERM');
        return server.exited;
      }),
    );
    const audit = await felt(['admin', 'audit', '--db', url]);
    const conserved = (JSON.parse(audit.stdout.trim()) as { conserved: boolean }).conserved;
    const row = (name: string, unit: string, value: number): BenchRow => ({
      name,
      unit,
      felt: value,
      peers: {},
    });
    const rows = [
      row('cluster-processes', 'processes', PROCESSES),
      row('cluster-bots', 'bots', result.seated),
      row('cluster-actions', 'actions/s', Math.round((result.actions / result.seconds) * 10) / 10),
      row('cluster-latency-p50', 'ms', result.latency_ms.p50),
      row('cluster-latency-p99', 'ms', result.latency_ms.p99),
      row('cluster-failover-s', 's', Math.round(failoverMs / 100) / 10),
      row('cluster-errors', 'errors', result.errors + result.unanswered - result.cut),
      row('cluster-conserved', 'yes=1', conserved ? 1 : 0),
    ];
    return { rows, errorCodes: result.errorCodes };
  } finally {
    for (const server of servers.values()) server.child.kill('SIGKILL');
    await Promise.all([...servers.values()].map((server) => server.exited));
    await sql.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

async function until(test: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`cluster: timed out waiting for ${what}`);
    await delay(250);
  }
}

/** The live leases: each table's owner (a member id). */
async function leases(sql: pg.Client): Promise<{ table: string; member: number }[]> {
  const result = await sql.query<{ table_id: string; member_id: string }>(
    'SELECT table_id, member_id FROM table_leases WHERE expires_at > clock_timestamp()',
  );
  return result.rows.map((row) => ({ table: row.table_id, member: Number(row.member_id) }));
}

/** Kills (SIGKILL) the process that runs the most tables; what it ran, and when. */
async function killBusiest(
  sql: pg.Client,
  servers: ReadonlyMap<string, Served>,
  log: (line: string) => void,
): Promise<Kill> {
  // Each label's latest member: a process that missed its heartbeat joins again as a new one.
  const members = new Map<number, string>();
  for (const row of (
    await sql.query<{ id: string; label: string }>('SELECT id, label FROM cluster_members ORDER BY id')
  ).rows)
    members.set(Number(row.id), row.label);
  const byLabel = new Map<string, string[]>();
  for (const lease of await leases(sql)) {
    const label = members.get(lease.member);
    if (label !== undefined) byLabel.set(label, [...(byLabel.get(label) ?? []), lease.table]);
  }
  const [label, tables] = [...byLabel].reduce((most, entry) =>
    entry[1].length > most[1].length ? entry : most,
  );
  const victim = servers.get(label);
  if (victim === undefined) throw new Error(`cluster: no process labelled ${label}`);
  const dealing = (
    await sql.query<{ table_id: string }>(
      'SELECT DISTINCT table_id FROM hands WHERE started_at > $1 AND table_id = ANY($2)',
      [Date.now() - DEALING_WITHIN_MS, tables],
    )
  ).rows.map((row) => row.table_id);
  victim.child.kill('SIGKILL');
  const at = Date.now();
  log(`cluster: SIGKILL to ${label}, which ran ${tables.length} tables, ${dealing.length} of them dealing`);
  return { at, label, tables: dealing };
}

const median = (sorted: readonly number[]): number => sorted[Math.floor(sorted.length / 2)] ?? 0;
const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** Ms from the kill to the new lease of each of the killed process's tables, in order. */
async function takenAfterKill(sql: pg.Client, kill: Kill): Promise<number[]> {
  const result = await sql.query<{ at: string }>(
    'SELECT CAST(EXTRACT(EPOCH FROM acquired_at) * 1000 AS BIGINT) AS at FROM table_leases WHERE table_id = ANY($1)',
    [kill.tables],
  );
  return result.rows.map((row) => Number(row.at) - kill.at).sort((a, b) => a - b);
}

/** Ms from the kill to the first hand started after it at each of the killed process's tables, in order. */
async function dealtAgainAfter(sql: pg.Client, kill: Kill): Promise<number[]> {
  const first = new Map<string, number>();
  const deadline = kill.at + FAILOVER_LIMIT_MS;
  for (;;) {
    const result = await sql.query<{ table_id: string; at: string }>(
      'SELECT table_id, MIN(started_at) AS at FROM hands WHERE started_at > $1 AND table_id = ANY($2) GROUP BY table_id',
      [kill.at, kill.tables],
    );
    for (const row of result.rows) first.set(row.table_id, Number(row.at));
    if (first.size === kill.tables.length)
      return [...first.values()].map((at) => at - kill.at).sort((a, b) => a - b);
    if (Date.now() > deadline)
      throw new Error(
        `cluster: ${kill.tables.length - first.size} of the killed process's ${kill.tables.length} tables had not dealt again ${FAILOVER_LIMIT_MS / 1000} s after the kill`,
      );
    await delay(250);
  }
}

export const clusterGroup: BenchGroup = {
  name: 'cluster',
  async *rows() {
    const run = await runCluster(clusterSettings(), (line) => process.stderr.write(`${line}\n`));
    for (const row of run.rows) yield row;
  },
};
