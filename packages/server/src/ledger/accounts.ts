/**
 * Ledger accounts and the rules every transaction obeys, as pure functions (no I/O): an account's key,
 * which accounts may go below zero, and the validation of a list of postings (one currency, integer
 * amounts, sum 0).
 */
import { fail, ok } from '@felt/engine';
import {
  StorageErrorCode,
  type Currency,
  type HandId,
  type LedgerAccount,
  type LedgerAccountKind,
  type Posting,
  type StorageResult,
  type UserId,
} from '../storage/types.js';

/**
 * The account's unique key: `user:real:7`, `seat:play:7:table-id`, `pot:real:123`, `house:real`,
 * `cashier:real`, `top-up:play`, `prize-pool:real:spring-1`. The table or tournament id comes last because it may contain any character.
 */
export function accountKey(account: LedgerAccount): string {
  switch (account.kind) {
    case 'user':
      return `user:${account.currency}:${account.userId}`;
    case 'seat':
      return `seat:${account.currency}:${account.userId}:${account.tableId}`;
    case 'pot':
      return `pot:${account.currency}:${account.handId}`;
    case 'prize-pool':
      return `prize-pool:${account.currency}:${account.tournamentId}`;
    case 'house':
    case 'cashier':
    case 'top-up':
      return `${account.kind}:${account.currency}`;
  }
}

/** The columns stored with an account, for queries by kind, user, table or hand. */
export function accountColumns(account: LedgerAccount): {
  readonly userId: UserId | null;
  readonly tableId: string | null;
  readonly handId: HandId | null;
  readonly tournamentId: string | null;
} {
  const none = { userId: null, tableId: null, handId: null, tournamentId: null };
  switch (account.kind) {
    case 'user':
      return { ...none, userId: account.userId };
    case 'seat':
      return { ...none, userId: account.userId, tableId: account.tableId };
    case 'pot':
      return { ...none, handId: account.handId };
    case 'prize-pool':
      return { ...none, tournamentId: account.tournamentId };
    case 'house':
    case 'cashier':
    case 'top-up':
      return none;
  }
}

/** The external sources: the only accounts whose balance may be negative (what they paid in). */
export const SOURCE_KINDS: readonly LedgerAccountKind[] = ['cashier', 'top-up'];

export const isSource = (kind: LedgerAccountKind): boolean => SOURCE_KINDS.includes(kind);

/** The external source of a currency: the cashier for real money, the top-up for play money. */
export const sourceOf = (currency: Currency): LedgerAccount =>
  currency === 'real' ? { kind: 'cashier', currency } : { kind: 'top-up', currency };

/** A positive amount that fits in an integer column exactly. */
export const isPositiveAmount = (amount: number): boolean => Number.isSafeInteger(amount) && amount > 0;

/** Checks a transaction before it is written: at least one posting, integer amounts, one currency, sum 0. */
export function validatePostings(postings: readonly Posting[]): StorageResult<Currency> {
  const first = postings[0];
  if (first === undefined) return fail(StorageErrorCode.UNBALANCED, 'a transaction needs postings');
  let sum = 0;
  for (const { account, amount } of postings) {
    if (!Number.isSafeInteger(amount)) {
      return fail(StorageErrorCode.BAD_AMOUNT, `amounts are whole cents, got ${amount}`);
    }
    if (account.currency !== first.account.currency) {
      return fail(StorageErrorCode.UNBALANCED, 'a transaction may not mix currencies');
    }
    sum += amount;
  }
  if (!Number.isSafeInteger(sum)) return fail(StorageErrorCode.BAD_AMOUNT, 'amounts too large');
  if (sum !== 0) return fail(StorageErrorCode.UNBALANCED, `postings add up to ${sum}, not 0`);
  return ok(first.account.currency);
}
