/**
 * Reading the ledger's transactions back (the staff console's ledger view): one by its id with every
 * posting, and those that involve a player or a hand.
 */
import {
  handCancelledMemo,
  handMemo,
  type LedgerAccount,
  type LedgerLookups,
  type LedgerTransactionRecord,
  type TransactionKind,
} from './ledger.js';
import { currencyOf, type SqlContext } from './sql-common.js';
import { intCol, textCol, textColOrNull, type SqlExecutor, type SqlRow } from './sql.js';

function accountOf(row: SqlRow): LedgerAccount {
  const currency = currencyOf(row);
  const kind = textCol(row, 'account_kind');
  switch (kind) {
    case 'user':
      return { kind, currency, userId: intCol(row, 'user_id') };
    case 'seat':
      return { kind, currency, userId: intCol(row, 'user_id'), tableId: textCol(row, 'table_id') };
    case 'pot':
      return { kind, currency, handId: intCol(row, 'hand_id') };
    case 'house':
      return { kind, currency };
    case 'prize-pool':
      return { kind, currency, tournamentId: textCol(row, 'tournament_id') };
    case 'cashier':
      return { kind, currency: 'real' };
    case 'top-up':
      return { kind, currency: 'play' };
    default:
      throw new TypeError(`unknown ledger account kind ${kind}`);
  }
}

/** The transactions of these ids, newest first, each with its postings. */
async function withPostings(tx: SqlExecutor, ids: readonly number[]): Promise<LedgerTransactionRecord[]> {
  if (ids.length === 0) return [];
  const among = ids.map(() => '?').join(', ');
  const heads = await tx.all(
    `SELECT id, kind, currency, memo, created_at FROM ledger_transactions WHERE id IN (${among}) ORDER BY id DESC`,
    ids,
  );
  const lines = await tx.all(
    `SELECT p.transaction_id, p.amount, a.kind AS account_kind, a.currency, a.user_id, a.table_id,
            a.hand_id, a.tournament_id
       FROM ledger_postings p JOIN ledger_accounts a ON a.account_key = p.account_key
      WHERE p.transaction_id IN (${among})
      ORDER BY p.transaction_id, p.account_key`,
    ids,
  );
  return heads.map((head) => {
    const id = intCol(head, 'id');
    return {
      id,
      kind: textCol(head, 'kind') as TransactionKind,
      currency: currencyOf(head),
      memo: textColOrNull(head, 'memo'),
      createdAt: intCol(head, 'created_at'),
      postings: lines
        .filter((line) => intCol(line, 'transaction_id') === id)
        .map((line) => ({ account: accountOf(line), amount: intCol(line, 'amount') })),
    };
  });
}

export function sqlLedgerLookups({ driver }: SqlContext): LedgerLookups {
  return {
    ledgerTransaction(id) {
      return driver.transaction(async (tx) => (await withPostings(tx, [id]))[0] ?? null, { readOnly: true });
    },

    ledgerTransactionsOf(about, limit) {
      return driver.transaction(
        async (tx) => {
          const rows =
            'userId' in about
              ? await tx.all(
                  `SELECT DISTINCT p.transaction_id AS id
                     FROM ledger_accounts a JOIN ledger_postings p ON p.account_key = a.account_key
                    WHERE a.user_id = ? ORDER BY id DESC LIMIT ?`,
                  [about.userId, limit],
                )
              : await tx.all(
                  'SELECT id FROM ledger_transactions WHERE memo IN (?, ?) ORDER BY id DESC LIMIT ?',
                  [handMemo(about.handId), handCancelledMemo(about.handId), limit],
                );
          return withPostings(
            tx,
            rows.map((row) => intCol(row, 'id')),
          );
        },
        { readOnly: true },
      );
    },
  };
}
