/** What the SQL parts of the storage (./sql-storage.ts) share: their context, refusals and row readers. */
import { fail, ok } from '@felt/engine';
import { isPositiveAmount } from '../ledger/accounts.js';
import { StorageErrorCode, type Currency, type StorageResult, type UserId } from './common.js';
import { textCol, type SqlDriver, type SqlExecutor, type SqlRow } from './sql.js';

/** The database and the clock every part writes its timestamps with. */
export interface SqlContext {
  readonly driver: SqlDriver;
  readonly clock: () => number;
}

/** A refusal inside a transaction: thrown to roll it back, returned to the caller as a typed error. */
class Refusal extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const refuse = (code: StorageErrorCode, message: string): never => {
  throw new Refusal(code, message);
};

/** Runs `fn` as one transaction; a refusal rolls it back and becomes a typed error. */
export async function atomically<T>(
  driver: SqlDriver,
  fn: (tx: SqlExecutor) => Promise<T>,
): Promise<StorageResult<T>> {
  try {
    return ok(await driver.transaction(fn));
  } catch (error) {
    if (error instanceof Refusal) return fail(error.code, error.message);
    throw error;
  }
}

export async function requireUser(tx: SqlExecutor, userId: UserId): Promise<void> {
  if ((await tx.get('SELECT id FROM users WHERE id = ?', [userId])) === undefined) {
    refuse(StorageErrorCode.UNKNOWN_USER, `no user ${userId}`);
  }
}

/** Refuses a staff account: it moves no real money into play or into its balance. */
export async function requirePlayer(tx: SqlExecutor, userId: UserId): Promise<void> {
  const row = await tx.get('SELECT role FROM users WHERE id = ?', [userId]);
  if (row === undefined) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${userId}`);
  if (row!['role'] !== null) {
    refuse(StorageErrorCode.STAFF_ACCOUNT, 'a staff account does not play for real money');
  }
}

export function requireAmount(amount: number): void {
  if (!isPositiveAmount(amount))
    refuse(StorageErrorCode.BAD_AMOUNT, `amounts are whole cents above 0, got ${amount}`);
}

export function currencyOf(row: SqlRow): Currency {
  const currency = textCol(row, 'currency');
  if (currency !== 'play' && currency !== 'real') throw new TypeError(`unknown currency ${currency}`);
  return currency;
}
