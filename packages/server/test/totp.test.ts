/**
 * The staff's second factor: RFC 4226's and RFC 6238's own test vectors, base32 both ways, the drift
 * window, and the otpauth:// key authenticator apps read.
 */
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  newTotpSecret,
  otpauthUri,
  verifyTotp,
} from '../src/accounts/totp.js';

const RFC_KEY = Buffer.from('12345678901234567890');

describe('TOTP', () => {
  it('HOTP gives RFC 4226 appendix D codes', () => {
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(RFC_KEY, counter));
    expect(codes).toEqual([
      '755224', '287082', '359152', '969429', '338314',
      '254676', '287922', '162583', '399871', '520489',
    ]); // prettier-ignore
  });

  it('TOTP accepts RFC 6238 appendix B codes (SHA-1, their last six digits) at their times', () => {
    const secret = base32Encode(RFC_KEY);
    const vectors: [number, string][] = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
      [20000000000, '353130'],
    ];
    for (const [seconds, code] of vectors) expect(verifyTotp(secret, code, seconds * 1000)).toBe(true);
  });

  it('a code is good one step either side of its own and no further; malformed codes and keys never pass', () => {
    const secret = newTotpSecret();
    const key = base32Decode(secret)!;
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(verifyTotp(secret, hotp(key, step - 1), now)).toBe(true);
    expect(verifyTotp(secret, hotp(key, step + 1), now)).toBe(true);
    const far = [hotp(key, step - 2), hotp(key, step + 2)].filter(
      (code) => ![step - 1, step, step + 1].some((near) => hotp(key, near) === code),
    );
    for (const code of far) expect(verifyTotp(secret, code, now)).toBe(false);
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 12345'])
      expect(verifyTotp(secret, bad, now)).toBe(false);
    expect(verifyTotp('not base32!', hotp(key, step), now)).toBe(false);
  });

  it('base32 round-trips any bytes; fresh keys are 160 bits and differ', () => {
    for (let length = 0; length < 24; length++) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 97 + length * 31) & 255));
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI'); // RFC 4648 §10
    const a = newTotpSecret();
    expect(base32Decode(a)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(a);
  });

  it('the otpauth:// key names the room and the account and carries the secret', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ann'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Felt:ann');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Felt',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
