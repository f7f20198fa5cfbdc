/**
 * The staff's second factor: time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), the codes
 * every authenticator app shows — HMAC-SHA1 of the 30-second step, six digits. It is node:crypto's HMAC,
 * a dynamic truncation and base32 (RFC 4648) for the key: pinned by the RFCs' own test vectors
 * (test/totp.test.ts), fewer lines than a library's configuration would be, and no dependency.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Seconds per code. */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of this many steps before or after now are accepted too (clocks drift, people type slowly). */
const DRIFT_STEPS = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]!;
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]!;
  return out;
}

/** The bytes of an unpadded upper-case base32 text; null when it is not one. */
export function base32Decode(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A fresh key: 20 random bytes (160 bits, RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code of one step (RFC 4226 §5.3). */
export function hotp(key: Uint8Array, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 15;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/**
 * The step whose code `code` is at `nowMs`, give or take {@link DRIFT_STEPS} steps; null when none. The
 * caller refuses a step not after the last one accepted (RFC 6238 §5.2): a code works once.
 */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  const key = base32Decode(secret);
  if (key === null || !/^\d{6}$/.test(code)) return null;
  const step = Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
  let matched: number | null = null;
  for (let drift = -DRIFT_STEPS; drift <= DRIFT_STEPS; drift++) {
    // Every candidate is compared, in constant time: the answer's timing tells nothing.
    if (timingSafeEqual(Buffer.from(hotp(key, step + drift)), Buffer.from(code))) matched = step + drift;
  }
  return matched;
}

/** Whether `code` is the key's code at `nowMs`, give or take {@link DRIFT_STEPS} steps. */
export function verifyTotp(secret: string, code: string, nowMs: number): boolean {
  return totpStep(secret, code, nowMs) !== null;
}

/** The key as authenticator apps scan it (the Key URI format of Google Authenticator, which all read). */
export function otpauthUri(secret: string, account: string, issuer = 'Felt'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
