/**
 * A run of `felt bots`: N bots sign up (connections retried while the server starts), sit down at
 * tables of one kind and play until H hands have finished or S seconds have passed — both counted from
 * the moment every bot is seated (or has given up looking) — then leave their seats and disconnect.
 * With a tournament, they register for it instead and play wherever the room seats them, until it is
 * over (or H hands, S seconds).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RoomGame, StructureName } from '@felt/protocol';
import { figuresOf, LOOP_DELAY_BASE_NS, LOOP_SAMPLE_MS, type WindowFigures } from '../transport/figures.js';
import { Bot } from './bot.js';
import { NoTableError, Seater } from './seater.js';
import { BotStats, type BotsReport } from './stats.js';
import type { Roll } from './strategy.js';

export interface BotsOptions {
  /**
   * `ws://HOST:PORT`, or the addresses of a room's processes: the bots are spread over them in turn,
   * and a bot whose connection drops reconnects to the next one.
   */
  readonly url: string | readonly string[];
  readonly bots: number;
  /** Default holdem. */
  readonly game?: RoomGame;
  /** Default: no-limit when the game has such a play-money table, else its first structure. */
  readonly structure?: StructureName;
  /** Stop after this many hands (counted once all are seated). */
  readonly hands?: number;
  /** Stop after this many seconds (counted once all are seated). */
  readonly seconds?: number;
  /** Pause before each action, ms, on average (default 500). */
  readonly thinkMs?: number;
  /** Each pause is thinkMs ± this fraction of it, uniformly (0–1, default 0.5; 0: always thinkMs). */
  readonly thinkSpread?: number;
  /** Keep retrying connections this long (ms, default 60,000). */
  readonly connectForMs?: number;
  /** Bots setting up (connect, sign up, sit down) at once; default 32. */
  readonly concurrency?: number;
  /** Account names are PREFIX-1 … PREFIX-N; default a random prefix. */
  readonly prefix?: string;
  /** A tournament's id: the bots register for it and play it through (`game`, `structure` unused). */
  readonly tournament?: string;
  /** Stops the run early (SIGINT); the report covers what was done. */
  readonly signal?: AbortSignal;
  readonly roll?: Roll;
  /** Progress lines (stderr in the command). */
  readonly log?: (line: string) => void;
}

/** The report plus what the bench and the curious want to know. */
export interface BotsDetail extends BotsReport {
  readonly bots: number;
  readonly seated: number;
  readonly tables: number;
  /** Seconds from the start to all seated. */
  readonly setupSeconds: number;
  /** Seconds measured (all seated → stop). */
  readonly seconds: number;
  /** Requests that got no answer (connection lost, timeout). */
  readonly unanswered: number;
  /** Of those, the ones lost with a connection that dropped. */
  readonly cut: number;
  /** Connections that dropped and were opened again (on the next address), the session resumed. */
  readonly reconnects: number;
  readonly errorCodes: Readonly<Record<string, number>>;
  /**
   * This process's event-loop delay while measuring (ms): what it adds to the latencies it measures —
   * an ack that arrives while the bots are busy waits for them.
   */
  readonly loopDelayMs: WindowFigures;
  /** This process's peak resident memory (MB). */
  readonly peakMemoryMb: number;
}

const randomPrefix = (): string => `b${Math.random().toString(36).slice(2, 8)}`;

export async function runBots(options: BotsOptions): Promise<BotsDetail> {
  const log = options.log ?? (() => undefined);
  const thinkSpread = options.thinkSpread ?? 0.5;
  if (!(thinkSpread >= 0 && thinkSpread <= 1))
    throw new RangeError(`thinkSpread ${thinkSpread} is not in [0, 1]`);
  const started = performance.now();
  const stats = new BotStats();
  const seater = new Seater({ game: options.game ?? 'holdem', structure: options.structure ?? null });
  const stop = new AbortController();
  const outer = options.signal;
  const onOuterAbort = (): void => {
    stop.abort();
  };
  outer?.addEventListener('abort', onOuterAbort);
  const prefix = options.prefix ?? randomPrefix();
  const urls = typeof options.url === 'string' ? [options.url] : options.url;
  if (urls.length === 0) throw new RangeError('no address to connect to');
  const context = {
    urls,
    thinkMs: options.thinkMs ?? 500,
    thinkSpread,
    roll: options.roll ?? Math.random,
    stats,
    seater,
    connectForMs: options.connectForMs ?? 60_000,
    signal: stop.signal,
    ...(options.tournament !== undefined ? { tournament: options.tournament } : {}),
  };
  const bots = Array.from(
    { length: options.bots },
    (_, i) => new Bot(`${prefix}-${i + 1}`, `bot-password-${prefix}`, context, i),
  );
  try {
    // Set-up, a few bots at a time: the server hashes every password (scrypt), and a storm of
    // sockets would only queue up in its backlog.
    let next = 0;
    let seated = 0;
    let failed = 0;
    const fatal: { error: Error | null } = { error: null };
    const worker = async (): Promise<void> => {
      while (next < bots.length && fatal.error === null && !stop.signal.aborted) {
        const bot = bots[next++]!;
        try {
          if (await bot.start()) {
            seated++;
            if (seated % 500 === 0) log(`felt bots: ${seated} seated`);
          } else failed++;
        } catch (error) {
          const reason = error instanceof Error ? error : new Error('bot set-up failed', { cause: error });
          // No table of the kind: nobody can sit. Anything else costs one bot, not the run.
          if (error instanceof NoTableError) fatal.error = reason;
          else if (failed++ < 5) log(`felt bots: ${bot.name} gave up: ${reason.message}`);
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 32, bots.length)) }, worker),
    );
    if (fatal.error !== null) throw fatal.error;
    if (seated === 0) throw new Error(`no bot could sit down (${failed} gave up)`);
    const setupSeconds = (performance.now() - started) / 1000;
    log(
      options.tournament !== undefined
        ? `felt bots: ${seated} of ${bots.length} registered for ${options.tournament} in ${setupSeconds.toFixed(1)} s`
        : `felt bots: ${seated} of ${bots.length} seated at ${seater.tableCount} tables in ${setupSeconds.toFixed(1)} s`,
    );

    // Measure until H hands or S seconds.
    const measureFrom = performance.now();
    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    loopDelay.enable();
    stats.measuring = true;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        if (timer !== null) clearTimeout(timer);
        stop.signal.removeEventListener('abort', done);
        resolve();
      };
      let timer: NodeJS.Timeout | null = null;
      if (options.seconds !== undefined) timer = setTimeout(done, options.seconds * 1000);
      if (options.hands !== undefined) {
        const limit = options.hands;
        stats.onHand(() => {
          if (stats.hands >= limit) done();
        });
        if (limit <= 0) done();
      }
      if (options.tournament !== undefined) {
        const registered = bots.filter((bot) => bot.registered);
        void Promise.all(registered.map((bot) => bot.finished)).then(done);
      }
      if (stop.signal.aborted) done();
      else stop.signal.addEventListener('abort', done);
    });
    stats.measuring = false;
    loopDelay.disable();
    const seconds = (performance.now() - measureFrom) / 1000;
    log(`felt bots: measured ${seconds.toFixed(1)} s`);
    seater.stopped = true;
    stop.abort();
    const tables = seater.tableCount;
    await Promise.all(bots.map((bot) => bot.stop()));
    return {
      ...stats.report(),
      bots: bots.length,
      seated: bots.filter((bot) => bot.seated).length,
      tables,
      setupSeconds: Math.round(setupSeconds * 100) / 100,
      seconds: Math.round(seconds * 100) / 100,
      unanswered: stats.unanswered,
      cut: stats.cut,
      reconnects: stats.reconnects,
      errorCodes: Object.fromEntries(stats.errorCodes),
      loopDelayMs: figuresOf(loopDelay, LOOP_DELAY_BASE_NS),
      peakMemoryMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    seater.stopped = true;
    stop.abort();
    outer?.removeEventListener('abort', onOuterAbort);
    for (const bot of bots) bot.client?.terminate();
  }
}
