/**
 * The schema, as ordered migrations. `migrate` runs on every start: it creates the `schema_migrations`
 * table, then applies, in order and each in its own transaction, every migration whose version is not
 * recorded there yet, recording it in the same transaction — so running it again (or after a crash in
 * the middle) does exactly what is left. A database newer than the program is refused.
 *
 * The DDL is written once for both dialects: `{{id}}` is an auto-numbered integer primary key,
 * `{{clustered}}` after a table stores it in its key's order where the dialect can, every other type
 * (BIGINT, INTEGER, TEXT) means the same in SQLite and PostgreSQL.
 */
import type { SqlDialect, SqlDriver } from './sql.js';
import { intCol } from './sql.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, ledger, hands',
    sql: `
CREATE TABLE users (
  id {{id}},
  name TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  password_salt TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users (id),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE ledger_accounts (
  account_key TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  currency TEXT NOT NULL,
  user_id BIGINT,
  table_id TEXT,
  hand_id BIGINT,
  balance BIGINT NOT NULL
);
CREATE INDEX ledger_accounts_kind ON ledger_accounts (kind, currency);
CREATE TABLE ledger_transactions (
  id {{id}},
  kind TEXT NOT NULL,
  currency TEXT NOT NULL,
  memo TEXT,
  created_at BIGINT NOT NULL
);
CREATE TABLE ledger_postings (
  transaction_id BIGINT NOT NULL REFERENCES ledger_transactions (id),
  account_key TEXT NOT NULL REFERENCES ledger_accounts (account_key),
  amount BIGINT NOT NULL
);
CREATE INDEX ledger_postings_transaction ON ledger_postings (transaction_id);

CREATE TABLE hands (
  id {{id}},
  table_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  description TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  ended_at BIGINT,
  rake BIGINT NOT NULL DEFAULT 0,
  phh TEXT,
  text TEXT
);
CREATE INDEX hands_status ON hands (status);
CREATE TABLE hand_players (
  hand_id BIGINT NOT NULL REFERENCES hands (id),
  user_id BIGINT NOT NULL REFERENCES users (id),
  seat INTEGER NOT NULL,
  position INTEGER NOT NULL,
  contributed BIGINT NOT NULL DEFAULT 0,
  won BIGINT NOT NULL DEFAULT 0,
  phh TEXT,
  text TEXT,
  PRIMARY KEY (hand_id, user_id)
);
CREATE INDEX hand_players_user ON hand_players (user_id, hand_id);
CREATE TABLE hand_actions (
  hand_id BIGINT NOT NULL REFERENCES hands (id),
  seq INTEGER NOT NULL,
  action TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (hand_id, seq)
);
`,
  },
  {
    version: 2,
    name: 'histories kept as PHH only',
    // The readable text is made from the PHH when a history is asked for (table/history.ts).
    sql: `
ALTER TABLE hands DROP COLUMN text;
ALTER TABLE hand_players DROP COLUMN text;
`,
  },
  {
    version: 3,
    name: 'the actions of a hand stored together',
    // In SQLite a table with a rowid keeps its rows in insertion order: a hand's actions lay among every
    // other table's, so deleting them at its end rewrote a page per action. Stored in key order, they sit
    // together, and each action writes one page of the journal instead of two or three.
    sql: `
CREATE TABLE hand_actions_by_hand (
  hand_id BIGINT NOT NULL REFERENCES hands (id),
  seq INTEGER NOT NULL,
  action TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (hand_id, seq)
){{clustered}};
INSERT INTO hand_actions_by_hand (hand_id, seq, action, created_at)
  SELECT hand_id, seq, action, created_at FROM hand_actions;
DROP TABLE hand_actions;
ALTER TABLE hand_actions_by_hand RENAME TO hand_actions;
`,
  },
];

const ID_COLUMN: Record<SqlDialect, string> = {
  sqlite: 'INTEGER PRIMARY KEY',
  postgres: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
};

/** A table stored in its primary key's order (PostgreSQL: a heap, as every table). */
const CLUSTERED: Record<SqlDialect, string> = {
  sqlite: ' WITHOUT ROWID',
  postgres: '',
};

/** The migration's DDL for a dialect. */
export function migrationSql(migration: Migration, dialect: SqlDialect): string {
  return migration.sql
    .replaceAll('{{id}}', ID_COLUMN[dialect])
    .replaceAll('{{clustered}}', CLUSTERED[dialect]);
}

/** Applies every migration not yet applied; returns the versions it applied. */
export async function migrate(
  driver: SqlDriver,
  now: () => number,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version <= migrations[i - 1]!.version) {
      throw new Error('migrations must be in strictly increasing version order');
    }
  }
  await driver.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  );
  const applied = new Set(
    (await driver.all('SELECT version FROM schema_migrations')).map((row) => intCol(row, 'version')),
  );
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new Error(
      `the database has migrations this program does not know (${unknown.join(', ')}): it is newer`,
    );
  }
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await driver.transaction(async (tx) => {
      // Re-checked inside the transaction: another process may have migrated meanwhile.
      const again = await tx.get('SELECT version FROM schema_migrations WHERE version = ?', [
        migration.version,
      ]);
      if (again !== undefined) return;
      await tx.exec(migrationSql(migration, driver.dialect));
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        now(),
      ]);
      done.push(migration.version);
    });
  }
  return done;
}
