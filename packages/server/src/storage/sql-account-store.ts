/** The account store (./account-store.ts) over the portable query layer: the `users` and `sessions` tables. */
import { STAFF_ROLES, StorageErrorCode, type StaffRole } from './common.js';
import type { AccountStore, SessionRecord, UserRecord } from './account-store.js';
import { sourceOf } from '../ledger/accounts.js';
import { atomically, refuse, requireAmount, requireUser, type SqlContext } from './sql-common.js';
import { transfer } from './sql-ledger.js';
import { intCol, textCol, textColOrNull, type SqlRow } from './sql.js';

const USER_COLUMNS =
  'id, name, password_hash, password_salt, created_at, role, totp_secret, suspended_at, muted_at';

function userFromRow(row: SqlRow): UserRecord {
  return {
    id: intCol(row, 'id'),
    name: textCol(row, 'name'),
    passwordHash: textCol(row, 'password_hash'),
    passwordSalt: textCol(row, 'password_salt'),
    createdAt: intCol(row, 'created_at'),
    role: roleOf(textColOrNull(row, 'role')),
    totpSecret: textColOrNull(row, 'totp_secret'),
    suspendedAt: row['suspended_at'] === null ? null : intCol(row, 'suspended_at'),
    mutedAt: row['muted_at'] === null ? null : intCol(row, 'muted_at'),
  };
}

function sessionFromRow(row: SqlRow): SessionRecord {
  return {
    tokenHash: textCol(row, 'token_hash'),
    userId: intCol(row, 'user_id'),
    createdAt: intCol(row, 'created_at'),
    expiresAt: intCol(row, 'expires_at'),
  };
}

function roleOf(text: string | null): StaffRole | null {
  if (text === null) return null;
  const role = STAFF_ROLES.find((known) => known === text);
  if (role === undefined) throw new TypeError(`column role: unknown role ${text}`);
  return role;
}

export function sqlAccountStore({ driver, clock }: SqlContext): AccountStore {
  return {
    createUser(user) {
      return atomically(driver, async (tx) => {
        if (user.name.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a user needs a name');
        const playMoney = user.playMoney ?? 0;
        if (playMoney !== 0) requireAmount(playMoney);
        // One statement: two sign-ups with one name at once make one user, and the other is told. No
        // conflict target: the unique one that matters is the name regardless of case (migration 4).
        const row = await tx.get(
          `INSERT INTO users (name, password_hash, password_salt, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
          [user.name, user.passwordHash, user.passwordSalt, clock()],
        );
        if (row === undefined) {
          refuse(StorageErrorCode.NAME_TAKEN, `the name ${JSON.stringify(user.name)} is taken`);
        }
        const created = userFromRow(row!);
        if (playMoney > 0) {
          await transfer(tx, clock, 'top-up', [
            { account: sourceOf('play'), amount: -playMoney },
            { account: { kind: 'user', currency: 'play', userId: created.id }, amount: playMoney },
          ]);
        }
        return created;
      });
    },

    async userById(id) {
      const row = await driver.get(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
      return row === undefined ? null : userFromRow(row);
    },

    async userByName(name) {
      const row = await driver.get(`SELECT ${USER_COLUMNS} FROM users WHERE lower(name) = lower(?)`, [name]);
      return row === undefined ? null : userFromRow(row);
    },

    setPassword(id, passwordHash, passwordSalt) {
      return atomically(driver, async (tx) => {
        const changed = await tx.run('UPDATE users SET password_hash = ?, password_salt = ? WHERE id = ?', [
          passwordHash,
          passwordSalt,
          id,
        ]);
        if (changed === 0) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${id}`);
      });
    },

    setRole(id, staff) {
      return atomically(driver, async (tx) => {
        const changed = await tx.run('UPDATE users SET role = ?, totp_secret = ? WHERE id = ?', [
          staff?.role ?? null,
          staff?.totpSecret ?? null,
          id,
        ]);
        if (changed === 0) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${id}`);
        await tx.run('DELETE FROM sessions WHERE user_id = ?', [id]);
      });
    },

    async takeTotpStep(id, step) {
      const changed = await driver.run(
        'UPDATE users SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)',
        [step, id, step],
      );
      return changed === 1;
    },

    setSuspended(id, suspended) {
      return atomically(driver, async (tx) => {
        const changed = await tx.run('UPDATE users SET suspended_at = ? WHERE id = ?', [
          suspended ? clock() : null,
          id,
        ]);
        if (changed === 0) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${id}`);
        if (suspended) await tx.run('DELETE FROM sessions WHERE user_id = ?', [id]);
      });
    },

    setMuted(id, muted) {
      return atomically(driver, async (tx) => {
        const changed = await tx.run('UPDATE users SET muted_at = ? WHERE id = ?', [
          muted ? clock() : null,
          id,
        ]);
        if (changed === 0) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${id}`);
      });
    },

    createSession(session) {
      return atomically(driver, async (tx) => {
        await requireUser(tx, session.userId);
        const createdAt = clock();
        const changed = await tx.run(
          'INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (token_hash) DO NOTHING',
          [session.tokenHash, session.userId, createdAt, session.expiresAt],
        );
        if (changed === 0) refuse(StorageErrorCode.BAD_REQUEST, 'this session token exists already');
        return { ...session, createdAt };
      });
    },

    async sessionByTokenHash(tokenHash, now = clock()) {
      const row = await driver.get(
        'SELECT token_hash, user_id, created_at, expires_at FROM sessions WHERE token_hash = ? AND expires_at > ?',
        [tokenHash, now],
      );
      return row === undefined ? null : sessionFromRow(row);
    },

    async sessionsOf(userId, now = clock()) {
      const rows = await driver.all(
        `SELECT token_hash, user_id, created_at, expires_at FROM sessions
          WHERE user_id = ? AND expires_at > ? ORDER BY created_at, token_hash`,
        [userId, now],
      );
      return rows.map(sessionFromRow);
    },

    async deleteSession(tokenHash) {
      await driver.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash]);
    },

    async deleteSessionsOf(userId, keepTokenHash) {
      await driver.run('DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?', [
        userId,
        keepTokenHash ?? '',
      ]);
    },

    deleteExpiredSessions(now = clock()) {
      return driver.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
    },
  };
}
