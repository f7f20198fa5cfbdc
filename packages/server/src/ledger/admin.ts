/**
 * The operator's commands on the ledger, behind `felt admin` (packages/cli/src/commands/admin.ts): the
 * audit, and the real-money cashier. Each returns the one JSON object the command prints and its exit
 * status; they open the data directory's database themselves (alongside a running server if need be:
 * SQLite's WAL lets the audit read while the room writes, and the cashier waits for the room's write
 * lock).
 */
import { existsSync } from 'node:fs';
import { databaseFile, openMigratedSqliteStorage } from '../storage/index.js';
import { StorageErrorCode, type AuditReport, type Balances, type Storage } from '../storage/types.js';

/** The typed errors of the admin commands: the storage's, and a missing database. */
export const AdminErrorCode = { ...StorageErrorCode, NO_DATABASE: 'NO_DATABASE' } as const;
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

const failure = (code: AdminErrorCode, message: string): AdminOutcome<never> => ({
  output: { ok: false, error: { code, message } },
  exitCode: 1,
});

async function withStorage<T>(
  dataDir: string,
  fn: (storage: Storage) => Promise<AdminOutcome<T>>,
): Promise<AdminOutcome<T>> {
  if (!existsSync(databaseFile(dataDir))) {
    return failure(
      AdminErrorCode.NO_DATABASE,
      `no database in ${dataDir} (start the server once, or pass --data DIR)`,
    );
  }
  const storage = await openMigratedSqliteStorage({ dataDir });
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}

/** `felt admin audit`: the audit report; exit 1 when not conserved. */
export function adminAudit(dataDir: string): Promise<AdminOutcome<AuditReport>> {
  return withStorage(dataDir, async (storage) => {
    const report = await storage.audit();
    return { output: report, exitCode: report.conserved ? 0 : 1 };
  });
}

/** `felt admin credit|debit`: real money into or out of a player's balance, by the operator. */
export function adminCashier(
  dataDir: string,
  direction: 'credit' | 'debit',
  userName: string,
  amount: number,
): Promise<AdminOutcome<CashierDone>> {
  return withStorage(dataDir, async (storage) => {
    const user = await storage.userByName(userName);
    if (user === null) return failure(AdminErrorCode.UNKNOWN_USER, `no user ${JSON.stringify(userName)}`);
    const result = await storage.cashier(user.id, direction, amount);
    if (!result.ok) return failure(result.error.code, result.error.message);
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
