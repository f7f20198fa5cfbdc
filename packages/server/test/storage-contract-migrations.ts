/**
 * What the migrations do to data already there, on every dialect: one suite, a factory of an empty
 * database's driver per implementation.
 */
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, sqlStorage, type SqlDriver } from '../src/storage/index.js';

export function migrationsContract(name: string, openDriver: () => Promise<SqlDriver>): void {
  describe(`migrations on existing data: ${name}`, () => {
    it('migration 4: of names equal regardless of case the oldest keeps its name, the later ones become NAME-ID; then no such name can be made', async () => {
      const driver = await openDriver();
      const storage = sqlStorage(driver);
      try {
        await migrate(driver, () => 1, MIGRATIONS.slice(0, 3));
        const names = ['victim', 'Victim', 'ann', 'VICTIM', 'averylongname_x', 'AVERYLONGNAME_X'];
        for (const given of names) {
          await driver.run(
            'INSERT INTO users (name, password_hash, password_salt, created_at) VALUES (?, ?, ?, ?)',
            [given, 'h', 's', 1],
          );
        }
        const ids = new Map(
          (await driver.all('SELECT id, name FROM users')).map((row) => [
            String(row['name']),
            Number(row['id']),
          ]),
        );
        expect(await migrate(driver, () => 2, MIGRATIONS.slice(0, 4))).toEqual([4]);
        const after = await driver.all('SELECT id, name FROM users ORDER BY id');
        expect(after.map((row) => String(row['name']))).toEqual([
          'victim',
          `Victim-${ids.get('Victim')!}`,
          'ann',
          `VICTIM-${ids.get('VICTIM')!}`,
          'averylongname_x',
          `AVERYLONGNAM-${ids.get('AVERYLONGNAME_X')!}`,
        ]);
        // A renamed name fits the sign-up pattern and length, so its owner can log in with it.
        for (const row of after) expect(String(row['name'])).toMatch(/^[A-Za-z0-9_.-]{3,24}$/);
        expect(await migrate(driver, () => 3)).toEqual(MIGRATIONS.slice(4).map((m) => m.version));
        const again = await storage.createUser({ name: 'ANN', passwordHash: 'h', passwordSalt: 's' });
        expect(again.ok ? null : again.error.code).toBe('NAME_TAKEN');
        expect((await storage.userByName('VICTIM'))?.name).toBe('victim');
      } finally {
        await storage.close();
      }
    });
  });
}
