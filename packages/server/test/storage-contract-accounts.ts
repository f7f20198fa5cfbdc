/**
 * The contract every AccountStore implementation passes (users and sessions): one suite, a factory per
 * implementation. Test names say the rule they check.
 */
import { describe, expect, it } from 'vitest';
import type { AccountStore } from '../src/storage/index.js';
import { opener, user, type Closable } from './storage-contract-helpers.js';

export function accountStoreContract(name: string, factory: () => Promise<AccountStore & Closable>): void {
  describe(`AccountStore contract: ${name}`, () => {
    const open = opener(factory);

    it('user names are unique', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      const again = await storage.createUser({ name: 'ann', passwordHash: 'x', passwordSalt: 'y' });
      expect(again.ok ? null : again.error.code).toBe('NAME_TAKEN');
      expect(await storage.userByName('ann')).toMatchObject({
        id,
        name: 'ann',
        passwordHash: 'hash-ann',
        passwordSalt: 'salt-ann',
      });
      expect(await storage.userByName('bob')).toBeNull();
      expect(await storage.userById(id + 1000)).toBeNull();
    });

    it('names are unique regardless of case, and found by any case with the case they were given', async () => {
      const storage = await open();
      const id = await user(storage, 'Victim');
      for (const other of ['victim', 'VICTIM', 'vIcTiM']) {
        const again = await storage.createUser({ name: other, passwordHash: 'x', passwordSalt: 'y' });
        expect(again.ok ? null : again.error.code).toBe('NAME_TAKEN');
        expect(await storage.userByName(other)).toMatchObject({ id, name: 'Victim' });
      }
      // Sign-ups with one name in two cases at once: one account, the other refused.
      const both = await Promise.all(
        ['Twin', 'TWIN'].map((name) => storage.createUser({ name, passwordHash: 'x', passwordSalt: 'y' })),
      );
      expect(both.filter((created) => created.ok)).toHaveLength(1);
      expect(both.filter((created) => !created.ok && created.error.code === 'NAME_TAKEN')).toHaveLength(1);
    });

    it('a role and its TOTP key are set and cleared together, ending every session of the account', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      expect(await storage.userById(id)).toMatchObject({ role: null, totpSecret: null });
      await storage.createSession({ tokenHash: 'before', userId: id, expiresAt: Date.now() + 60_000 });
      expect((await storage.setRole(id, { role: 'operator', totpSecret: 'KEY' })).ok).toBe(true);
      expect(await storage.userByName('ANN')).toMatchObject({ role: 'operator', totpSecret: 'KEY' });
      expect(await storage.sessionByTokenHash('before')).toBeNull();
      await storage.createSession({ tokenHash: 'staff', userId: id, expiresAt: Date.now() + 60_000 });
      expect((await storage.setRole(id, null)).ok).toBe(true);
      expect(await storage.userById(id)).toMatchObject({ role: null, totpSecret: null });
      expect(await storage.sessionByTokenHash('staff')).toBeNull();
      const unknown = await storage.setRole(id + 1000, { role: 'admin', totpSecret: 'KEY' });
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
    });

    it('a TOTP step is taken once, by one of many at once; only a later step is taken after it', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const bob = await user(storage, 'bob');
      const taken = await Promise.all(Array.from({ length: 8 }, () => storage.takeTotpStep(ann, 1000)));
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect(await storage.takeTotpStep(ann, 1000)).toBe(false);
      expect(await storage.takeTotpStep(ann, 999)).toBe(false);
      expect(await storage.takeTotpStep(ann, 1001)).toBe(true);
      // Each account's steps are its own.
      expect(await storage.takeTotpStep(bob, 1000)).toBe(true);
    });

    it('a suspension is stamped and ends every session of the account; lifting it keeps sessions made since', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      await storage.createSession({ tokenHash: 'before', userId: id, expiresAt: Date.now() + 60_000 });
      expect((await storage.setSuspended(id, true)).ok).toBe(true);
      expect((await storage.userById(id))?.suspendedAt).toEqual(expect.any(Number));
      expect(await storage.sessionsOf(id)).toEqual([]);
      expect((await storage.setSuspended(id, false)).ok).toBe(true);
      expect((await storage.userById(id))?.suspendedAt).toBeNull();
      await storage.createSession({ tokenHash: 'after', userId: id, expiresAt: Date.now() + 60_000 });
      expect((await storage.sessionsOf(id)).map((session) => session.tokenHash)).toEqual(['after']);
      const unknown = await storage.setSuspended(id + 1000, true);
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
    });

    it('a mute is stamped and keeps the sessions; unmuting clears it; an unknown user is a typed error', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      await storage.createSession({ tokenHash: 'kept', userId: id, expiresAt: Date.now() + 60_000 });
      expect((await storage.userById(id))?.mutedAt).toBeNull();
      expect((await storage.setMuted(id, true)).ok).toBe(true);
      expect((await storage.userById(id))?.mutedAt).toEqual(expect.any(Number));
      expect((await storage.sessionsOf(id)).map((session) => session.tokenHash)).toEqual(['kept']);
      expect((await storage.setMuted(id, false)).ok).toBe(true);
      expect((await storage.userById(id))?.mutedAt).toBeNull();
      const unknown = await storage.setMuted(id + 1000, true);
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
    });

    it('a password change replaces hash and salt; an unknown user is a typed error', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      expect((await storage.setPassword(id, 'h2', 's2')).ok).toBe(true);
      expect(await storage.userById(id)).toMatchObject({ passwordHash: 'h2', passwordSalt: 's2' });
      const missing = await storage.setPassword(id + 1000, 'h', 's');
      expect(missing.ok ? null : missing.error.code).toBe('UNKNOWN_USER');
    });

    it('sessions are found by token hash until they expire, and can be revoked', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const now = Date.now();
      expect(
        (await storage.createSession({ tokenHash: 't1', userId: ann, expiresAt: now + 60_000 })).ok,
      ).toBe(true);
      expect(
        (await storage.createSession({ tokenHash: 't2', userId: ann, expiresAt: now + 60_000 })).ok,
      ).toBe(true);
      expect((await storage.createSession({ tokenHash: 't3', userId: ann, expiresAt: now - 1 })).ok).toBe(
        true,
      );
      const unknown = await storage.createSession({ tokenHash: 't4', userId: ann + 99, expiresAt: now + 1 });
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
      expect(await storage.sessionByTokenHash('t1')).toMatchObject({ userId: ann, tokenHash: 't1' });
      expect(await storage.sessionByTokenHash('t3')).toBeNull();
      expect(await storage.sessionByTokenHash('t1', now + 60_000)).toBeNull();
      expect(await storage.deleteExpiredSessions()).toBe(1);
      await storage.deleteSessionsOf(ann, 't2');
      expect(await storage.sessionByTokenHash('t1')).toBeNull();
      expect(await storage.sessionByTokenHash('t2')).not.toBeNull();
      await storage.deleteSession('t2');
      expect(await storage.sessionByTokenHash('t2')).toBeNull();
    });
  });
}
