/**
 * WebSocket frames (RFC 6455 §5.2, final, no extension). The server's text frames are built once per
 * message view and written as they are to every socket entitled to it, instead of being framed again
 * by `ws` for each recipient (a broadcast reaches six players; see ./websocket.ts); the bots' client
 * (../bots/websocket.ts) builds its masked frames on the same header.
 */

const FINAL = 0x80;
const MASKED = 0x80;
const TEXT = 0x1;

/** Bytes of the header (without a mask key) for a payload of `length` bytes: 7-, 16- or 64-bit length. */
export function headerLength(length: number): number {
  return length < 126 ? 2 : length < 0x1_0000 ? 4 : 10;
}

/** Writes the header of a final frame at the start of `frame`; returns its length (without a mask key). */
export function writeHeader(frame: Buffer, opcode: number, length: number, masked: boolean): number {
  const header = headerLength(length);
  const mask = masked ? MASKED : 0;
  frame[0] = FINAL | opcode;
  if (header === 2) {
    frame[1] = mask | length;
  } else if (header === 4) {
    frame[1] = mask | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = mask | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  return header;
}

/** The whole server frame — header and its UTF-8 payload in one buffer — carrying `text`. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const frame = Buffer.allocUnsafe(headerLength(length) + length);
  frame.write(text, writeHeader(frame, TEXT, length, false), 'utf8');
  return frame;
}

/** The first `count` frames of `slots` as one buffer; their slots are emptied (no frame outlives its write). */
export function takeFrames(slots: (Buffer | undefined)[], count: number): Buffer {
  if (count === 1) {
    const only = slots[0]!;
    slots[0] = undefined;
    return only;
  }
  let length = 0;
  for (let i = 0; i < count; i++) length += slots[i]!.length;
  const data = Buffer.allocUnsafe(length);
  let at = 0;
  for (let i = 0; i < count; i++) {
    at += slots[i]!.copy(data, at);
    slots[i] = undefined;
  }
  return data;
}
