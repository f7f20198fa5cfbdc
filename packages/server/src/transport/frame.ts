/**
 * WebSocket text frames as a server sends them (RFC 6455 §5.2: final, unmasked, no extension): built
 * once per message view and written as they are to every socket entitled to it, instead of being
 * framed again by `ws` for each recipient (a broadcast reaches six players; see ./websocket.ts).
 */

const FIN_TEXT = 0x81;

/** The whole frame — header and its UTF-8 payload in one buffer — carrying `text`. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 0x1_0000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = FIN_TEXT;
  if (header === 2) {
    frame[1] = length;
  } else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
