/**
 * A client of the Felt protocol over a real WebSocket (./websocket.ts): it connects (retrying while the server
 * starts), sends requests with fresh ids and matches each answer to its request, and hands every pushed
 * message to a listener. It speaks only the wire protocol of docs/protocol.md — nothing of the server's
 * internals — so that `felt bots` and the integration tests exercise the room exactly as any client does.
 */
import type { AckData, ClientOp, ErrorCode, ServerMessage } from '@felt/protocol';
import { WaitingCalls } from '../waiting-calls.js';
import { WebSocketClient, type SkipTest } from './websocket.js';

/** The answer to a request: its ack data, or the server's typed refusal. */
export type Answer<O extends ClientOp = ClientOp> =
  | { readonly ok: true; readonly data: AckData[O]; readonly ms: number }
  | {
      readonly ok: false;
      readonly code: ErrorCode | 'CLOSED' | 'TIMEOUT';
      readonly message: string;
      readonly ms: number;
    };

/** A message the server pushed (not an answer to a request). */
export type Push = Exclude<ServerMessage, { op: 'ack' } | { op: 'error' }>;

export interface ConnectOptions {
  /** Keep retrying a refused or failed connection until this much time has passed (ms); default 30,000. */
  readonly retryForMs?: number;
  /** Pause between attempts (ms), doubled up to 1 s; default 100. */
  readonly retryDelayMs?: number;
  /** Gives up early when aborted. */
  readonly signal?: AbortSignal;
  /** Messages the client has no use for, dropped unread (see `WebSocketClientOptions.skip`). */
  readonly skip?: SkipTest;
}

interface Pending {
  readonly id: number;
  readonly op: ClientOp;
  readonly sentAt: number;
  readonly resolve: (answer: Answer) => void;
  timer: NodeJS.Timeout | null;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export class ProtocolClient {
  readonly #url: string;
  readonly #ws: WebSocketClient;
  readonly #pending = new WaitingCalls<Pending>(4);
  readonly #listeners = new Set<(message: Push) => void>();
  readonly #closeListeners = new Set<() => void>();
  #nextId = 1;
  #closed = false;

  private constructor(url: string, ws: WebSocketClient) {
    this.#url = url;
    this.#ws = ws;
    ws.onMessage((text) => {
      this.#receive(text);
    });
    ws.onClose(() => {
      this.#onClose();
    });
  }

  /**
   * Connects to `url` (`ws://HOST:PORT`), retrying while the server is not up yet. Given several
   * addresses (processes of one room), it tries them in turn from the first, each failure moving on
   * to the next, and pauses between rounds.
   */
  static async connect(
    url: string | readonly string[],
    options: ConnectOptions = {},
  ): Promise<ProtocolClient> {
    const urls = typeof url === 'string' ? [url] : url;
    if (urls.length === 0) throw new RangeError('no address to connect to');
    const retryFor = options.retryForMs ?? 30_000;
    const until = Date.now() + retryFor;
    let delay = options.retryDelayMs ?? 100;
    for (let attempt = 0; ; attempt++) {
      const address = urls[attempt % urls.length]!;
      try {
        return new ProtocolClient(
          address,
          await WebSocketClient.open(address, options.skip === undefined ? {} : { skip: options.skip }),
        );
      } catch (error) {
        if ((attempt + 1) % urls.length !== 0) continue;
        if (options.signal?.aborted === true || Date.now() + delay > until) throw error;
        await sleep(delay);
        delay = Math.min(1000, delay * 2);
      }
    }
  }

  /** The address it is connected to. */
  get url(): string {
    return this.#url;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Every pushed message (table snapshots and events, clocks, legal actions, summaries…). */
  onPush(listener: (message: Push) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called once when the socket closes (by either side). */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /**
   * Sends a request and resolves with its answer and the time it took (send → answer, ms). Never
   * rejects: a closed socket answers `CLOSED`, no answer within `timeoutMs` (default none) `TIMEOUT`.
   */
  request<O extends ClientOp>(
    op: O,
    fields: Readonly<Record<string, unknown>> = {},
    timeoutMs?: number,
  ): Promise<Answer<O>> {
    const sentAt = performance.now();
    if (this.#closed) return Promise.resolve({ ok: false, code: 'CLOSED', message: 'socket closed', ms: 0 });
    const id = this.#nextId++;
    return new Promise<Answer<O>>((resolve) => {
      const pending: Pending = { id, op, sentAt, resolve: resolve as (answer: Answer) => void, timer: null };
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.#pending.take(id);
          resolve({
            ok: false,
            code: 'TIMEOUT',
            message: `no answer to ${op} in ${timeoutMs} ms`,
            ms: timeoutMs,
          });
        }, timeoutMs);
      }
      this.#pending.add(pending);
      this.#ws.send(JSON.stringify({ ...fields, op, id }));
    });
  }

  /** Like {@link request}, but throws on a refusal (for tests and set-up steps that must work). */
  async ok<O extends ClientOp>(op: O, fields: Readonly<Record<string, unknown>> = {}): Promise<AckData[O]> {
    const answer = await this.request(op, fields, 15_000);
    if (!answer.ok) throw new Error(`${op} refused: ${answer.code} ${answer.message}`);
    return answer.data;
  }

  /** Waits for the first pushed message (from now on) that passes `test`. */
  next<M extends Push>(test: (message: Push) => message is M, timeoutMs?: number): Promise<M>;
  next(test: (message: Push) => boolean, timeoutMs?: number): Promise<Push>;
  next(test: (message: Push) => boolean, timeoutMs = 10_000): Promise<Push> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`no matching message in ${timeoutMs} ms`));
      }, timeoutMs);
      const stop = this.onPush((message) => {
        if (!test(message)) return;
        clearTimeout(timer);
        stop();
        resolve(message);
      });
    });
  }

  /** Sends a raw text frame (tests). */
  sendRaw(text: string): void {
    if (!this.#closed) this.#ws.send(text);
  }

  /** Closes the socket; pending requests answer `CLOSED`. */
  close(): void {
    if (this.#closed) return;
    this.#ws.close(1000, 'bye');
    // A server that does not answer the close handshake must not keep us waiting.
    setTimeout(() => {
      this.#ws.terminate();
    }, 2000).unref();
  }

  /** Drops the connection at once, without a close handshake (a player pulling the cable). */
  terminate(): void {
    this.#ws.terminate();
  }

  #receive(text: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      return;
    }
    if (message.op === 'ack' || message.op === 'error') {
      const id = message.id;
      const pending = id === null ? undefined : this.#pending.take(id);
      if (pending === undefined) return;
      if (pending.timer !== null) clearTimeout(pending.timer);
      const ms = performance.now() - pending.sentAt;
      pending.resolve(
        message.op === 'ack'
          ? { ok: true, data: message.data, ms }
          : { ok: false, code: message.code, message: message.message, ms },
      );
      return;
    }
    for (const listener of [...this.#listeners]) listener(message);
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of this.#pending.takeAll()) {
      if (pending.timer !== null) clearTimeout(pending.timer);
      pending.resolve({
        ok: false,
        code: 'CLOSED',
        message: 'socket closed',
        ms: performance.now() - pending.sentAt,
      });
    }
    for (const listener of [...this.#closeListeners]) listener();
    this.#closeListeners.clear();
  }
}
