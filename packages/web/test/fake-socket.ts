import type { SocketLike } from '../src/net/connection';

/** An in-memory socket: the test opens it, reads what the client sent and pushes server frames. */
export class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { readonly data: unknown }) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({});
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  /** Answers the last request with op `op` with an ack carrying `data`. */
  ack(op: string, data: unknown = {}): void {
    const request = [...this.sent].reverse().find((frame) => frame['op'] === op);
    if (request === undefined)
      throw new Error(`no ${op} request sent; sent: ${this.sent.map((f) => String(f['op'])).join(', ')}`);
    this.receive({ op: 'ack', id: request['id'], for: op, data });
  }

  refuse(op: string, code: string, message: string): void {
    const request = [...this.sent].reverse().find((frame) => frame['op'] === op);
    if (request === undefined) throw new Error(`no ${op} request sent`);
    this.receive({ op: 'error', id: request['id'], code, message });
  }
}

export class FakeNetwork {
  readonly sockets: FakeSocket[] = [];
  readonly factory = (url: string): FakeSocket => {
    const socket = new FakeSocket(url);
    this.sockets.push(socket);
    return socket;
  };
  get last(): FakeSocket {
    const socket = this.sockets.at(-1);
    if (socket === undefined) throw new Error('no socket yet');
    return socket;
  }
}

export const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
