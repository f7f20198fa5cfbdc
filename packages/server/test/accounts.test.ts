/**
 * Accounts on a real SQLite file: passwords hashed with scrypt and a salt per user, compared
 * timing-safely; session tokens from random bytes, stored only as hashes; logout; change password
 * (old one needed, other sessions end); play-money top-up up to a ceiling; real money untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../src/accounts/accounts.js';
import { hashPassword, tokenHash, verifyPassword } from '../src/accounts/passwords.js';
import { base32Decode, hotp, newTotpSecret } from '../src/accounts/totp.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { TEST_SCRYPT } from './transport-client.js';

let dir: string;
let storage: Storage;
let accounts: Accounts;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'felt-accounts-'));
  storage = await openMigratedSqliteStorage({ dataDir: dir, synchronous: 'normal' });
  accounts = new Accounts(storage, {
    scrypt: TEST_SCRYPT,
    playMoneyCeiling: 500_000,
    signUpPlayMoney: 100_000,
  });
});

afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const must = <T>(result: { ok: true; value: T } | { ok: false; error: { code: string } }): T => {
  if (!result.ok) throw new Error(result.error.code);
  return result.value;
};

describe('passwords', () => {
  it('scrypt with a salt per user: the same password hashes differently, never stored in clear', async () => {
    const alice = must(await accounts.signUp('alice', 'same password'));
    const bob = must(await accounts.signUp('bob', 'same password'));
    const a = (await storage.userById(alice.account.id))!;
    const b = (await storage.userById(bob.account.id))!;
    expect(a.passwordSalt).not.toBe(b.passwordSalt);
    expect(a.passwordHash).not.toBe(b.passwordHash);
    expect(a.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$[0-9a-f]{64}$/);
    expect(a.passwordHash).not.toContain('same password');
  });

  it('verification accepts the password only, and refuses malformed records', async () => {
    const stored = await hashPassword('hunter22', TEST_SCRYPT);
    expect(await verifyPassword('hunter22', stored)).toBe(true);
    expect(await verifyPassword('hunter23', stored)).toBe(false);
    expect(await verifyPassword('hunter22', { hash: 'md5$abc', salt: stored.salt })).toBe(false);
    expect(await verifyPassword('hunter22', { hash: 'scrypt$1024$8$1$00', salt: stored.salt })).toBe(false);
  });

  it('login: wrong password and unknown name give the same BAD_CREDENTIALS', async () => {
    must(await accounts.signUp('carol', 'carol password'));
    const wrong = await accounts.login('carol', 'not it at all');
    const unknown = await accounts.login('nobody-here', 'carol password');
    expect(!wrong.ok && wrong.error.code).toBe('BAD_CREDENTIALS');
    expect(!unknown.ok && unknown.error).toEqual(!wrong.ok && wrong.error);
    expect(must(await accounts.login('carol', 'carol password')).account.name).toBe('carol');
  });

  it('a staff account signs in with its password and its current TOTP code; a player needs no code', async () => {
    const dora = must(await accounts.signUp('dora', 'dora password'));
    const secret = newTotpSecret();
    must(await storage.setRole(dora.account.id, { role: 'operator', totpSecret: secret }));
    const key = base32Decode(secret)!;
    const code = hotp(key, Math.floor(Date.now() / 30_000));
    const without = await accounts.login('dora', 'dora password');
    expect(!without.ok && without.error.code).toBe('TOTP_REQUIRED');
    // The code is asked for only once the password was right: a wrong password says nothing of it.
    const wrongPassword = await accounts.login('dora', 'not her password', undefined, code);
    expect(!wrongPassword.ok && wrongPassword.error.code).toBe('BAD_CREDENTIALS');
    const stale = hotp(key, Math.floor(Date.now() / 30_000) - 5);
    const wrongCode = await accounts.login(
      'dora',
      'dora password',
      undefined,
      stale === code ? '000000' : stale,
    );
    expect(!wrongCode.ok && wrongCode.error.code).toBe('BAD_CREDENTIALS');
    expect(must(await accounts.login('dora', 'dora password', undefined, code)).account.name).toBe('dora');
    must(await storage.setRole(dora.account.id, null));
    expect(must(await accounts.login('dora', 'dora password')).account.name).toBe('dora');
  });

  it('sign-up refuses a taken name and a short password', async () => {
    const taken = await accounts.signUp('carol', 'another password');
    expect(!taken.ok && taken.error.code).toBe('NAME_TAKEN');
    const short = await accounts.signUp('dave', 'short');
    expect(!short.ok && short.error.code).toBe('WEAK_PASSWORD');
  });
});

describe('sessions', () => {
  it('tokens are 32 random bytes, stored only as their hash', async () => {
    const erin = must(await accounts.signUp('erin', 'erin password'));
    expect(Buffer.from(erin.token, 'base64url')).toHaveLength(32);
    expect(await storage.sessionByTokenHash(erin.token)).toBeNull();
    expect(await storage.sessionByTokenHash(tokenHash(erin.token))).not.toBeNull();
    expect(must(await accounts.resume(erin.token)).account).toEqual(erin.account);
  });

  it('logout: the token no longer resumes', async () => {
    const frank = must(await accounts.signUp('frank', 'frank password'));
    await accounts.logout(frank.tokenHash);
    const resumed = await accounts.resume(frank.token);
    expect(!resumed.ok && resumed.error.code).toBe('BAD_TOKEN');
  });

  it('change password: the old one is needed; other sessions end, this one goes on', async () => {
    const first = must(await accounts.signUp('gina', 'gina password'));
    const second = must(await accounts.login('gina', 'gina password'));
    const refused = await accounts.changePassword(first, 'wrong password', 'new gina password');
    expect(!refused.ok && refused.error.code).toBe('BAD_CREDENTIALS');
    must(await accounts.changePassword(first, 'gina password', 'new gina password'));
    expect((await accounts.resume(first.token)).ok).toBe(true);
    expect((await accounts.resume(second.token)).ok).toBe(false);
    expect((await accounts.login('gina', 'gina password')).ok).toBe(false);
    expect((await accounts.login('gina', 'new gina password')).ok).toBe(true);
  });

  it('an expired session does not resume', async () => {
    let now = Date.now();
    const shortLived = new Accounts(storage, { scrypt: TEST_SCRYPT, sessionMs: 1000, clock: () => now });
    const hana = must(await shortLived.signUp('hana', 'hana password'));
    now += 2000;
    expect((await shortLived.resume(hana.token)).ok).toBe(false);
  });
});

describe('balances', () => {
  it('play money: a sign-up grant, top-ups up to the ceiling and no further; real money apart', async () => {
    const ivan = must(await accounts.signUp('ivan', 'ivan password'));
    expect(ivan.balances).toEqual({ play: 100_000, real: 0 });
    expect(must(await accounts.topUp(ivan.account.id, 400_000))).toEqual({ play: 500_000, real: 0 });
    const over = await accounts.topUp(ivan.account.id, 1);
    expect(!over.ok && over.error.code).toBe('TOP_UP_LIMIT');
    expect(await accounts.balances(ivan.account.id)).toEqual({ play: 500_000, real: 0 });
  });

  it('concurrent top-ups of one account cannot pass the ceiling together', async () => {
    const jo = must(await accounts.signUp('jo', 'jo password'));
    const results = await Promise.all(
      Array.from({ length: 5 }, () => accounts.topUp(jo.account.id, 300_000)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await accounts.balances(jo.account.id)).play).toBe(400_000);
  });

  it('the ledger stays conserved through sign-ups and top-ups', async () => {
    expect((await storage.audit()).conserved).toBe(true);
  });
});
