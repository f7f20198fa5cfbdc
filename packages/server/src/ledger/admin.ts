/**
 * The operator's commands on the ledger, behind `felt admin` (packages/cli/src/commands/admin.ts): the
 * audit, and the real-money cashier. Each returns the one JSON object the command prints and its exit
 * status; they open the room's database themselves — the data directory's SQLite file or a PostgreSQL
 * database — alongside a running server if need be (SQLite's WAL, like PostgreSQL, lets the audit read
 * while the room writes; the cashier waits for the room's write lock, in PostgreSQL for the rows only).
 */
import { existsSync } from 'node:fs';
import {
  databaseFile,
  migrated,
  openMigratedSqliteStorage,
  PostgresDriver,
  sqlStorage,
} from '../storage/index.js';
import { OpenErrorCode, StorageOpenError } from '../storage/open-errors.js';
import {
  StorageErrorCode,
  type AuditReport,
  type Balances,
  type StaffLogCheck,
  type Storage,
} from '../storage/types.js';

/** The typed errors of the admin commands: the storage's, a database that cannot be opened or is missing. */
export const AdminErrorCode = {
  ...StorageErrorCode,
  ...OpenErrorCode,
  NO_DATABASE: 'NO_DATABASE',
  /** The database failed otherwise (I/O, a lock held too long); the message says how. */
  STORAGE_FAILED: 'STORAGE_FAILED',
} as const;
export type AdminErrorCode = (typeof AdminErrorCode)[keyof typeof AdminErrorCode];

export interface AdminError {
  readonly ok: false;
  readonly error: { readonly code: AdminErrorCode; readonly message: string };
}

export interface CashierDone {
  readonly ok: true;
  readonly action: 'credit' | 'debit';
  readonly user: string;
  readonly userId: number;
  readonly amount: number;
  readonly balances: Balances;
}

/** What a command prints (one JSON line) and its exit status: 0, or 1 for an error or a failed audit. */
export interface AdminOutcome<T> {
  readonly output: T | AdminError;
  readonly exitCode: 0 | 1;
}

export const failure = (code: AdminErrorCode, message: string): AdminOutcome<never> => ({
  output: { ok: false, error: { code, message } },
  exitCode: 1,
});

/** Where the room's database is: a data directory (SQLite, `felt.db` in it) or a PostgreSQL database. */
export type AdminDatabase = string | { readonly url: string };

/** The storage, or why there is none: no file in the directory, or no Felt schema in the database. */
async function open(where: AdminDatabase): Promise<Storage | AdminOutcome<never>> {
  if (typeof where === 'string') {
    if (!existsSync(databaseFile(where))) {
      return failure(
        AdminErrorCode.NO_DATABASE,
        `no database in ${where} (start the server once, or pass --data DIR)`,
      );
    }
    return openMigratedSqliteStorage({ dataDir: where });
  }
  const driver = new PostgresDriver({ url: where.url, poolSize: 2 });
  try {
    const found = await driver.get("SELECT to_regclass('schema_migrations') IS NOT NULL AS found");
    if (found?.['found'] !== true) {
      await driver.close();
      return failure(AdminErrorCode.NO_DATABASE, 'no Felt schema in this database (start the server once)');
    }
  } catch (error) {
    await driver.close();
    return failure(
      AdminErrorCode.NO_DATABASE,
      `PostgreSQL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return migrated(sqlStorage(driver));
}

/**
 * Runs a command on the database. Whatever fails on the way — a damaged file refused at open, SQLite
 * finding a damaged page mid-audit — is still the command's one JSON line, with the error's words.
 */
export async function withStorage<T>(
  where: AdminDatabase,
  fn: (storage: Storage) => Promise<AdminOutcome<T>>,
): Promise<AdminOutcome<T>> {
  try {
    const storage = await open(where);
    if ('exitCode' in storage) return storage;
    try {
      return await fn(storage);
    } finally {
      await storage.close();
    }
  } catch (error) {
    return failure(errorCodeOf(error), error instanceof Error ? error.message : String(error));
  }
}

/** A damaged database (refused at open, or met by SQLite on the way), or any other storage failure. */
function errorCodeOf(error: unknown): AdminErrorCode {
  if (error instanceof StorageOpenError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')
    ? AdminErrorCode.CORRUPT_DATABASE
    : AdminErrorCode.STORAGE_FAILED;
}

/** The ledger's audit, and the check of the staff audit log's chain. */
export interface AdminAuditReport extends AuditReport {
  readonly staffLog: StaffLogCheck;
}

/** `felt admin audit`: the audit report and the staff log's check; exit 1 when not conserved or not intact. */
export function adminAudit(where: AdminDatabase): Promise<AdminOutcome<AdminAuditReport>> {
  return withStorage(where, async (storage) => {
    const report = await storage.audit();
    const staffLog = await storage.checkStaffLog();
    return { output: { ...report, staffLog }, exitCode: report.conserved && staffLog.intact ? 0 : 1 };
  });
}

/**
 * Appends what `felt admin` did to the staff audit log (as the machine's operator: no staff account),
 * after it was done. A failure to log is the command's failure, so that no unlogged action reports success.
 */
export async function logAdminAction(
  storage: Storage,
  action: string,
  detail: Readonly<Record<string, unknown>>,
): Promise<AdminOutcome<never> | null> {
  const logged = await storage.appendStaffAction({ staffId: null, action, detail: JSON.stringify(detail) });
  return logged.ok ? null : failure(logged.error.code, `done but not logged: ${logged.error.message}`);
}

/** `felt admin credit|debit`: real money into or out of a player's balance, by the operator. */
export function adminCashier(
  where: AdminDatabase,
  direction: 'credit' | 'debit',
  userName: string,
  amount: number,
): Promise<AdminOutcome<CashierDone>> {
  return withStorage(where, async (storage) => {
    const user = await storage.userByName(userName);
    if (user === null) return failure(AdminErrorCode.UNKNOWN_USER, `no user ${JSON.stringify(userName)}`);
    const result = await storage.cashier(user.id, direction, amount);
    if (!result.ok) return failure(result.error.code, result.error.message);
    const unlogged = await logAdminAction(storage, `cashier-${direction}`, { userId: user.id, amount });
    if (unlogged !== null) return unlogged;
    return {
      output: {
        ok: true,
        action: direction,
        user: user.name,
        userId: user.id,
        amount,
        balances: result.value,
      },
      exitCode: 0,
    };
  });
}
