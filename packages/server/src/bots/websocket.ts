/**
 * The client side of a WebSocket (RFC 6455), made for `felt bots`: thousands of sockets in one process
 * that each read a few small text messages a second. Reads land in one buffer shared by every socket
 * (`net`'s `onread`), so a read allocates nothing and skips the stream machinery that `ws` goes
 * through; only a frame split across reads is copied. It speaks what a browser speaks: the opening
 * handshake (checked), masked text frames out, text frames in (fragmented or not), pings answered,
 * the close handshake. Binary messages are read and dropped (the protocol has none).
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { connect, type Socket } from 'node:net';
import { headerLength, writeHeader } from '../transport/frame.js';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const Opcode = { Continuation: 0x0, Text: 0x1, Binary: 0x2, Close: 0x8, Ping: 0x9, Pong: 0xa } as const;
/** A larger message is refused (close code 1009): the room's largest is a few kilobytes. */
const MAX_MESSAGE = 16 * 1024 * 1024;
/** Where every socket's reads land (one event loop: a read is handled before the next one). */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** Mask keys, four bytes a frame, drawn from a pool of random bytes refilled when used up. */
const MASKS = Buffer.allocUnsafe(4096);
let nextMask = MASKS.length;

function maskKey(frame: Buffer, at: number): void {
  if (nextMask === MASKS.length) {
    randomFillSync(MASKS);
    nextMask = 0;
  }
  MASKS.copy(frame, at, nextMask, nextMask + 4);
  nextMask += 4;
}

/** A refusal of the peer's bytes: the connection fails with this close code. */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface WebSocketClientOptions {
  /** The opening handshake must finish within this (ms); default 10,000. */
  readonly handshakeTimeoutMs?: number;
  /** Messages for which this is true are dropped as they are, never decoded nor delivered. */
  readonly skip?: SkipTest;
}

/**
 * Whether to drop the message `data[start, end)` unread. It is given where the message lies in the
 * read rather than a view of it: most of the bots' messages are dropped, and a view for each was a
 * fresh object on their heap.
 */
export type SkipTest = (data: Buffer, start: number, end: number) => boolean;

const NOTHING_SKIPPED = (): boolean => false;

export class WebSocketClient {
  readonly #socket: Socket;
  #onMessage: (text: string) => void = () => undefined;
  #onClose: () => void = () => undefined;
  /** Bytes of an incomplete frame (or handshake answer) waiting for the next read. */
  #pending: Buffer | null = null;
  /** Handshake, then open until a close frame comes or the connection fails; done reads nothing more. */
  #state: 'handshake' | 'open' | 'done' = 'handshake';
  #closeSent = false;
  #closed = false;
  /** The parts of a fragmented message so far, and whether it is text. */
  #fragments: Buffer[] = [];
  #fragmentsLength = 0;
  #fragmentedText = false;
  #inMessage = false;

  readonly #skip: SkipTest;

  private constructor(socket: Socket, skip: SkipTest) {
    this.#socket = socket;
    this.#skip = skip;
  }

  /** Connects to `url` (`ws://host:port/path`) and completes the opening handshake. */
  static open(url: string, options: WebSocketClientOptions = {}): Promise<WebSocketClient> {
    const target = new URL(url);
    if (target.protocol !== 'ws:') return Promise.reject(new Error(`not a ws:// address: ${url}`));
    const key = randomBytes(16).toString('base64');
    const accept = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const socket = connect({
        host: target.hostname,
        port: Number(target.port || 80),
        noDelay: true,
        onread: {
          buffer: READ_BUFFER,
          callback: (length: number, buffer: Uint8Array) => {
            client.#read((buffer as Buffer).subarray(0, length));
            return true;
          },
        },
      });
      const client = new WebSocketClient(socket, options.skip ?? NOTHING_SKIPPED);
      const timer = setTimeout(() => {
        fail(new Error('opening handshake timed out'));
      }, options.handshakeTimeoutMs ?? 10_000);
      client.#handshake = (head) => {
        const error = checkHandshake(head, accept);
        if (error !== null) {
          fail(new Error(error));
          return false;
        }
        settled = true;
        clearTimeout(timer);
        client.#state = 'open';
        resolve(client);
        return true;
      };
      socket.once('error', fail);
      socket.on('close', () => {
        fail(new Error('connection closed during the opening handshake'));
        client.#ended();
      });
      socket.once('connect', () => {
        socket.write(
          `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
            `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\n` +
            'Sec-WebSocket-Version: 13\r\n\r\n',
        );
      });
      socket.on('error', () => undefined); // 'close' follows every error
    });
  }

  /** Set by `open`: checks the server's answer to the opening handshake; true: the connection is open. */
  #handshake: (head: string) => boolean = () => false;

  /** Every text message, as it arrives. */
  onMessage(listener: (text: string) => void): void {
    this.#onMessage = listener;
  }

  /** Once, when the connection is gone (closed by either side, or failed). */
  onClose(listener: () => void): void {
    this.#onClose = listener;
  }

  /** Sends `text` as one masked text frame (nothing once closing). */
  send(text: string): void {
    if (this.#state !== 'open' || this.#closeSent) return;
    this.#socket.write(maskedFrame(Opcode.Text, text));
  }

  /** Starts the close handshake; the connection ends when the server answers it. */
  close(code = 1000, reason = ''): void {
    if (this.#state !== 'open' || this.#closeSent) return;
    const payload = Buffer.allocUnsafe(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2, 'utf8');
    this.#sendClose(payload);
  }

  /** Drops the connection at once, without a close handshake. */
  terminate(): void {
    this.#socket.destroy();
  }

  #sendClose(payload: Buffer): void {
    this.#closeSent = true;
    this.#socket.write(maskedFrame(Opcode.Close, payload));
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#state = 'done';
    this.#onClose();
  }

  /** Fails the connection: a close frame with `code` if it is open, then the socket ends. */
  #fail(code: number): void {
    if (this.#state === 'open' && !this.#closeSent) {
      const payload = Buffer.allocUnsafe(2);
      payload.writeUInt16BE(code, 0);
      this.#sendClose(payload);
    }
    this.#state = 'done';
    this.#socket.end();
  }

  /** New bytes (a view of the shared read buffer, valid only during this call). */
  #read(chunk: Buffer): void {
    if (this.#state === 'done') return;
    let data = chunk;
    if (this.#pending !== null) {
      data = chunk.length === 0 ? this.#pending : Buffer.concat([this.#pending, chunk]);
      this.#pending = null;
    }
    let offset = 0;
    if (this.#state === 'handshake') {
      const end = data.indexOf('\r\n\r\n', 0, 'latin1');
      if (end < 0) {
        if (data.length > 16 * 1024) this.#socket.destroy();
        else this.#pending = Buffer.from(data);
        return;
      }
      if (!this.#handshake(data.toString('latin1', 0, end))) return;
      // Frames that came with the answer wait a turn, so that whoever awaited `open` can listen first.
      if (end + 4 < data.length) {
        this.#pending = Buffer.from(data.subarray(end + 4));
        setImmediate(() => {
          this.#read(Buffer.alloc(0));
        });
      }
      return;
    }
    try {
      while (this.#reading()) {
        const used = this.#frame(data, offset);
        if (used === 0) break;
        offset += used;
      }
    } catch (error) {
      this.#fail(error instanceof ProtocolError ? error.code : 1011);
      return;
    }
    // A frame cut by the end of the read waits for the rest (copied: the read buffer is shared).
    if (this.#reading() && offset < data.length) this.#pending = Buffer.from(data.subarray(offset));
  }

  /** Still reading frames: a close frame or a broken one stops it in the middle of a chunk. */
  #reading(): boolean {
    return this.#state === 'open';
  }

  /** Handles the frame at `offset`; returns its length, or 0 when it is not all there yet. */
  #frame(data: Buffer, offset: number): number {
    const available = data.length - offset;
    if (available < 2) return 0;
    const first = data[offset]!;
    const second = data[offset + 1]!;
    const final = (first & 0x80) !== 0;
    const opcode = first & 0x0f;
    if ((first & 0x70) !== 0) throw new ProtocolError(1002, 'reserved bits set');
    if ((second & 0x80) !== 0) throw new ProtocolError(1002, 'a server frame is never masked');
    let length = second & 0x7f;
    let header = 2;
    if (length === 126) {
      if (available < 4) return 0;
      length = data.readUInt16BE(offset + 2);
      header = 4;
    } else if (length === 127) {
      if (available < 10) return 0;
      const high = data.readUInt32BE(offset + 2);
      if (high !== 0) throw new ProtocolError(1009, 'message too big');
      length = data.readUInt32BE(offset + 6);
      header = 10;
    }
    if (length > MAX_MESSAGE) throw new ProtocolError(1009, 'message too big');
    if (available < header + length) return 0;
    const start = offset + header;
    if (opcode >= Opcode.Close) this.#control(opcode, final, data.subarray(start, start + length));
    else this.#data(opcode, final, data, start, start + length);
    return header + length;
  }

  #control(opcode: number, final: boolean, payload: Buffer): void {
    if (!final || payload.length > 125) throw new ProtocolError(1002, 'bad control frame');
    if (opcode === Opcode.Ping) {
      if (!this.#closeSent) this.#socket.write(maskedFrame(Opcode.Pong, payload));
    } else if (opcode === Opcode.Close) {
      // The server closes (or answers our close): answer with its code, then the socket ends.
      if (!this.#closeSent) this.#sendClose(Buffer.from(payload.subarray(0, 2)));
      this.#state = 'done';
      this.#socket.end();
    } else if (opcode !== Opcode.Pong) {
      throw new ProtocolError(1002, `unknown opcode ${opcode}`);
    }
  }

  /** A data frame whose payload is `data[start, end)`. */
  #data(opcode: number, final: boolean, data: Buffer, start: number, end: number): void {
    if (opcode === Opcode.Continuation) {
      if (!this.#inMessage) throw new ProtocolError(1002, 'a continuation without a message');
    } else if (opcode === Opcode.Text || opcode === Opcode.Binary) {
      if (this.#inMessage) throw new ProtocolError(1002, 'a new message inside a fragmented one');
      this.#fragmentedText = opcode === Opcode.Text;
    } else {
      throw new ProtocolError(1002, `unknown opcode ${opcode}`);
    }
    if (final && !this.#inMessage) {
      if (this.#fragmentedText) this.#deliver(data, start, end);
      return;
    }
    this.#inMessage = true;
    this.#fragmentsLength += end - start;
    if (this.#fragmentsLength > MAX_MESSAGE) throw new ProtocolError(1009, 'message too big');
    this.#fragments.push(Buffer.from(data.subarray(start, end)));
    if (!final) return;
    const whole = Buffer.concat(this.#fragments);
    this.#fragments = [];
    this.#fragmentsLength = 0;
    this.#inMessage = false;
    if (this.#fragmentedText) this.#deliver(whole, 0, whole.length);
  }

  #deliver(data: Buffer, start: number, end: number): void {
    if (this.#skip(data, start, end)) return;
    if (!isUtf8(data.subarray(start, end))) throw new ProtocolError(1007, 'text that is not UTF-8');
    this.#onMessage(data.toString('utf8', start, end));
  }
}

/** Null if `head` (the HTTP answer up to its blank line) accepts the upgrade with `accept`; else why not. */
function checkHandshake(head: string, accept: string): string | null {
  const [status = '', ...lines] = head.split('\r\n');
  if (!/^HTTP\/1\.1 101 /.test(status)) return `the server refused the upgrade: ${status}`;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  if (headers.get('upgrade')?.toLowerCase() !== 'websocket') return 'no Upgrade: websocket';
  if (!/\bupgrade\b/i.test(headers.get('connection') ?? '')) return 'no Connection: Upgrade';
  if (headers.get('sec-websocket-accept') !== accept) return 'a wrong Sec-WebSocket-Accept';
  if (headers.has('sec-websocket-extensions')) return 'an extension nobody asked for';
  return null;
}

/** A final, masked client frame carrying `payload` (text is written as UTF-8 straight into the frame). */
function maskedFrame(opcode: number, payload: string | Buffer): Buffer {
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const out = Buffer.allocUnsafe(headerLength(length) + 4 + length);
  const key = writeHeader(out, opcode, length, true);
  const start = key + 4;
  maskKey(out, key);
  if (typeof payload === 'string') out.write(payload, start, 'utf8');
  else payload.copy(out, start);
  for (let i = 0; i < length; i++) out[start + i]! ^= out[key + (i & 3)]!;
  return out;
}
