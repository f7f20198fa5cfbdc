import { createHash } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { takeFrames, textFrame } from '../src/transport/frame.js';

/**
 * What a real client (`ws`) reads when a server answers its handshake and writes `frames` as they are
 * (`messages`: how many messages they carry).
 */
async function received(frames: readonly Buffer[], messages = frames.length): Promise<string[]> {
  const server = createServer((socket: Socket) => {
    socket.once('data', (request: Buffer) => {
      const key = /Sec-WebSocket-Key: (\S+)/i.exec(request.toString('latin1'))?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      socket.write(Buffer.concat(frames));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const texts: string[] = [];
      const client = new WebSocket(`ws://127.0.0.1:${port}`, { maxPayload: 0 });
      client.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) reject(new Error('a binary message'));
        texts.push(data.toString('utf8'));
        if (texts.length === messages) {
          client.terminate();
          resolve(texts);
        }
      });
      client.on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('transport: server text frames (RFC 6455)', () => {
  it('every payload length form (7-bit, 16-bit, 64-bit) reads back as the same text', async () => {
    const texts = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000].map((length) => 'x'.repeat(length));
    for (const text of texts) {
      const frame = textFrame(text);
      expect(frame[0]).toBe(0x81); // final text frame
      expect(frame[1]! & 0x80).toBe(0); // a server never masks
    }
    expect(await received(texts.map((text) => textFrame(text)))).toEqual(texts);
  });

  it('UTF-8 text: the payload is its UTF-8 bytes, read back as the same text', async () => {
    const text = JSON.stringify({ op: 'chat', text: 'Sökö ♠ 10€' });
    expect(textFrame(text).subarray(2)).toEqual(Buffer.from(text));
    const texts = [text, 'é'.repeat(200)];
    expect(await received(texts.map((t) => textFrame(t)))).toEqual(texts);
  });

  it("a tick's frames taken from their slots leave as one buffer, read back whole and in order", async () => {
    const texts = ['{"op":"table-event"}', 'é'.repeat(200), 'x'.repeat(70_000), '{"op":"ack"}'];
    const slots: (Buffer | undefined)[] = texts.map((text) => textFrame(text));
    const joined = takeFrames(slots, texts.length);
    expect(slots.every((slot) => slot === undefined)).toBe(true);
    expect(await received([joined], texts.length)).toEqual(texts);
    const single: (Buffer | undefined)[] = [textFrame('alone'), textFrame('later')];
    expect(await received([takeFrames(single, 1)])).toEqual(['alone']);
    expect(single[0]).toBeUndefined();
    expect(single[1]).toBeDefined();
  });
});
