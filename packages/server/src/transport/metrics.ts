/**
 * `GET /metrics` for Prometheus (prom-client, text format 0.0.4), one registry per server so that two
 * rooms in one process (tests) never mix: the room's own figures — tables, players online, hands
 * started, the server's action latency, errors — and prom-client's default Node.js figures, among them
 * the event loop's delay (`nodejs_eventloop_lag_*`). `/health` keeps its windowed p50/p99 for people;
 * these are counters and a histogram, for rates and quantiles over any window Prometheus is asked for.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface RoomGauges {
  readonly tables: () => number;
  /** Accounts with at least one logged-in connection. */
  readonly playersOnline: () => number;
  readonly connections: () => number;
}

/** Where an error was met: a table stopped by one, or a request that failed unexpectedly. */
export type ErrorSource = 'table' | 'request' | 'house-bots' | 'lobby';

export class RoomMetrics {
  readonly registry = new Registry();
  readonly #hands: Counter;
  readonly #latency: Histogram;
  readonly #errors: Counter<'source'>;
  // The counters' totals as plain numbers too, for the console's live view (prom-client's read is async).
  #handsStarted = 0;
  #errorCount = 0;

  constructor(gauges: RoomGauges) {
    const registers = [this.registry];
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('felt_tables', 'Tables open in the room.', gauges.tables);
    gauge('felt_players_online', 'Accounts with a logged-in connection.', gauges.playersOnline);
    gauge('felt_connections', 'WebSocket connections open.', gauges.connections);
    this.#hands = new Counter({ name: 'felt_hands_started_total', help: 'Hands dealt.', registers });
    this.#latency = new Histogram({
      name: 'felt_action_latency_seconds',
      help: "The server's share of an action's latency: from the act frame's arrival to its ack.",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.#errors = new Counter({
      name: 'felt_errors_total',
      help: 'Unexpected errors, by where they were met.',
      labelNames: ['source'],
      registers,
    });
    for (const source of ['table', 'request', 'house-bots', 'lobby'] satisfies ErrorSource[]) {
      this.#errors.inc({ source }, 0);
    }
    collectDefaultMetrics({ register: this.registry });
  }

  handStarted(): void {
    this.#hands.inc();
    this.#handsStarted++;
  }

  /** `felt_hands_started_total`. */
  get handsStarted(): number {
    return this.#handsStarted;
  }

  /** `felt_errors_total`, every source. */
  get errorCount(): number {
    return this.#errorCount;
  }

  actionLatency(seconds: number): void {
    this.#latency.observe(seconds);
  }

  error(source: ErrorSource): void {
    this.#errors.inc({ source });
    this.#errorCount++;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
