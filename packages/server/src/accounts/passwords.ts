/**
 * Passwords and session tokens, with node:crypto only.
 *
 * - Passwords: scrypt with a random 16-byte salt per user; the stored hash names its parameters
 *   (`scrypt$N$r$p$hex`) so that they can be raised later without breaking old accounts. Comparison is
 *   timing-safe.
 * - Session tokens: 32 random bytes (base64url, 43 characters) handed to the client once; storage keeps
 *   only their SHA-256, so a leaked database does not leak sessions.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** scrypt's interactive-login parameters: about 16 MB and a few tens of milliseconds per hash. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 16384, r: 8, p: 1 };

const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 },
      (error, key) => {
        if (error) reject(error);
        else resolve(key);
      },
    );
  });
}

export interface PasswordHash {
  readonly hash: string;
  readonly salt: string;
}

export async function hashPassword(
  password: string,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, params);
  return {
    hash: `scrypt$${params.N}$${params.r}$${params.p}$${key.toString('hex')}`,
    salt: salt.toString('hex'),
  };
}

/** Whether `password` matches the stored hash and salt (timing-safe; false for a malformed record). */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const parts = stored.hash.split('$');
  if (parts.length !== 5 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((x) => Number.isSafeInteger(x) && x > 0)) return false;
  const expected = Buffer.from(parts[4] ?? '', 'hex');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await scryptAsync(password, Buffer.from(stored.salt, 'hex'), { N, r, p });
  return timingSafeEqual(key, expected);
}

/** A fresh session token (base64url of 32 random bytes). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What storage keeps of a token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
