/**
 * Helpers for the integration and crash tests: the real `felt serve` as a child process on a real
 * SQLite file, `felt bots` and `felt admin` as child processes, and players as real WebSocket clients
 * of the protocol (the bots' {@link ProtocolClient}).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventView, LegalView, TableView } from '@felt/protocol';
import { ProtocolClient, type Push } from '../src/bots/client.js';
import type { TableConfig } from '../src/table/types.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';

/** The built `felt` command, as `npx felt` runs it. */
export const FELT = fileURLToPath(new URL('../../cli/bin/felt.js', import.meta.url));

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function writeTables(
  dir: string,
  tables: readonly TableConfig[],
  tournaments: readonly TournamentEntry[] = [],
): string {
  const file = join(dir, 'tables.json');
  writeFileSync(file, JSON.stringify(tournaments.length > 0 ? { tables, tournaments } : { tables }));
  return file;
}

export { freePort } from '../src/cluster-launcher/processes.js';

export interface FeltRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The last line of standard output, parsed. */
  readonly json: unknown;
}

/** Runs `felt ARGS` in a child process (the event loop stays free for the test's own clients). */
export function felt(
  args: readonly string[],
  onStart?: (child: ChildProcess) => void,
  env: Readonly<Record<string, string>> = {},
): Promise<FeltRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FELT, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      let json: unknown = null;
      try {
        json = JSON.parse(last);
      } catch {
        // not JSON
      }
      resolve({ status, stdout, stderr, json });
    });
    onStart?.(child);
  });
}

export interface AuditOutput {
  readonly conserved: boolean;
  readonly currencies: Readonly<
    Record<
      'play' | 'real',
      { accounts: number; seats: number; pots: number; house: number; external: number; sum: number }
    >
  >;
  readonly handsInProgress: number;
  readonly problems: readonly unknown[];
}

export async function audit(dataDir: string): Promise<AuditOutput> {
  const run = await felt(['admin', 'audit', '--data', dataDir]);
  if (run.json === null) throw new Error(`felt admin audit: ${run.stdout} ${run.stderr}`);
  return run.json as AuditOutput;
}

/** One line of `felt serve`'s log (docs/operators.md). */
export interface LogLine {
  readonly level: string;
  readonly time: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/**
 * The complete lines of `felt serve`'s standard output, each parsed: a line that is not one JSON object
 * with a level, a time and a msg throws (and fails the test that reads it).
 */
export function logLines(output: string): LogLine[] {
  const lines = output.split('\n');
  lines.pop(); // the line still being written, or the empty string after the last newline
  return lines.map((line) => {
    const parsed = JSON.parse(line) as Partial<LogLine>;
    if (
      typeof parsed.level !== 'string' ||
      typeof parsed.time !== 'string' ||
      typeof parsed.msg !== 'string'
    ) {
      throw new Error(`not a log line: ${line}`);
    }
    return parsed as LogLine;
  });
}

/** The port in a `listening` line of the log, once there is one. */
export function listeningPort(output: string, field: 'port' | 'metricsPort' = 'port'): number | null {
  const line = logLines(output).find((entry) => entry.msg === 'listening');
  const port = line?.[field];
  return typeof port === 'number' ? port : null;
}

/** `felt serve` as a child process. */
export class FeltServer {
  readonly child: ChildProcess;
  readonly port: number;
  /** The operators' port: `/metrics` and the full `/health` (`--metrics-port 0`). */
  readonly metricsPort: number;
  readonly exited: Promise<number | null>;
  /** Its standard output so far: its log. */
  stdout = '';

  private constructor(
    child: ChildProcess,
    port: number,
    metricsPort: number,
    exited: Promise<number | null>,
  ) {
    this.child = child;
    this.port = port;
    this.metricsPort = metricsPort;
    this.exited = exited;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** `http://…` of the operators' port. */
  get operator(): string {
    return `http://127.0.0.1:${this.metricsPort}`;
  }

  /** The log so far, parsed. */
  get logs(): LogLine[] {
    return logLines(this.stdout);
  }

  /** Starts `felt serve --port PORT --data DIR [ARGS]`; resolves once it listens. */
  static start(dataDir: string, port: number, args: readonly string[] = []): Promise<FeltServer> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [FELT, 'serve', '--port', String(port), '--data', dataDir, '--metrics-port', '0', ...args],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const exited = new Promise<number | null>((done) => child.on('close', done));
      let text = '';
      let errors = '';
      let server: FeltServer | null = null;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`felt serve did not start: ${text}${errors}`));
      }, 60_000);
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (server) server.stdout = text;
        const listening = listeningPort(text);
        if (listening !== null && server === null) {
          clearTimeout(timer);
          server = new FeltServer(child, listening, listeningPort(text, 'metricsPort') ?? 0, exited);
          server.stdout = text;
          resolve(server);
        }
      });
      child.on('error', reject);
      void exited.then((code) => {
        clearTimeout(timer);
        if (server === null) reject(new Error(`felt serve exited (${code}): ${text}${errors}`));
      });
    });
  }

  /** SIGTERM and wait: everything durable, every chip back to its owner. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** SIGKILL: a crash. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

type TableEventPush = Extract<Push, { op: 'table-event' }>;

/** A person at the room: a real WebSocket client, with what he has seen of one table. */
export class Player {
  client: ProtocolClient;
  readonly name: string;
  token = '';
  id = 0;
  tableId = '';
  view: TableView | null = null;
  readonly events: TableEventPush[] = [];
  /** Answers every decision at once with check or call (else he lets his clock run). */
  autoplay = true;
  legal: { handId: number; legal: LegalView } | null = null;

  private constructor(client: ProtocolClient, name: string) {
    this.client = client;
    this.name = name;
    this.listen();
  }

  static async signUp(url: string, name: string): Promise<Player> {
    const player = new Player(await ProtocolClient.connect(url), name);
    const data = await player.client.ok('signup', { name, password: 'correct horse battery' });
    player.token = data.token;
    player.id = data.account.id;
    return player;
  }

  private listen(): void {
    this.client.onPush((message) => {
      if (!('tableId' in message) || message.tableId !== this.tableId) return;
      if (message.op === 'table-snapshot') this.view = message.view;
      else if (message.op === 'table-event') this.events.push(message);
      else if (message.op === 'legal-actions' && message.legal.seat === this.view?.you) {
        this.legal = { handId: message.handId, legal: message.legal };
        if (this.autoplay) {
          const action = message.legal.check
            ? { type: 'check' }
            : message.legal.call !== null
              ? { type: 'call' }
              : message.legal.bringIn !== null
                ? { type: 'bring-in' }
                : message.legal.discard !== null
                  ? { type: 'stand-pat' }
                  : { type: 'fold' };
          void this.client.request('act', { tableId: this.tableId, handId: message.handId, action });
        }
      }
    });
  }

  async sit(
    tableId: string,
    seat: number,
    buyIn: number,
    post: 'post' | 'wait' = 'wait',
    autoPost = true,
  ): Promise<void> {
    this.tableId = tableId;
    await this.client.ok('seat-take', { tableId, seat, buyIn, post, autoPost });
  }

  /** Drops the connection without a goodbye. */
  disconnect(): void {
    this.client.terminate();
  }

  /** A new connection with the session token (`resume`); returns the ack's tables. */
  async reconnect(url: string): Promise<readonly string[]> {
    this.client = await ProtocolClient.connect(url);
    this.listen();
    const data = await this.client.ok('resume', { token: this.token });
    return data.tables;
  }

  /** Waits until `test` holds for an event he received (from `from` on). */
  async event(
    test: (event: EventView, push: TableEventPush) => boolean,
    timeoutMs = 15_000,
    from = 0,
  ): Promise<TableEventPush> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find((push) => test(push.event, push));
      if (found) return found;
      if (Date.now() > until) throw new Error(`${this.name}: no such event in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Waits until his view of the table passes `test`. */
  async until(test: (view: TableView) => boolean, timeoutMs = 15_000): Promise<TableView> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (this.view !== null && test(this.view)) return this.view;
      if (Date.now() > until) throw new Error(`${this.name}: the view never matched in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.client.close();
  }
}

/** Hands (ids) in which `seat` was dealt cards, in order, from a player's events. */
export function handsDealt(events: readonly TableEventPush[], seat: number): number[] {
  const hands: number[] = [];
  for (const push of events)
    if (push.event.type === 'deal-hole' && push.event.seat === seat && !hands.includes(push.handId))
      hands.push(push.handId);
  return hands;
}
