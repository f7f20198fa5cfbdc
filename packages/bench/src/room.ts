/**
 * room: a load run of the poker room on this machine — `felt serve` and `felt bots` (at a lower CPU
 * priority, see BOTS_NICE) in two separate processes, talking over real WebSockets on localhost, the
 * server on a fresh SQLite file with its default durability (synchronous = FULL). Rows `room-*`: tables
 * and connected bots, hands and actions per second, action latency p50/p99 (send → ack, i.e. durable
 * and announced), the server's share of it (frame in → ack out, from `/health`, over its busiest
 * 10-second window: what the bots measure beyond it is localhost and their own process), the bots
 * process's event-loop delay (p99: how late it reads what arrives), peak memory of each process, the CPU
 * of the server, of the bots and of everything else on the machine while measuring (Linux: /proc, read
 * once as the bots start measuring and once as they stop), errors, and whether the audit afterwards
 * finds every chip (`room-conserved`, 1 = yes). `room-metrics-*`: what the server's `/metrics` counted
 * over the same seconds (scraped as the bots start and stop measuring) — hands started, actions
 * acknowledged and their mean latency — to hold against the bots' own counts.
 *
 * `FELT_ROOM_DB=postgres://USER@HOST:PORT` puts the room on PostgreSQL instead, in a database the run
 * creates on that server and drops after it (`room-postgres` 1): the same rows, to hold against SQLite's.
 *
 * Sized by the environment (defaults finish in about a minute):
 *   FELT_ROOM_BOTS (240)      bots, six to a table: FELT_ROOM_BOTS / 6 six-seat hold'em NL tables
 *   FELT_ROOM_SECONDS (30)    measured seconds, from when every bot is seated
 *   FELT_ROOM_THINK_MS (500)  each bot's pause before each action, on average
 *   FELT_ROOM_THINK_SPREAD (0.5)  each pause is THINK_MS ± this fraction of it (`felt bots --think-spread`)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchDatabase } from './bench-database.js';
import { envNumber } from './env.js';
import { BOTS_NICE, felt, serve } from './felt-processes.js';
import type { BenchGroup, BenchRow } from './registry.js';

const SEATS = 6;

export interface RoomSettings {
  readonly bots: number;
  readonly seconds: number;
  readonly thinkMs: number;
  readonly thinkSpread: number;
  /** A PostgreSQL server's URL to run the room on (a database of its own), or null for SQLite. */
  readonly db: string | null;
}

export function roomSettings(): RoomSettings {
  return {
    bots: Math.round(envNumber('FELT_ROOM_BOTS', 240, 2)),
    seconds: envNumber('FELT_ROOM_SECONDS', 30, 1),
    thinkMs: Math.round(envNumber('FELT_ROOM_THINK_MS', 500, 0)),
    thinkSpread: envNumber('FELT_ROOM_THINK_SPREAD', 0.5, 0, 1),
    db: process.env['FELT_ROOM_DB'] || null,
  };
}

/** A process's peak resident memory in bytes (Linux: VmHWM), read once at the end of the run. */
function peakMemoryOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** /proc counts CPU time in ticks of USER_HZ, which is 100 on every Linux. */
const USER_HZ = 100;

/** CPU time (ticks) used so far: by the whole machine (all but idle and I/O wait) and by some processes. */
export interface CpuSnapshot {
  /** `performance.now()` when it was taken. */
  readonly at: number;
  readonly machine: number;
  readonly server: number;
  readonly bots: number;
  /** This process (the bench itself). */
  readonly bench: number;
}

/**
 * The busy ticks of the machine: the first line of /proc/stat (user nice system idle iowait irq softirq
 * steal) less idle and I/O wait.
 */
export function machineBusyTicks(procStat: string): number {
  const ticks = procStat.slice(0, procStat.indexOf('\n')).trim().split(/\s+/).slice(1, 9).map(Number);
  return ticks.reduce((sum, n) => sum + n, 0) - ticks[3]! - ticks[4]!;
}

/** utime + stime (ticks) of /proc/PID/stat; its command name, in parentheses, may hold spaces. */
export function processTicks(procPidStat: string): number {
  const fields = procPidStat.slice(procPidStat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function cpuSnapshot(serverPid: number | undefined, botsPid: number | undefined): CpuSnapshot | null {
  try {
    const bench = process.cpuUsage();
    return {
      at: performance.now(),
      machine: machineBusyTicks(readFileSync('/proc/stat', 'utf8')),
      server: processTicks(readFileSync(`/proc/${serverPid}/stat`, 'utf8')),
      bots: processTicks(readFileSync(`/proc/${botsPid}/stat`, 'utf8')),
      bench: ((bench.user + bench.system) / 1e6) * USER_HZ,
    };
  } catch {
    return null;
  }
}

/** Percent of one core used between two snapshots: by the server, the bots and everything else. */
export function cpuShares(
  from: CpuSnapshot,
  to: CpuSnapshot,
): { readonly server: number; readonly bots: number; readonly others: number } {
  const seconds = (to.at - from.at) / 1000;
  const percent = (ticks: number): number => Math.round((ticks / USER_HZ / seconds) * 1000) / 10;
  const server = to.server - from.server;
  const bots = to.bots - from.bots;
  const others = to.machine - from.machine - server - bots - (to.bench - from.bench);
  return { server: percent(server), bots: percent(bots), others: percent(Math.max(0, others)) };
}

/** A sample's value in Prometheus's text format (the line `NAME VALUE`, no labels), or null. */
export function promSample(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
}

/** The server's counters of hands and actions at one moment (`/metrics`). */
export interface MetricsSnapshot {
  readonly hands: number;
  readonly actions: number;
  /** Sum of the actions' latencies, in seconds. */
  readonly latencySeconds: number;
}

async function scrapeMetrics(port: number): Promise<MetricsSnapshot | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const hands = promSample(text, 'felt_hands_started_total');
    const actions = promSample(text, 'felt_action_latency_seconds_count');
    const latencySeconds = promSample(text, 'felt_action_latency_seconds_sum');
    if (hands === null || actions === null || latencySeconds === null) return null;
    return { hands, actions, latencySeconds };
  } catch {
    return null;
  }
}

interface LatencyWindow {
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

/** The server's action latency over its last complete window (`/health`), or null. */
async function serverLatency(port: number): Promise<LatencyWindow | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    return ((await response.json()) as { actLatencyMs?: LatencyWindow | null }).actLatencyMs ?? null;
  } catch {
    return null;
  }
}

/**
 * Writes `DIR/tables.json` with a six-seat no-limit hold'em table for each six of `bots`; returns their
 * number. Every table of one kind: the lobby would open them one by one as they fill; listing them up
 * front only saves the set-up time.
 */
export function writeRoomTables(dir: string, bots: number): number {
  const tables = Math.ceil(bots / SEATS);
  writeFileSync(
    join(dir, 'tables.json'),
    JSON.stringify({
      tables: Array.from({ length: tables }, (_, i) => ({
        id: `room-${i + 1}`,
        name: `Room ${i + 1}`,
        game: 'holdem',
        structure: 'no-limit',
        stakes: { small: 100, big: 200 },
        currency: 'play',
        seats: SEATS,
      })),
    }),
  );
  return tables;
}

/** The line of `felt bots --detail`. */
export interface BotsDetailLine {
  readonly hands: number;
  readonly actions: number;
  readonly errors: number;
  readonly latency_ms: { readonly p50: number; readonly p99: number };
  readonly seated: number;
  readonly tables: number;
  readonly seconds: number;
  readonly unanswered: number;
  readonly cut: number;
  readonly reconnects: number;
  readonly errorCodes: Readonly<Record<string, number>>;
  readonly loopDelayMs: { readonly p99: number };
  readonly peakMemoryMb: number;
}

/** One load run: the figures of {@link roomGroup}, on SQLite or on a fresh PostgreSQL database. */
export function runRoom(
  settings: RoomSettings,
  log: (line: string) => void = () => undefined,
): Promise<BenchRow[]> {
  if (settings.db === null) return runRoomOn([], settings, log);
  return withBenchDatabase(settings.db, (url) => runRoomOn(['--db', url], settings, log));
}

/** A load run whose `felt serve` and `felt admin audit` take `storage` (`--db URL`) when given. */
async function runRoomOn(
  storage: readonly string[],
  settings: RoomSettings,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'felt-room-bench-'));
  try {
    const tables = writeRoomTables(dataDir, settings.bots);
    const server = await serve(['--data', dataDir, ...storage]);
    let serverPeak = 0;
    // Every window the server reports (a new one each 10 s); the busiest is the steady play.
    const windows: { busiest: LatencyWindow | null } = { busiest: null };
    const cpu: { from: CpuSnapshot | null; to: CpuSnapshot | null } = { from: null, to: null };
    const scraped: { from: Promise<MetricsSnapshot | null>; to: Promise<MetricsSnapshot | null> } = {
      from: Promise.resolve(null),
      to: Promise.resolve(null),
    };
    const watcher = setInterval(() => {
      void serverLatency(server.metricsPort).then((window) => {
        if (window !== null && window.count > (windows.busiest?.count ?? 0)) windows.busiest = window;
      });
    }, 2_000);
    let run: Awaited<ReturnType<typeof felt>>;
    let metrics: { from: MetricsSnapshot | null; to: MetricsSnapshot | null } = { from: null, to: null };
    try {
      log(
        `room: ${settings.bots} bots at ${tables} tables, ${settings.seconds} s, think ${settings.thinkMs} ms ± ${Math.round(settings.thinkSpread * 100)} %`,
      );
      run = await felt(
        [
          'bots',
          '--url',
          `ws://127.0.0.1:${server.port}`,
          '--bots',
          String(settings.bots),
          '--game',
          'holdem',
          '--structure',
          'nl',
          '--seconds',
          String(settings.seconds),
          '--think-ms',
          String(settings.thinkMs),
          '--think-spread',
          String(settings.thinkSpread),
          '--detail',
        ],
        (child) => {
          child.stderr?.on('data', (chunk: Buffer) => {
            const text = chunk.toString('utf8');
            if (/ seated at \d+ tables /.test(text)) {
              cpu.from = cpuSnapshot(server.child.pid, child.pid);
              scraped.from = scrapeMetrics(server.metricsPort);
            }
            if (/^felt bots: measured /m.test(text)) {
              cpu.to = cpuSnapshot(server.child.pid, child.pid);
              scraped.to = scrapeMetrics(server.metricsPort);
            }
            log(text.trimEnd());
          });
        },
        BOTS_NICE,
      );
    } finally {
      clearInterval(watcher);
      metrics = { from: await scraped.from, to: await scraped.to };
      serverPeak = peakMemoryOf(server.child.pid);
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (run.status !== 0) throw new Error(`felt bots failed (${run.status}): ${run.stderr}`);
    const line = run.stdout.trim().split('\n').pop() ?? '';
    const result = JSON.parse(line) as BotsDetailLine;
    if (result.errors > 0 || result.unanswered > 0)
      log(
        `room: ${result.unanswered} unanswered, errors by request and code ${JSON.stringify(result.errorCodes)}`,
      );
    const audit = await felt(['admin', 'audit', ...(storage.length > 0 ? storage : ['--data', dataDir])]);
    const conserved = (JSON.parse(audit.stdout.trim()) as { conserved: boolean }).conserved;
    const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
    const row = (name: string, unit: string, value: number): BenchRow => ({
      name,
      unit,
      felt: value,
      peers: {},
    });
    const perSecond = (n: number): number => Math.round((n / result.seconds) * 10) / 10;
    const shares = cpu.from === null || cpu.to === null ? null : cpuShares(cpu.from, cpu.to);
    const counted =
      metrics.from === null || metrics.to === null
        ? null
        : {
            hands: metrics.to.hands - metrics.from.hands,
            actions: metrics.to.actions - metrics.from.actions,
            latencySeconds: metrics.to.latencySeconds - metrics.from.latencySeconds,
          };
    return [
      row('room-tables', 'tables', result.tables),
      row('room-bots', 'bots', result.seated),
      row('room-hands', 'hands/s', perSecond(result.hands)),
      row('room-actions', 'actions/s', perSecond(result.actions)),
      row('room-latency-p50', 'ms', result.latency_ms.p50),
      row('room-latency-p99', 'ms', result.latency_ms.p99),
      ...(windows.busiest === null
        ? []
        : [
            row('room-server-latency-p50', 'ms', windows.busiest.p50),
            row('room-server-latency-p99', 'ms', windows.busiest.p99),
          ]),
      ...(counted === null
        ? []
        : [
            row('room-metrics-hands', 'hands/s', perSecond(counted.hands)),
            row('room-metrics-actions', 'actions/s', perSecond(counted.actions)),
            row(
              'room-metrics-latency-mean',
              'ms',
              counted.actions === 0 ? 0 : Math.round((counted.latencySeconds / counted.actions) * 1e5) / 100,
            ),
          ]),
      row('room-bots-loop-delay-p99', 'ms', result.loopDelayMs.p99),
      row('room-server-memory', 'MB', mb(serverPeak)),
      row('room-bots-memory', 'MB', result.peakMemoryMb),
      ...(shares === null
        ? []
        : [
            row('room-server-cpu', '% of a core', shares.server),
            row('room-bots-cpu', '% of a core', shares.bots),
            row('room-others-cpu', '% of a core', shares.others),
          ]),
      row('room-errors', 'errors', result.errors + result.unanswered),
      row('room-conserved', 'yes=1', conserved ? 1 : 0),
      row('room-postgres', 'yes=1', settings.db === null ? 0 : 1),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const roomGroup: BenchGroup = {
  name: 'room',
  async *rows() {
    for (const row of await runRoom(roomSettings(), (line) => process.stderr.write(`${line}\n`))) yield row;
  },
};
