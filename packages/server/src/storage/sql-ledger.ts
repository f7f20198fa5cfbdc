/**
 * The ledger (./ledger.ts) over the portable query layer: the `ledger_*` tables, and the primitives the
 * journal (./sql-hand-journal.ts) posts its settlements and recoveries with.
 */
import { accountColumns, accountKey, isSource, sourceOf, validatePostings } from '../ledger/accounts.js';
import { auditLedger } from '../ledger/audit.js';
import { StorageErrorCode, type UserId } from './common.js';
import type { Balances, Ledger, LedgerAccount, Posting, SeatBalance, TransactionKind } from './ledger.js';
import {
  atomically,
  currencyOf,
  refuse,
  requireAmount,
  requirePlayer,
  requireUser,
  type SqlContext,
} from './sql-common.js';
import { intCol, lockingRead, textCol, type SqlExecutor } from './sql.js';

export type SeatAccount = LedgerAccount & { readonly kind: 'seat' };

const BALANCE = 'SELECT balance FROM ledger_accounts WHERE account_key = ?';
const BALANCE_LOCKED = lockingRead(BALANCE);
const USER_LOCKED = lockingRead('SELECT id FROM users WHERE id = ?');

/**
 * An account's balance (0 if it has none yet). `lock`: the transaction goes on to move chips on what it
 * read, and no other may change the account before it commits.
 */
export async function balanceIn(tx: SqlExecutor, account: LedgerAccount, lock = false): Promise<number> {
  const row = await tx.get(lock ? BALANCE_LOCKED[tx.dialect] : BALANCE, [accountKey(account)]);
  return row === undefined ? 0 : intCol(row, 'balance');
}

async function balancesIn(tx: SqlExecutor, userId: UserId): Promise<Balances> {
  return {
    play: await balanceIn(tx, { kind: 'user', currency: 'play', userId }),
    real: await balanceIn(tx, { kind: 'user', currency: 'real', userId }),
  };
}

/**
 * Writes one balanced transaction: validates it, records it, applies each posting to its account's
 * running balance and refuses (rolling everything back) if an account other than a source would go
 * below zero. `rake` > 0 adds the house's posting (its amount comes out of the other postings' sum).
 *
 * Safe beside concurrent writers: each balance is changed and read back in one statement, which holds
 * the account's row until the commit, so the check below zero sees every earlier movement; the
 * accounts are taken in the order of their keys, so that two transactions never wait for each other;
 * an account created by two at once is one upsert.
 */
export async function transfer(
  tx: SqlExecutor,
  clock: () => number,
  kind: TransactionKind,
  given: readonly Posting[],
  memo?: string,
  rake = 0,
): Promise<number> {
  const postings =
    rake > 0 && given[0] !== undefined
      ? [...given, { account: { kind: 'house', currency: given[0].account.currency } as const, amount: rake }]
      : given;
  const checked = validatePostings(postings);
  if (!checked.ok) refuse(checked.error.code, checked.error.message);
  const currency = postings[0]!.account.currency;
  const row = await tx.get(
    'INSERT INTO ledger_transactions (kind, currency, memo, created_at) VALUES (?, ?, ?, ?) RETURNING id',
    [kind, currency, memo ?? null, clock()],
  );
  const transactionId = intCol(row!, 'id');
  const keyed = postings
    .filter(({ amount }) => amount !== 0)
    .map((posting) => ({ ...posting, key: accountKey(posting.account) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { account, amount, key } of keyed) {
    let updated = await tx.get(
      'UPDATE ledger_accounts SET balance = balance + ? WHERE account_key = ? RETURNING balance',
      [amount, key],
    );
    if (updated === undefined) {
      const columns = accountColumns(account);
      updated = await tx.get(
        `INSERT INTO ledger_accounts (account_key, kind, currency, user_id, table_id, hand_id, tournament_id, balance)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_key) DO UPDATE SET balance = ledger_accounts.balance + excluded.balance RETURNING balance`,
        [
          key,
          account.kind,
          account.currency,
          columns.userId,
          columns.tableId,
          columns.handId,
          columns.tournamentId,
          amount,
        ],
      );
    }
    const balance = intCol(updated!, 'balance');
    if (balance < 0 && !isSource(account.kind)) {
      refuse(StorageErrorCode.INSUFFICIENT_FUNDS, `${key} would hold ${balance}`);
    }
    await tx.run('INSERT INTO ledger_postings (transaction_id, account_key, amount) VALUES (?, ?, ?)', [
      transactionId,
      key,
      amount,
    ]);
  }
  return transactionId;
}

/**
 * The chips in front of the player: his seat's account less what he has put into hands in progress at
 * the table (the journal's contributions), which stays there until they are settled. `lock`: to move
 * them — the seat is taken first, so that an action being recorded at the table (which takes the seat
 * after adding to its contribution) either is counted here or finds the seat emptied.
 */
async function inFrontOf(tx: SqlExecutor, seat: SeatAccount, lock = false): Promise<number> {
  const balance = await balanceIn(tx, seat, lock);
  const row = await tx.get(
    `SELECT COALESCE(SUM(hp.contributed), 0) AS committed
       FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
      WHERE h.status = 'in-progress' AND h.table_id = ? AND h.currency = ? AND hp.user_id = ?`,
    [seat.tableId, seat.currency, seat.userId],
  );
  return balance - intCol(row!, 'committed');
}

/** Moves all the chips in front of a player at a table to his balance; returns how many. */
export async function emptySeat(
  tx: SqlExecutor,
  clock: () => number,
  kind: TransactionKind,
  seat: SeatAccount,
): Promise<number> {
  const amount = await inFrontOf(tx, seat, true);
  if (amount <= 0) return 0;
  await transfer(
    tx,
    clock,
    kind,
    [
      { account: seat, amount: -amount },
      { account: { kind: 'user', currency: seat.currency, userId: seat.userId }, amount },
    ],
    seat.tableId,
  );
  return amount;
}

/** Every seat holding chips, by table and player. */
export async function seatsWithChips(sql: SqlExecutor): Promise<SeatBalance[]> {
  const rows = await sql.all(
    "SELECT table_id, user_id, currency, balance FROM ledger_accounts WHERE kind = 'seat' AND balance <> 0 ORDER BY table_id, user_id",
  );
  return rows.map((row) => ({
    tableId: textCol(row, 'table_id'),
    userId: intCol(row, 'user_id'),
    currency: currencyOf(row),
    amount: intCol(row, 'balance'),
  }));
}

/**
 * Refuses a top-up that would bring the player's play money — his balance and his chips at tables —
 * above the ceiling. His user row is locked first (it exists before his first chip does, a balance row may
 * not), so that two top-ups of his wait for each other; no other transaction locks a user row.
 */
async function requireUnderCeiling(tx: SqlExecutor, userId: UserId, amount: number, ceiling: number) {
  await tx.get(USER_LOCKED[tx.dialect], [userId]);
  const row = await tx.get(
    `SELECT COALESCE(SUM(balance), 0) AS held FROM ledger_accounts
      WHERE user_id = ? AND currency = 'play' AND kind IN ('user', 'seat')`,
    [userId],
  );
  const held = intCol(row!, 'held');
  if (held + amount > ceiling) {
    refuse(
      StorageErrorCode.TOP_UP_LIMIT,
      `play money tops up to at most ${ceiling} in all, chips at tables included (you hold ${held}); ` +
        `at most ${Math.max(0, ceiling - held)} now`,
    );
  }
}

export function sqlLedger({ driver, clock }: SqlContext): Ledger {
  return {
    balances(userId) {
      return driver.transaction((tx) => balancesIn(tx, userId), { readOnly: true });
    },

    cashier(userId, direction, amount) {
      return atomically(driver, async (tx) => {
        // A staff member's real money may leave (a debit), never come in.
        await (direction === 'credit' ? requirePlayer(tx, userId) : requireUser(tx, userId));
        requireAmount(amount);
        const user: LedgerAccount = { kind: 'user', currency: 'real', userId };
        const signed = direction === 'credit' ? amount : -amount;
        await transfer(tx, clock, direction === 'credit' ? 'cashier-credit' : 'cashier-debit', [
          { account: sourceOf('real'), amount: -signed },
          { account: user, amount: signed },
        ]);
        return balancesIn(tx, userId);
      });
    },

    topUp(userId, amount, ceiling) {
      return atomically(driver, async (tx) => {
        await requireUser(tx, userId);
        requireAmount(amount);
        if (ceiling !== undefined) await requireUnderCeiling(tx, userId, amount, ceiling);
        await transfer(tx, clock, 'top-up', [
          { account: sourceOf('play'), amount: -amount },
          { account: { kind: 'user', currency: 'play', userId }, amount },
        ]);
        return balancesIn(tx, userId);
      });
    },

    buyIn(tableId, userId, currency, amount) {
      return atomically(driver, async (tx) => {
        await (currency === 'real' ? requirePlayer(tx, userId) : requireUser(tx, userId));
        requireAmount(amount);
        if (tableId.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a buy-in needs a table');
        const seat: SeatAccount = { kind: 'seat', currency, tableId, userId };
        await transfer(
          tx,
          clock,
          'buy-in',
          [
            { account: { kind: 'user', currency, userId }, amount: -amount },
            { account: seat, amount },
          ],
          tableId,
        );
        return { tableId, userId, currency, amount: await balanceIn(tx, seat) };
      });
    },

    cashOut(tableId, userId, currency) {
      return atomically(driver, (tx) =>
        emptySeat(tx, clock, 'cash-out', { kind: 'seat', currency, tableId, userId }),
      );
    },

    seat(tableId, userId, currency) {
      const seat: SeatAccount = { kind: 'seat', currency, tableId, userId };
      return driver.transaction((tx) => inFrontOf(tx, seat), { readOnly: true });
    },

    seats() {
      return seatsWithChips(driver);
    },

    seatsAt(tableId) {
      return driver.transaction(
        async (tx) =>
          (
            await tx.all(
              `SELECT a.user_id, a.currency, a.balance,
                      (SELECT COALESCE(SUM(hp.contributed), 0)
                         FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
                        WHERE h.status = 'in-progress' AND h.table_id = a.table_id
                          AND h.currency = a.currency AND hp.user_id = a.user_id) AS committed
                 FROM ledger_accounts a
                WHERE a.kind = 'seat' AND a.table_id = ? AND a.balance <> 0
                ORDER BY a.user_id`,
              [tableId],
            )
          ).map((row) => ({
            userId: intCol(row, 'user_id'),
            currency: currencyOf(row),
            balance: intCol(row, 'balance'),
            committed: intCol(row, 'committed'),
          })),
        { readOnly: true },
      );
    },

    post(kind, postings, memo) {
      return atomically(driver, async (tx) => {
        if (postings.some((p) => p.account.kind === 'pot')) {
          refuse(
            StorageErrorCode.BAD_REQUEST,
            'pots move only through hands (startHand, recordAction, settleHand)',
          );
        }
        return { transactionId: await transfer(tx, clock, kind, postings, memo) };
      });
    },

    audit() {
      return driver.transaction((tx) => auditLedger(tx), { readOnly: true });
    },
  };
}
