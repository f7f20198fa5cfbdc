/**
 * The staff audit log's contract: entries chained in order, appends at once never forking the chain,
 * and — on the database underneath, as an attacker with its file or its password would — every change,
 * removal or insertion behind the storage's back either refused by the schema or found by the check.
 */
import { describe, expect, it } from 'vitest';
import { sqlStorage, type SqlDriver, type StaffAudit } from '../src/storage/index.js';
import { opener, type Closable } from './storage-contract-helpers.js';

const act = (action: string, detail: object = {}) => ({
  staffId: null,
  action,
  detail: JSON.stringify(detail),
});

export function staffAuditContract(name: string, factory: () => Promise<StaffAudit & Closable>): void {
  describe(`Staff audit log contract: ${name}`, () => {
    const open = opener(factory);

    it('entries are numbered from 1 and each links to the one before; the check finds the chain intact', async () => {
      const storage = await open();
      expect(await storage.checkStaffLog()).toEqual({ entries: 0, intact: true, brokenAt: null });
      const first = await storage.appendStaffAction(act('grant', { user: 'ann' }));
      const second = await storage.appendStaffAction(act('cashier-credit', { user: 'ann', amount: 5 }));
      if (!first.ok || !second.ok) throw new Error('append');
      expect(first.value).toMatchObject({ seq: 1, prevHash: '0'.repeat(64), action: 'grant' });
      expect(second.value).toMatchObject({ seq: 2, prevHash: first.value.hash });
      expect(second.value.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await storage.staffLog()).toEqual([first.value, second.value]);
      expect(await storage.staffLog(1)).toEqual([second.value]);
      expect(await storage.checkStaffLog()).toEqual({ entries: 2, intact: true, brokenAt: null });
      const bad = await storage.appendStaffAction(act(''));
      expect(bad.ok ? null : bad.error.code).toBe('BAD_REQUEST');
    });

    it('twenty appends at once make one chain of twenty, no number twice', async () => {
      const storage = await open();
      const all = await Promise.all(
        Array.from({ length: 20 }, (_, i) => storage.appendStaffAction(act('broadcast', { i }))),
      );
      expect(all.every((appended) => appended.ok)).toBe(true);
      expect((await storage.staffLog()).map((entry) => entry.seq)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      expect(await storage.checkStaffLog()).toEqual({ entries: 20, intact: true, brokenAt: null });
    });
  });
}

/** Tampering on the database itself: a fresh, empty database's driver per dialect. */
export function staffAuditTamperContract(name: string, openDriver: () => Promise<SqlDriver>): void {
  describe(`Staff audit log against tampering: ${name}`, () => {
    const withLog = async (
      fn: (driver: SqlDriver, storage: ReturnType<typeof sqlStorage>) => Promise<void>,
    ) => {
      const driver = await openDriver();
      const storage = sqlStorage(driver);
      try {
        await storage.migrate();
        for (const action of ['grant', 'suspend', 'hand-lookup'])
          await storage.appendStaffAction(act(action));
        await fn(driver, storage);
      } finally {
        await storage.close();
      }
    };

    it('the schema refuses to change or delete an entry', () =>
      withLog(async (driver, storage) => {
        await expect(driver.run("UPDATE staff_log SET action = 'nothing' WHERE seq = 2")).rejects.toThrow(
          /append-only/,
        );
        await expect(driver.run('DELETE FROM staff_log WHERE seq = 3')).rejects.toThrow(/append-only/);
        expect(await storage.checkStaffLog()).toEqual({ entries: 3, intact: true, brokenAt: null });
      }));

    it('with the triggers dropped, an altered entry, a removed one and one slipped in are each found', async () => {
      const dropTriggers = async (driver: SqlDriver) => {
        if (driver.dialect === 'sqlite') {
          await driver.exec('DROP TRIGGER staff_log_no_update; DROP TRIGGER staff_log_no_delete;');
        } else {
          await driver.exec('DROP TRIGGER staff_log_no_change ON staff_log;');
        }
      };
      await withLog(async (driver, storage) => {
        await dropTriggers(driver);
        await driver.run('UPDATE staff_log SET detail = \'{"amount":1}\' WHERE seq = 2');
        expect(await storage.checkStaffLog()).toEqual({ entries: 3, intact: false, brokenAt: 2 });
      });
      await withLog(async (driver, storage) => {
        await dropTriggers(driver);
        await driver.run('DELETE FROM staff_log WHERE seq = 3');
        expect(await storage.checkStaffLog()).toEqual({ entries: 2, intact: false, brokenAt: 3 });
      });
      await withLog(async (driver, storage) => {
        const [last] = await storage.staffLog(2);
        await driver.run(
          'INSERT INTO staff_log (seq, at, staff_id, action, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [4, 1, null, 'forged', '{}', last!.hash, 'f'.repeat(64)],
        );
        expect(await storage.checkStaffLog()).toEqual({ entries: 4, intact: false, brokenAt: 4 });
      });
    });
  });
}
