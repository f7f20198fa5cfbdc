/** Bytes as lower-case hex and back: apart from the scheme, so that the browser's first load has it without the hashes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Lower-case hex of exactly `length` bytes, else null. */
export function fromHex(text: string, length: number): Uint8Array | null {
  if (typeof text !== 'string' || text.length !== length * 2 || !/^[0-9a-f]*$/.test(text)) return null;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
