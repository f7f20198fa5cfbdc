/**
 * What a bot run counts: hands finished at the bots' tables, actions accepted and their latency (from
 * sending `act` to the server's ack, which the server sends once the action is durable and
 * announced), and the server's error replies to the bots' requests.
 */

export interface BotsReport {
  /** Hands finished at the bots' tables while measuring (each hand once, however many bots saw it). */
  readonly hands: number;
  /** `act` requests the server accepted while measuring. */
  readonly actions: number;
  /** Error replies of the server to the bots' requests, over the whole run. */
  readonly errors: number;
  /** Send → ack of the accepted actions, milliseconds. */
  readonly latency_ms: { readonly p50: number; readonly p99: number };
}

export class BotStats {
  /** From the moment all bots are seated until the run stops. */
  measuring = false;
  actions = 0;
  errors = 0;
  /** Requests that got no answer (the connection closed, or nothing within the timeout). */
  unanswered = 0;
  /** Of those, the ones lost with a connection that closed (sent on it, or while it was replaced). */
  cut = 0;
  /** Connections that dropped and were opened again, the session resumed. */
  reconnects = 0;
  readonly errorCodes = new Map<string, number>();
  readonly #hands = new Set<string>();
  #latencies = new Float64Array(1024);
  #count = 0;
  #onHand: (() => void) | null = null;

  get hands(): number {
    return this.#hands.size;
  }

  /** Called after every counted hand (the run checks its hand limit). */
  onHand(listener: () => void): void {
    this.#onHand = listener;
  }

  handEnded(tableId: string, handId: number): void {
    if (!this.measuring) return;
    const key = `${tableId}#${handId}`;
    if (this.#hands.has(key)) return;
    this.#hands.add(key);
    this.#onHand?.();
  }

  acted(ms: number): void {
    if (!this.measuring) return;
    this.actions++;
    if (this.#count === this.#latencies.length) {
      const grown = new Float64Array(this.#latencies.length * 2);
      grown.set(this.#latencies);
      this.#latencies = grown;
    }
    this.#latencies[this.#count++] = ms;
  }

  /** A request that was not accepted: a server error reply counts as an error; no answer at all does not. */
  refused(op: string, code: string): void {
    if (code === 'CLOSED' || code === 'TIMEOUT') {
      this.unanswered++;
      if (code === 'CLOSED') this.cut++;
      return;
    }
    this.errors++;
    const key = `${op}:${code}`;
    this.errorCodes.set(key, (this.errorCodes.get(key) ?? 0) + 1);
  }

  reconnected(): void {
    this.reconnects++;
  }

  /** Latency percentile `q` (0–1) of the accepted actions, ms, 0 without any. */
  percentile(q: number): number {
    if (this.#count === 0) return 0;
    const sorted = this.#latencies.slice(0, this.#count).sort();
    const at = Math.min(this.#count - 1, Math.max(0, Math.ceil(q * this.#count) - 1));
    return sorted[at]!;
  }

  report(): BotsReport {
    const round = (ms: number): number => Math.round(ms * 100) / 100;
    return {
      hands: this.hands,
      actions: this.actions,
      errors: this.errors,
      latency_ms: { p50: round(this.percentile(0.5)), p99: round(this.percentile(0.99)) },
    };
  }
}
