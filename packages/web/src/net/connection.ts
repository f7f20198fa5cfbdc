/**
 * One WebSocket to the room, kept open: requests carry an id and are answered by `ack` or `error`;
 * everything else is pushed. When the socket drops, the connection retries with backoff (0.25 s doubling
 * to 5 s) and calls `onReopen` so the app can resume its session and re-open its tables; the status it
 * reports drives the "reconnecting" notice. Given several addresses of the room (its processes,
 * docs/deploy.md), a dropped socket is retried where it was, and each attempt that fails moves on to
 * the next address: a process that died is left for a live one.
 */

/** The part of the browser's WebSocket the connection uses: tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A refused request: the server's error code and message. */
export class RequestError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
  }
}

export interface ConnectionOptions {
  /** The room's addresses, tried in turn (at least one). */
  readonly urls: readonly string[];
  readonly socket?: SocketFactory;
  /** Every pushed message (not the acks and errors of requests). */
  readonly onPush: (message: Record<string, unknown>) => void;
  readonly onStatus: (status: ConnectionStatus) => void;
  /**
   * Called after each successful (re)open; queued requests wait until the promise it returns settles
   * (the session is resumed before anything else is sent).
   */
  readonly onOpen?: (reopened: boolean) => Promise<unknown> | undefined;
  /** Milliseconds before a request without an answer fails. */
  readonly timeoutMs?: number;
  readonly setTimer?: (fn: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
}

interface Pending {
  readonly resolve: (value: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
  readonly timer: unknown;
}

const OPEN = 1;

export class Connection {
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: { readonly id: number; readonly frame: string }[] = [];
  private attempts = 0;
  private address = 0;
  private everOpened = false;
  private stopped = false;
  private retryTimer: unknown = null;
  private statusValue: ConnectionStatus = 'connecting';
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: ConnectionOptions) {
    if (options.urls.length === 0) throw new RangeError('a connection needs an address');
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ??
      ((handle) => {
        clearTimeout(handle as ReturnType<typeof setTimeout>);
      });
    this.open();
  }

  get status(): ConnectionStatus {
    return this.statusValue;
  }

  /** Sends a request; resolves with the `ack` message, rejects with a `RequestError`. */
  request(op: string, payload: Readonly<Record<string, unknown>> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const frame = JSON.stringify({ ...payload, op, id });
    return new Promise((resolve, reject) => {
      const timer = this.setTimer(() => {
        this.pending.delete(id);
        reject(new RequestError('TIMEOUT', `no answer to ${op}`));
      }, this.options.timeoutMs ?? 15_000);
      this.pending.set(id, { resolve, reject, timer });
      if (this.socket !== null && this.socket.readyState === OPEN && this.statusValue === 'open') {
        this.socket.send(frame);
      } else {
        this.queue.push({ id, frame });
      }
    });
  }

  /** Sends a request that must go out before anything queued (the session resume after a reconnect). */
  requestFirst(
    op: string,
    payload: Readonly<Record<string, unknown>> = {},
  ): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const frame = JSON.stringify({ ...payload, op, id });
    return new Promise((resolve, reject) => {
      const timer = this.setTimer(() => {
        this.pending.delete(id);
        reject(new RequestError('TIMEOUT', `no answer to ${op}`));
      }, this.options.timeoutMs ?? 15_000);
      this.pending.set(id, { resolve, reject, timer });
      if (this.socket !== null && this.socket.readyState === OPEN) this.socket.send(frame);
      else this.queue.unshift({ id, frame });
    });
  }

  /** Closes for good (no reconnect). */
  close(): void {
    this.stopped = true;
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    this.socket?.close(1000, 'bye');
    this.setStatus('closed');
  }

  /**
   * A fresh socket at once (after signing in: its upgrade carries the new session cookie). Requests in
   * flight on the old one fail; queued ones go out on the new one after `onOpen`.
   */
  reopen(): void {
    const old = this.socket;
    this.socket = null;
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    this.failPending();
    old?.close(1000, 'reopened');
    if (!this.stopped) this.open();
  }

  /** Test hook and "retry now" button: drop the socket as if the network did. */
  drop(): void {
    this.socket?.close(4000, 'dropped');
  }

  private open(): void {
    const factory: SocketFactory =
      this.options.socket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    const socket = factory(this.options.urls[this.address]!);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      opened = true;
      const reopened = this.everOpened;
      this.everOpened = true;
      this.attempts = 0;
      this.setStatus('open');
      const ready = this.options.onOpen?.(reopened);
      if (ready === undefined) this.flush();
      else {
        void ready.finally(() => {
          if (socket === this.socket) this.flush();
        });
      }
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket || typeof event.data !== 'string') return;
      this.receive(event.data);
    };
    socket.onerror = () => {
      /* onclose follows */
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.failPending();
      if (this.stopped) return;
      if (!opened) this.address = (this.address + 1) % this.options.urls.length;
      this.setStatus(this.everOpened ? 'reconnecting' : 'connecting');
      const delay = Math.min(5000, 250 * 2 ** this.attempts);
      this.attempts++;
      this.retryTimer = this.setTimer(() => {
        this.retryTimer = null;
        if (!this.stopped) this.open();
      }, delay);
    };
  }

  /** Requests in flight on a socket that closed will never be answered: they fail at once. */
  private failPending(): void {
    for (const [id, pending] of this.pending) {
      if (this.queue.some((queued) => queued.id === id)) continue;
      this.pending.delete(id);
      this.clearTimer(pending.timer);
      pending.reject(new RequestError('DISCONNECTED', 'the connection dropped'));
    }
  }

  private flush(): void {
    const socket = this.socket;
    if (socket === null) return;
    while (this.queue.length > 0 && socket.readyState === OPEN) socket.send(this.queue.shift()!.frame);
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const record = message as Record<string, unknown>;
    const id = record['id'];
    if ((record['op'] === 'ack' || record['op'] === 'error') && typeof id === 'number') {
      const pending = this.pending.get(id);
      if (pending !== undefined) {
        this.pending.delete(id);
        this.clearTimer(pending.timer);
        if (record['op'] === 'ack') pending.resolve(record);
        else {
          const code = typeof record['code'] === 'string' ? record['code'] : 'ERROR';
          const text = typeof record['message'] === 'string' ? record['message'] : code;
          pending.reject(new RequestError(code, text));
        }
        return;
      }
    }
    this.options.onPush(record);
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.statusValue) return;
    this.statusValue = status;
    this.options.onStatus(status);
  }
}
