/**
 * The members' messages as bytes on the bus (./bus.ts): a fixed header, then what it carries — no
 * second JSON layer and no base64 around the ciphertext, which would cost every push its size and its
 * parsing twice.
 *
 *     kind (1) · from (6) · to (6; 0 for a broadcast) · at (6: ms by the room's clock) · rest
 *
 * - sealed (kind 1): the rest is the IV, the ciphertext of the JSON body and its tag (./bus-crypto.ts);
 *   the associated data is the subject and the header ({@link covered}).
 * - signed (kind 2): the rest is the Ed25519 signature (64 bytes) over the subject, the header and the
 *   body ({@link covered}), then the JSON body in clear.
 */

export const SEALED = 1;
export const SIGNED = 2;
export type FrameKind = typeof SEALED | typeof SIGNED;

const HEADER_BYTES = 19;
export const SIGNATURE_BYTES = 64;

export interface FrameHeader {
  readonly kind: FrameKind;
  readonly from: number;
  readonly to: number;
  readonly at: number;
}

const encoder = new TextEncoder();

export function frameHeader(header: FrameHeader): Buffer {
  const bytes = Buffer.allocUnsafe(HEADER_BYTES);
  bytes[0] = header.kind;
  bytes.writeUIntBE(header.from, 1, 6);
  bytes.writeUIntBE(header.to, 7, 6);
  bytes.writeUIntBE(header.at, 13, 6);
  return bytes;
}

/** A frame read: its header, the header's bytes, and the rest; null when it is no frame of the room's. */
export function readFrame(
  data: Uint8Array,
): { readonly header: FrameHeader; readonly head: Buffer; readonly rest: Buffer } | null {
  if (data.length < HEADER_BYTES) return null;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const kind = bytes[0];
  if (kind !== SEALED && kind !== SIGNED) return null;
  const header = {
    kind,
    from: bytes.readUIntBE(1, 6),
    to: bytes.readUIntBE(7, 6),
    at: bytes.readUIntBE(13, 6),
  } as const;
  if (header.from === 0 || (kind === SEALED) === (header.to === 0)) return null;
  return { header, head: bytes.subarray(0, HEADER_BYTES), rest: bytes.subarray(HEADER_BYTES) };
}

/**
 * What a frame's seal or signature covers: the subject it travels on (its length first, so that no
 * byte can move between the subject and what follows), its header, and a broadcast's body.
 */
export function covered(subject: string, head: Uint8Array, body?: Uint8Array): Buffer {
  const name = encoder.encode(subject);
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32BE(name.length);
  return Buffer.concat(body === undefined ? [length, name, head] : [length, name, head, body]);
}
