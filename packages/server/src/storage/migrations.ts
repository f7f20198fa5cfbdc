/**
 * The schema, as ordered migrations. `migrate` runs on every start: it creates the `schema_migrations`
 * table, then applies, in order and each in its own transaction, every migration whose version is not
 * recorded there yet, recording it in the same transaction — so running it again (or after a crash in
 * the middle) does exactly what is left. A database newer than the program is refused. Each of those
 * transactions holds the schema lock, so that several processes migrating one database at once apply
 * each migration once.
 *
 * The DDL is written once for both dialects: `{{id}}` is an auto-numbered integer primary key,
 * `{{clustered}}` after a table stores it in its key's order where the dialect can, every other type
 * (BIGINT, INTEGER, TEXT) means the same in SQLite and PostgreSQL; `{{append only: TABLE}}` is each
 * dialect's triggers that refuse changing or deleting the table's rows.
 */
import type { SqlDialect, SqlDriver, SqlExecutor } from './sql.js';
import { intCol } from './sql.js';
import { GENESIS_HASH } from './staff-chain.js';

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
  {
    version: 4,
    name: 'names unique regardless of case; a player’s ledger accounts by user',
    // `victim`, `Victim` and `VICTIM` were three accounts: one impersonated another. Of names equal
    // regardless of case the oldest account keeps its name; each later one is renamed to the first 12
    // characters of its name, a dash and its id (a name the sign-up pattern allows, at most 24 long), so
    // that its owner still logs in. Names are ASCII (the protocol's pattern), where lower() is the same
    // in SQLite and PostgreSQL. The index by user lets the play-money ceiling count a player's seats.
    sql: `
UPDATE users SET name = substr(name, 1, 12) || '-' || CAST(id AS TEXT)
 WHERE EXISTS (SELECT 1 FROM users older WHERE lower(older.name) = lower(users.name) AND older.id < users.id);
CREATE UNIQUE INDEX users_name_any_case ON users (lower(name));
CREATE INDEX ledger_accounts_user ON ledger_accounts (user_id, currency);
`,
  },
  {
    version: 5,
    name: 'staff roles and their second factor',
    // A player has neither. The TOTP secret is the shared key the staff member's authenticator holds.
    sql: `
ALTER TABLE users ADD COLUMN role TEXT;
ALTER TABLE users ADD COLUMN totp_secret TEXT;
`,
  },
  {
    version: 6,
    name: 'the staff audit log',
    // Append-only and hash-chained (./staff-audit.ts). The head row is what appends lock and what the
    // check compares the chain's end with, so that entries taken off the end are found too.
    sql: `
CREATE TABLE staff_log (
  seq BIGINT PRIMARY KEY,
  at BIGINT NOT NULL,
  staff_id BIGINT REFERENCES users (id),
  action TEXT NOT NULL,
  detail TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TABLE staff_log_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL
);
INSERT INTO staff_log_head (id, seq, hash) VALUES (1, 0, '${GENESIS_HASH}');
{{append only: staff_log}}
`,
  },
  {
    version: 7,
    name: 'suspended accounts',
    sql: `
ALTER TABLE users ADD COLUMN suspended_at BIGINT;
`,
  },
  {
    version: 8,
    name: 'tournament prize pools',
    // A prize pool is a ledger account of its tournament: the audit reports each one by this column.
    sql: `
ALTER TABLE ledger_accounts ADD COLUMN tournament_id TEXT;
CREATE INDEX ledger_accounts_tournament ON ledger_accounts (tournament_id);
`,
  },
  {
    version: 9,
    name: 'tournament checkpoints',
    sql: `
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY,
  checkpoint TEXT NOT NULL,
  over INTEGER NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
  },
  {
    version: 10,
    name: 'provably fair dealing',
    // Each table's chain (docs/fairness.md): the next hand's number, the commitment it names and its
    // secret, stored before its commitment is published, so that a restart keeps the chain. Each hand
    // keeps its secret and the contributions it used, and when they may be given to its players.
    sql: `
CREATE TABLE fair_chains (
  table_id TEXT PRIMARY KEY,
  hand BIGINT NOT NULL,
  previous TEXT NOT NULL,
  secret TEXT NOT NULL
);
ALTER TABLE hands ADD COLUMN fair_secret TEXT;
ALTER TABLE hands ADD COLUMN fair_contributions TEXT;
ALTER TABLE hands ADD COLUMN fair_reveal_at BIGINT;
`,
  },
  {
    version: 11,
    name: 'cluster members and table leases',
    // Used only by a room of several processes on PostgreSQL (../cluster/), which judges every time in
    // them by the database's clock; in SQLite the tables stay empty (the types are names only there).
    sql: `
CREATE TABLE cluster_members (
  id {{id}},
  label TEXT NOT NULL,
  address TEXT NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  heartbeat_at TIMESTAMPTZ NOT NULL,
  left_at TIMESTAMPTZ
);
CREATE TABLE table_leases (
  table_id TEXT PRIMARY KEY,
  member_id BIGINT NOT NULL REFERENCES cluster_members (id),
  epoch BIGINT NOT NULL,
  acquired_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX table_leases_member ON table_leases (member_id);
`,
  },
  {
    version: 12,
    name: 'muted accounts',
    sql: `
ALTER TABLE users ADD COLUMN muted_at BIGINT;
`,
  },
  {
    version: 13,
    name: 'player notes',
    sql: `
CREATE TABLE player_notes (
  owner_id BIGINT NOT NULL REFERENCES users (id),
  about_id BIGINT NOT NULL REFERENCES users (id),
  colour TEXT,
  note TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (owner_id, about_id)
);
`,
  },
  {
    version: 16,
    name: 'ledger lookups by account and by memo',
    // The console's ledger view: a player's transactions (through his accounts' postings) and a hand's
    // (its settlement's memo), without reading the whole ledger.
    sql: `
CREATE INDEX ledger_postings_account ON ledger_postings (account_key, transaction_id);
CREATE INDEX ledger_transactions_memo ON ledger_transactions (memo);
`,
  },
  {
    version: 19,
    name: 'artificial all-ins granted, for the limit across processes',
    // A room on several processes counts each player's artificial all-ins of the last 24 hours whichever
    // process granted them (cluster/all-ins.ts); one process counts them in memory and writes none.
    sql: `
CREATE TABLE all_in_grants (
  id {{id}},
  account BIGINT NOT NULL,
  granted_at BIGINT NOT NULL
);
CREATE INDEX all_in_grants_at ON all_in_grants (granted_at);
`,
  },
  {
    version: 20,
    name: 'hands handed over in play',
    // Each hand keeps the state it was dealt from (table/hand-start.ts, JSON), so that another process can
    // go on with it from its journal; a lease released with its table's hand still running names
    // itself (its epoch) as handed over in play, so that the next owner — and only that one — resumes
    // the hand instead of cancelling it (cluster/registry.ts).
    sql: `
ALTER TABLE hands ADD COLUMN start_state TEXT;
ALTER TABLE table_leases ADD COLUMN handed_over_epoch BIGINT;
`,
  },
  {
    version: 21,
    name: 'leases of the tournaments as well as of tables',
    // A room on several processes has one member direct its tournaments, through a lease of that kind
    // (cluster/tournaments.ts): renewed, fenced and taken over like a table's, but no table of the lobby.
    sql: `
ALTER TABLE table_leases ADD COLUMN kind TEXT NOT NULL DEFAULT 'table';
`,
  },
  {
    version: 22,
    name: 'waiting lists, shared by the processes of a room',
    // A room on several processes keeps its waiting lists here (cluster/waiting-lists.ts), in the order
    // the players joined (id); one process keeps them in memory and writes none.
    sql: `
CREATE TABLE waiting_lists (
  id {{id}},
  table_id TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users (id),
  UNIQUE (table_id, user_id)
);
`,
  },
  {
    version: 23,
    name: 'tables the staff closed, in a room of several processes',
    // No process takes a closed table's lease again, and every process takes it out of its lobby
    // (cluster/registry.ts); one process closes a table in memory and writes none.
    sql: `
CREATE TABLE closed_tables (
  table_id TEXT PRIMARY KEY,
  closed_at TIMESTAMPTZ NOT NULL
);
`,
  },
  {
    version: 25,
    name: 'members stopping, in a room of several processes',
    // Processes stopped together hand nothing over to each other: each, finding no other member that
    // is not stopping, keeps the rule of the last one (cluster/member.ts `finishHands`).
    sql: `
ALTER TABLE cluster_members ADD COLUMN leaving_at TIMESTAMPTZ;
`,
  },
  {
    version: 26,
    name: "cluster members' public keys",
    // Each member's bus messages prove themselves with these (cluster/bus-crypto.ts).
    sql: `
ALTER TABLE cluster_members ADD COLUMN sign_key TEXT;
ALTER TABLE cluster_members ADD COLUMN box_key TEXT;
`,
  },
  {
    version: 27,
    name: 'the kind of room a database is; seat accounts by table',
    // One row, written by the first server to start (./room-mode.ts): a server of the other kind would
    // recover the database's seats its own way under the live room. A database from before knows its
    // kind by what it holds: cluster members, or players without any. The live audit reads one table's
    // seat accounts at a time (ledger/live-stacks.ts).
    sql: `
CREATE INDEX ledger_accounts_table ON ledger_accounts (table_id);
CREATE TABLE room_mode (
  id INTEGER PRIMARY KEY,
  mode TEXT NOT NULL,
  claimed_at TIMESTAMPTZ NOT NULL
);
INSERT INTO room_mode (id, mode, claimed_at)
  SELECT 1, 'cluster', CURRENT_TIMESTAMP WHERE EXISTS (SELECT 1 FROM cluster_members);
INSERT INTO room_mode (id, mode, claimed_at)
  SELECT 1, 'one-process', CURRENT_TIMESTAMP
   WHERE NOT EXISTS (SELECT 1 FROM cluster_members) AND EXISTS (SELECT 1 FROM users);
`,
  },
  {
    version: 28,
    name: 'the last TOTP step each staff account signed in with',
    // A code is refused once its step was taken (RFC 6238 §5.2), on every process and after restarts.
    sql: `
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;
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

/** Triggers that refuse every UPDATE and DELETE of a table's rows (and, in PostgreSQL, TRUNCATE). */
const APPEND_ONLY: Record<SqlDialect, (table: string) => string> = {
  sqlite: (table) => `
CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table}
  BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END;
CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table}
  BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END;`,
  postgres: (table) => `
CREATE FUNCTION ${table}_append_only() RETURNS trigger LANGUAGE plpgsql
  AS $$ BEGIN RAISE EXCEPTION '${table} is append-only'; END $$;
CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION ${table}_append_only();
CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION ${table}_append_only();`,
};

/** The migration's DDL for a dialect. */
export function migrationSql(migration: Migration, dialect: SqlDialect): string {
  return migration.sql
    .replaceAll('{{id}}', ID_COLUMN[dialect])
    .replaceAll('{{clustered}}', CLUSTERED[dialect])
    .replaceAll(/\{\{append only: (\w+)\}\}/g, (_, table: string) => APPEND_ONLY[dialect](table));
}

/**
 * Taken first by every transaction that changes the schema, so that processes started at once on one
 * empty database create it once: PostgreSQL's advisory lock for the transaction (its key is Felt's, in
 * this database). SQLite's write transaction holds the whole database already.
 */
const SCHEMA_LOCK: Record<SqlDialect, string | null> = {
  sqlite: null,
  postgres: "SELECT pg_advisory_xact_lock(hashtext('felt schema'))",
};

/** Runs `fn` in one transaction that holds the schema lock. */
function withSchemaLock<T>(driver: SqlDriver, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return driver.transaction(async (tx) => {
    const lock = SCHEMA_LOCK[tx.dialect];
    if (lock !== null) await tx.run(lock);
    return fn(tx);
  });
}

/**
 * The versions applied so far, the table of them created first if there is none. Read before any
 * DDL, so that a role allowed only to read and write the tables (docs/deploy.md#postgresql) starts on
 * a database already migrated: even `CREATE TABLE IF NOT EXISTS` needs the right to create.
 */
async function appliedVersions(driver: SqlDriver) {
  try {
    return await driver.all('SELECT version FROM schema_migrations');
  } catch {
    await withSchemaLock(driver, (tx) =>
      tx.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
      ),
    );
    return driver.all('SELECT version FROM schema_migrations');
  }
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
  const applied = new Set((await appliedVersions(driver)).map((row) => intCol(row, 'version')));
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
    await withSchemaLock(driver, async (tx) => {
      // Re-checked under the lock: another process may have migrated meanwhile.
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
