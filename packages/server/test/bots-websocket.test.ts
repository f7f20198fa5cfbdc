import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketClient } from '../src/bots/websocket.js';
import { textFrame } from '../src/transport/frame.js';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const servers: (Server | WebSocketServer)[] = [];

afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
});

/** A hand-made server: answers the handshake (with `accept`, by default the right one), then hands over the socket. */
async function rawServer(
  onSocket: (socket: Socket) => void,
  accept: (key: string) => string = (key) =>
    createHash('sha1')
      .update(key + GUID)
      .digest('base64'),
): Promise<string> {
  const server = createServer((socket) => {
    socket.once('data', (request: Buffer) => {
      const key = /Sec-WebSocket-Key: (\S+)/i.exec(request.toString('latin1'))?.[1] ?? '';
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept(key)}\r\n\r\n`,
      );
      onSocket(socket);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A hand-made server that writes `frames` once the handshake is done and keeps what the client sends;
 * `client` is connected to it.
 */
async function recordingServer(
  ...frames: Buffer[]
): Promise<{ client: WebSocketClient; received: () => Buffer; closed: Promise<void> }> {
  let received = Buffer.alloc(0);
  const url = await rawServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    for (const frame of frames) socket.write(frame);
  });
  const client = await WebSocketClient.open(url);
  const closed = new Promise<void>((resolve) => {
    client.onClose(resolve);
  });
  return { client, received: () => received, closed };
}

/** Every message `client` gets until `count` have come. */
function messages(client: WebSocketClient, count: number): Promise<string[]> {
  const texts: string[] = [];
  return new Promise((resolve) => {
    client.onMessage((text) => {
      texts.push(text);
      if (texts.length === count) resolve(texts);
    });
  });
}

/** The client frames in `bytes` (masked, as a client must send them), unmasked: opcode and payload. */
function clientFrames(bytes: Buffer): { opcode: number; payload: Buffer }[] {
  const frames: { opcode: number; payload: Buffer }[] = [];
  for (let at = 0; at < bytes.length;) {
    expect(bytes[at + 1]! & 0x80).toBe(0x80); // masked
    let length = bytes[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) [length, header] = [bytes.readUInt16BE(at + 2), 4];
    else if (length === 127) [length, header] = [Number(bytes.readBigUInt64BE(at + 2)), 10];
    const mask = bytes.subarray(at + header, at + header + 4);
    const payload = Buffer.from(bytes.subarray(at + header + 4, at + header + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
    frames.push({ opcode: bytes[at]! & 0x0f, payload });
    at += header + 4 + length;
  }
  return frames;
}

const LENGTHS = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000];

describe('bots: the WebSocket client (RFC 6455)', () => {
  it('masked text frames of every length form reach a real ws server, and its answers come back whole', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    servers.push(server);
    await once(server, 'listening');
    server.on('connection', (socket) => {
      socket.on('message', (data: Buffer) => {
        socket.send(data.toString('utf8'));
      });
    });
    const client = await WebSocketClient.open(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const texts = [...LENGTHS.map((n) => 'x'.repeat(n)), 'Sökö ♠ 10€'];
    const echoed = messages(client, texts.length);
    for (const text of texts) client.send(text);
    expect(await echoed).toEqual(texts);
    client.terminate();
  });

  it('a frame cut anywhere by the network (byte by byte) and a fragmented message read back whole', async () => {
    const text = JSON.stringify({ op: 'table-event', cards: ['As', 'Kd'], note: 'é'.repeat(300) });
    const url = await rawServer((socket) => {
      const bytes = textFrame(text);
      let i = 0;
      const drip = setInterval(() => {
        socket.write(bytes.subarray(i, i + 1));
        if (++i === bytes.length) {
          clearInterval(drip);
          // Then one message in three frames: text (not final), continuation, final continuation.
          const parts = [Buffer.from('{"a":'), Buffer.from('"b'), Buffer.from('c"}')];
          socket.write(Buffer.from([0x01, parts[0]!.length, ...parts[0]!]));
          socket.write(
            Buffer.from([0x00, parts[1]!.length, ...parts[1]!, 0x80, parts[2]!.length, ...parts[2]!]),
          );
        }
      }, 0);
    });
    const client = await WebSocketClient.open(url);
    expect(await messages(client, 2)).toEqual([text, '{"a":"bc"}']);
    client.terminate();
  });

  it('a ping is answered by a pong with the same payload; a binary message is dropped', async () => {
    const ping = Buffer.from([0x89, 4, ...Buffer.from('ping')]);
    const binary = Buffer.from([0x82, 2, 1, 2]);
    const { client, received, closed } = await recordingServer(ping, binary, textFrame('after'));
    expect(await messages(client, 1)).toEqual(['after']);
    for (let i = 0; i < 100 && received().length < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect(clientFrames(received())).toEqual([{ opcode: 0xa, payload: Buffer.from('ping') }]);
    client.terminate();
    await closed;
  });

  it('messages the client skips are dropped undelivered, even invalid text; the others come in order', async () => {
    const notUtf8 = Buffer.from([0x81, 6, ...Buffer.from('skip'), 0xc3, 0x28]);
    const url = await rawServer((socket) => {
      socket.write(Buffer.concat([textFrame('skip me'), textFrame('one'), notUtf8, textFrame('two')]));
    });
    const client = await WebSocketClient.open(url, {
      skip: (data, start, end) => end - start >= 4 && data.toString('latin1', start, start + 4) === 'skip',
    });
    expect(await messages(client, 2)).toEqual(['one', 'two']);
    client.terminate();
  });

  it('close handshake: the client answers the server close frame with its code, then reports closed', async () => {
    const { received, closed } = await recordingServer(Buffer.from([0x88, 2, 0x03, 0xe9])); // close 1001
    await closed;
    expect(clientFrames(received())).toEqual([{ opcode: 0x8, payload: Buffer.from([0x03, 0xe9]) }]);
  });

  it('a server frame that breaks the protocol (masked) fails the connection with close code 1002', async () => {
    const masked = Buffer.from([0x81, 0x81, 1, 2, 3, 4, 0x41]);
    const { client, received, closed } = await recordingServer(masked);
    let got = 0;
    client.onMessage(() => got++);
    await closed;
    expect(got).toBe(0);
    expect(clientFrames(received())).toEqual([{ opcode: 0x8, payload: Buffer.from([0x03, 0xea]) }]);
  });

  it('text that is not UTF-8 fails the connection with close code 1007', async () => {
    const { received, closed } = await recordingServer(Buffer.from([0x81, 2, 0xc3, 0x28]));
    await closed;
    expect(clientFrames(received())).toEqual([{ opcode: 0x8, payload: Buffer.from([0x03, 0xef]) }]);
  });

  it('opening handshake: a wrong Sec-WebSocket-Accept, or no upgrade at all, is refused', async () => {
    const wrong = await rawServer(
      () => undefined,
      () => 'd3JvbmcgYWNjZXB0IGtleQ==',
    );
    await expect(WebSocketClient.open(wrong)).rejects.toThrow(/Sec-WebSocket-Accept/);
    const http = createServer((socket) => {
      socket.resume();
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
    servers.push(http);
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    await expect(
      WebSocketClient.open(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`),
    ).rejects.toThrow(/refused the upgrade: HTTP\/1.1 404/);
  });
});
