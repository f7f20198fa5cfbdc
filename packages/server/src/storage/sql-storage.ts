/**
 * The room's storage written once over the portable query layer (./sql.ts): every method is one SQL
 * transaction on the driver. The SQLite implementation is this class on the SQLite driver; a PostgreSQL
 * one would be this class on a PostgreSQL driver.
 */
import { fail, ok } from '@felt/engine';
import {
  accountColumns,
  accountKey,
  isPositiveAmount,
  isSource,
  sourceOf,
  validatePostings,
} from '../ledger/accounts.js';
import { auditLedger } from '../ledger/audit.js';
import { migrate } from './migrations.js';
import {
  intCol,
  intColOr,
  textCol,
  textColOrNull,
  type SqlDriver,
  type SqlExecutor,
  type SqlRow,
} from './sql.js';
import {
  StorageErrorCode,
  type AuditReport,
  type Balances,
  type ChipMove,
  type Currency,
  type HandActionRecord,
  type HandHistoryView,
  type HandId,
  type HandSettlement,
  type Settlement,
  type HandStatus,
  type HandSummary,
  type LedgerAccount,
  type NewHand,
  type NewUser,
  type Posting,
  type RecoveryReport,
  type SeatBalance,
  type SessionRecord,
  type Storage,
  type StorageResult,
  type TransactionKind,
  type TransactionReceipt,
  type UserId,
  type UserRecord,
} from './types.js';

/** A refusal inside a transaction: thrown to roll it back, returned to the caller as a typed error. */
class Refusal extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const refuse = (code: StorageErrorCode, message: string): never => {
  throw new Refusal(code, message);
};

const HAND_STATUSES: readonly HandStatus[] = ['in-progress', 'settled', 'cancelled'];

function userFromRow(row: SqlRow): UserRecord {
  return {
    id: intCol(row, 'id'),
    name: textCol(row, 'name'),
    passwordHash: textCol(row, 'password_hash'),
    passwordSalt: textCol(row, 'password_salt'),
    createdAt: intCol(row, 'created_at'),
  };
}

function currencyOf(row: SqlRow): Currency {
  const currency = textCol(row, 'currency');
  if (currency !== 'play' && currency !== 'real') throw new TypeError(`unknown currency ${currency}`);
  return currency;
}

function summaryFromRow(row: SqlRow): HandSummary {
  return {
    handId: intCol(row, 'id'),
    tableId: textCol(row, 'table_id'),
    currency: currencyOf(row),
    description: textCol(row, 'description'),
    startedAt: intCol(row, 'started_at'),
    endedAt: intColOr(row, 'ended_at', 0),
    net: intCol(row, 'won') - intCol(row, 'contributed'),
  };
}

interface HandRow {
  readonly id: HandId;
  readonly tableId: string;
  readonly currency: Currency;
  readonly status: HandStatus;
}

const USER_COLUMNS = 'id, name, password_hash, password_salt, created_at';

export class SqlStorage implements Storage {
  constructor(
    private readonly driver: SqlDriver,
    private readonly clock: () => number = Date.now,
  ) {}

  async migrate(): Promise<void> {
    await migrate(this.driver, this.clock);
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  // ─── Users and sessions ──────────────────────────────────────────────────────────────────────

  createUser(user: NewUser): Promise<StorageResult<UserRecord>> {
    return this.atomically(async (tx) => {
      if (user.name.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a user needs a name');
      if ((await tx.get('SELECT id FROM users WHERE name = ?', [user.name])) !== undefined) {
        refuse(StorageErrorCode.NAME_TAKEN, `the name ${JSON.stringify(user.name)} is taken`);
      }
      const row = await tx.get(
        `INSERT INTO users (name, password_hash, password_salt, created_at) VALUES (?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
        [user.name, user.passwordHash, user.passwordSalt, this.clock()],
      );
      return userFromRow(row!);
    });
  }

  async userById(id: UserId): Promise<UserRecord | null> {
    const row = await this.driver.get(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
    return row === undefined ? null : userFromRow(row);
  }

  async userByName(name: string): Promise<UserRecord | null> {
    const row = await this.driver.get(`SELECT ${USER_COLUMNS} FROM users WHERE name = ?`, [name]);
    return row === undefined ? null : userFromRow(row);
  }

  setPassword(id: UserId, passwordHash: string, passwordSalt: string): Promise<StorageResult<void>> {
    return this.atomically(async (tx) => {
      const changed = await tx.run('UPDATE users SET password_hash = ?, password_salt = ? WHERE id = ?', [
        passwordHash,
        passwordSalt,
        id,
      ]);
      if (changed === 0) refuse(StorageErrorCode.UNKNOWN_USER, `no user ${id}`);
    });
  }

  createSession(session: {
    readonly tokenHash: string;
    readonly userId: UserId;
    readonly expiresAt: number;
  }): Promise<StorageResult<SessionRecord>> {
    return this.atomically(async (tx) => {
      await this.requireUser(tx, session.userId);
      const createdAt = this.clock();
      const changed = await tx.run(
        'INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (token_hash) DO NOTHING',
        [session.tokenHash, session.userId, createdAt, session.expiresAt],
      );
      if (changed === 0) refuse(StorageErrorCode.BAD_REQUEST, 'this session token exists already');
      return { ...session, createdAt };
    });
  }

  async sessionByTokenHash(tokenHash: string, now = this.clock()): Promise<SessionRecord | null> {
    const row = await this.driver.get(
      'SELECT token_hash, user_id, created_at, expires_at FROM sessions WHERE token_hash = ? AND expires_at > ?',
      [tokenHash, now],
    );
    if (row === undefined) return null;
    return {
      tokenHash: textCol(row, 'token_hash'),
      userId: intCol(row, 'user_id'),
      createdAt: intCol(row, 'created_at'),
      expiresAt: intCol(row, 'expires_at'),
    };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.driver.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash]);
  }

  async deleteSessionsOf(userId: UserId, keepTokenHash?: string): Promise<void> {
    await this.driver.run('DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?', [
      userId,
      keepTokenHash ?? '',
    ]);
  }

  deleteExpiredSessions(now = this.clock()): Promise<number> {
    return this.driver.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  }

  // ─── Balances, cashier, seats ────────────────────────────────────────────────────────────────

  balances(userId: UserId): Promise<Balances> {
    return this.driver.transaction((tx) => this.balancesIn(tx, userId), { readOnly: true });
  }

  cashier(userId: UserId, direction: 'credit' | 'debit', amount: number): Promise<StorageResult<Balances>> {
    return this.atomically(async (tx) => {
      await this.requireUser(tx, userId);
      requireAmount(amount);
      const user: LedgerAccount = { kind: 'user', currency: 'real', userId };
      const cashier = sourceOf('real');
      const signed = direction === 'credit' ? amount : -amount;
      await this.transfer(tx, direction === 'credit' ? 'cashier-credit' : 'cashier-debit', [
        { account: cashier, amount: -signed },
        { account: user, amount: signed },
      ]);
      return this.balancesIn(tx, userId);
    });
  }

  topUp(userId: UserId, amount: number): Promise<StorageResult<Balances>> {
    return this.atomically(async (tx) => {
      await this.requireUser(tx, userId);
      requireAmount(amount);
      await this.transfer(tx, 'top-up', [
        { account: sourceOf('play'), amount: -amount },
        { account: { kind: 'user', currency: 'play', userId }, amount },
      ]);
      return this.balancesIn(tx, userId);
    });
  }

  buyIn(
    tableId: string,
    userId: UserId,
    currency: Currency,
    amount: number,
  ): Promise<StorageResult<SeatBalance>> {
    return this.atomically(async (tx) => {
      await this.requireUser(tx, userId);
      requireAmount(amount);
      if (tableId.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a buy-in needs a table');
      const seat: LedgerAccount = { kind: 'seat', currency, tableId, userId };
      await this.transfer(
        tx,
        'buy-in',
        [
          { account: { kind: 'user', currency, userId }, amount: -amount },
          { account: seat, amount },
        ],
        tableId,
      );
      return { tableId, userId, currency, amount: await this.balanceIn(tx, seat) };
    });
  }

  cashOut(tableId: string, userId: UserId, currency: Currency): Promise<StorageResult<number>> {
    return this.atomically((tx) =>
      this.emptySeat(tx, 'cash-out', { kind: 'seat', currency, tableId, userId }),
    );
  }

  seat(tableId: string, userId: UserId, currency: Currency): Promise<number> {
    const seat = { kind: 'seat', currency, tableId, userId } as const;
    return this.driver.transaction((tx) => this.inFrontOf(tx, seat), { readOnly: true });
  }

  async seats(): Promise<SeatBalance[]> {
    const rows = await this.driver.all(
      "SELECT table_id, user_id, currency, balance FROM ledger_accounts WHERE kind = 'seat' AND balance <> 0 ORDER BY table_id, user_id",
    );
    return rows.map((row) => ({
      tableId: textCol(row, 'table_id'),
      userId: intCol(row, 'user_id'),
      currency: currencyOf(row),
      amount: intCol(row, 'balance'),
    }));
  }

  // ─── Hands in progress ───────────────────────────────────────────────────────────────────────

  startHand(hand: NewHand): Promise<StorageResult<HandId>> {
    return this.atomically(async (tx) => {
      if (hand.participants.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a hand needs participants');
      if (hand.tableId.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a hand needs a table');
      const users = new Set(hand.participants.map((p) => p.userId));
      if (users.size !== hand.participants.length) {
        refuse(StorageErrorCode.BAD_REQUEST, 'a player may take part in a hand only once');
      }
      for (const userId of users) await this.requireUser(tx, userId);
      const posted = new Map<UserId, number>();
      for (const { userId, amount } of hand.posts ?? []) {
        if (!Number.isSafeInteger(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad post ${amount}`);
        if (!users.has(userId))
          refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} posts but does not play`);
        posted.set(userId, (posted.get(userId) ?? 0) + amount);
      }
      const row = await tx.get(
        "INSERT INTO hands (table_id, currency, description, status, started_at) VALUES (?, ?, ?, 'in-progress', ?) RETURNING id",
        [hand.tableId, hand.currency, hand.description, this.clock()],
      );
      const handRow: HandRow = {
        id: intCol(row!, 'id'),
        tableId: hand.tableId,
        currency: hand.currency,
        status: 'in-progress',
      };
      for (const p of hand.participants) {
        const contributed = posted.get(p.userId) ?? 0;
        await tx.run(
          'INSERT INTO hand_players (hand_id, user_id, seat, position, contributed) VALUES (?, ?, ?, ?, ?)',
          [handRow.id, p.userId, p.seat, p.position, contributed],
        );
        await this.requireCovered(tx, handRow, p.userId, contributed);
      }
      return handRow.id;
    });
  }

  recordAction(record: HandActionRecord): Promise<StorageResult<void>> {
    return this.atomically(async (tx) => {
      const hand = await this.handInProgress(tx, record.handId);
      await this.recordIn(tx, hand, record);
      if (record.settlement !== undefined) await this.settleIn(tx, hand, record.settlement);
    });
  }

  settleHand(settlement: HandSettlement): Promise<StorageResult<void>> {
    return this.atomically(async (tx) => {
      await this.settleIn(tx, await this.handInProgress(tx, settlement.handId), settlement);
    });
  }

  private async recordIn(tx: SqlExecutor, hand: HandRow, record: HandActionRecord): Promise<void> {
    if (!Number.isSafeInteger(record.seq) || record.seq < 0) {
      refuse(
        StorageErrorCode.BAD_REQUEST,
        `an action's sequence number is a whole number ≥ 0, got ${record.seq}`,
      );
    }
    const inserted = await tx.run(
      'INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hand_id, seq) DO NOTHING',
      [hand.id, record.seq, record.action, this.clock()],
    );
    if (inserted === 0) {
      refuse(StorageErrorCode.DUPLICATE_ACTION, `hand ${hand.id} already has an action number ${record.seq}`);
    }
    if (record.moves !== undefined) await this.contribute(tx, hand, record.moves);
  }

  private async settleIn(tx: SqlExecutor, hand: HandRow, settlement: Settlement): Promise<void> {
    const { rake, awards, history } = settlement;
    if (!Number.isSafeInteger(rake) || rake < 0) refuse(StorageErrorCode.BAD_AMOUNT, `bad rake ${rake}`);
    if (rake > 0 && hand.currency === 'play') {
      refuse(StorageErrorCode.RAKE_ON_PLAY_MONEY, 'play money is not raked');
    }
    const won = new Map<UserId, number>();
    for (const { userId, amount } of awards) {
      if (!isPositiveAmount(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad award ${amount}`);
      won.set(userId, (won.get(userId) ?? 0) + amount);
    }
    const contributions = await tx.all('SELECT user_id, contributed FROM hand_players WHERE hand_id = ?', [
      hand.id,
    ]);
    const inPot = contributions.reduce((sum, row) => sum + intCol(row, 'contributed'), 0);
    const paid = [...won.values()].reduce((a, b) => a + b, rake);
    if (paid !== inPot) {
      refuse(
        StorageErrorCode.POT_MISMATCH,
        `hand ${hand.id}: the pot holds ${inPot}, the settlement pays ${paid}`,
      );
    }
    for (const [userId, amount] of won) {
      const changed = await tx.run(
        'UPDATE hand_players SET won = won + ? WHERE hand_id = ? AND user_id = ?',
        [amount, hand.id, userId],
      );
      if (changed === 0) refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} did not play hand ${hand.id}`);
    }
    // The whole hand is one transaction: each seat gains what it won less what it put in, the house the rake.
    const postings: Posting[] = [];
    for (const row of contributions) {
      const userId = intCol(row, 'user_id');
      const net = (won.get(userId) ?? 0) - intCol(row, 'contributed');
      if (net !== 0) postings.push({ account: seatOf(hand, userId), amount: net });
    }
    if (postings.length > 0) await this.transfer(tx, 'hand', postings, `hand ${hand.id}`, rake);
    for (const view of history.views) {
      const changed = await tx.run('UPDATE hand_players SET phh = ? WHERE hand_id = ? AND user_id = ?', [
        view.phh,
        hand.id,
        view.userId,
      ]);
      if (changed === 0)
        refuse(StorageErrorCode.NOT_IN_HAND, `user ${view.userId} did not play hand ${hand.id}`);
    }
    await tx.run("UPDATE hands SET status = 'settled', ended_at = ?, rake = ?, phh = ? WHERE id = ?", [
      this.clock(),
      rake,
      history.phh,
      hand.id,
    ]);
    await tx.run('DELETE FROM hand_actions WHERE hand_id = ?', [hand.id]);
  }

  cancelHand(handId: HandId): Promise<StorageResult<void>> {
    return this.atomically(async (tx) => {
      await this.cancelIn(tx, await this.handInProgress(tx, handId), 'crash-refund');
    });
  }

  contributions(handId: HandId): Promise<StorageResult<ChipMove[]>> {
    return this.atomically(async (tx) => {
      await this.handRow(tx, handId);
      const rows = await tx.all(
        'SELECT user_id, contributed FROM hand_players WHERE hand_id = ? ORDER BY position',
        [handId],
      );
      return rows.map((row) => ({ userId: intCol(row, 'user_id'), amount: intCol(row, 'contributed') }));
    });
  }

  async handStatus(handId: HandId): Promise<HandStatus | null> {
    const row = await this.driver.get('SELECT status FROM hands WHERE id = ?', [handId]);
    return row === undefined ? null : statusOf(row);
  }

  // ─── Hand histories ──────────────────────────────────────────────────────────────────────────

  async handsOf(
    userId: UserId,
    options: { readonly limit?: number; readonly before?: HandId } = {},
  ): Promise<HandSummary[]> {
    const limit = Math.max(1, Math.min(Math.trunc(options.limit ?? 50), 1000));
    const select = `SELECT h.id, h.table_id, h.currency, h.description, h.started_at, h.ended_at, hp.won, hp.contributed
       FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
      WHERE hp.user_id = ? AND h.status = 'settled'`;
    const rows =
      options.before === undefined
        ? await this.driver.all(`${select} ORDER BY hp.hand_id DESC LIMIT ?`, [userId, limit])
        : await this.driver.all(`${select} AND hp.hand_id < ? ORDER BY hp.hand_id DESC LIMIT ?`, [
            userId,
            options.before,
            limit,
          ]);
    return rows.map(summaryFromRow);
  }

  async handFor(handId: HandId, userId: UserId): Promise<HandHistoryView | null> {
    const row = await this.driver.get(
      `SELECT h.id, h.table_id, h.currency, h.description, h.started_at, h.ended_at, hp.won, hp.contributed, hp.phh
         FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
        WHERE hp.hand_id = ? AND hp.user_id = ? AND h.status = 'settled'`,
      [handId, userId],
    );
    if (row === undefined) return null;
    const phh = textColOrNull(row, 'phh');
    return phh === null ? null : { ...summaryFromRow(row), phh };
  }

  async handFull(handId: HandId): Promise<HandHistoryView | null> {
    const row = await this.driver.get(
      `SELECT id, table_id, currency, description, started_at, ended_at, 0 AS won, 0 AS contributed, phh
         FROM hands WHERE id = ? AND status = 'settled'`,
      [handId],
    );
    if (row === undefined) return null;
    return { ...summaryFromRow(row), phh: textColOrNull(row, 'phh') ?? '' };
  }

  // ─── Ledger, audit, recovery ─────────────────────────────────────────────────────────────────

  post(
    kind: TransactionKind,
    postings: readonly Posting[],
    memo?: string,
  ): Promise<StorageResult<TransactionReceipt>> {
    return this.atomically(async (tx) => {
      if (postings.some((p) => p.account.kind === 'pot')) {
        refuse(
          StorageErrorCode.BAD_REQUEST,
          'pots move only through hands (startHand, recordAction, settleHand)',
        );
      }
      return { transactionId: await this.transfer(tx, kind, postings, memo) };
    });
  }

  audit(): Promise<AuditReport> {
    return this.driver.transaction((tx) => auditLedger(tx), { readOnly: true });
  }

  async recover(): Promise<RecoveryReport> {
    let handsCancelled = 0;
    let refunded = 0;
    let seatsCashedOut = 0;
    let cashedOut = 0;
    const hands = await this.driver.all("SELECT id FROM hands WHERE status = 'in-progress' ORDER BY id");
    for (const row of hands) {
      const id = intCol(row, 'id');
      const result = await this.atomically(async (tx) => {
        const hand = await this.handRow(tx, id);
        return hand.status === 'in-progress' ? this.cancelIn(tx, hand, 'crash-refund') : 0;
      });
      if (!result.ok) throw new Error(`recovery of hand ${id} failed: ${result.error.message}`);
      handsCancelled++;
      refunded += result.value;
    }
    const seats = await this.seats();
    for (const seat of seats) {
      const account: LedgerAccount = {
        kind: 'seat',
        currency: seat.currency,
        tableId: seat.tableId,
        userId: seat.userId,
      };
      const result = await this.atomically((tx) => this.emptySeat(tx, 'crash-cash-out', account));
      if (!result.ok)
        throw new Error(`recovery of seat ${accountKey(account)} failed: ${result.error.message}`);
      if (result.value > 0) {
        seatsCashedOut++;
        cashedOut += result.value;
      }
    }
    return { handsCancelled, refunded, seatsCashedOut, cashedOut };
  }

  // ─── Internals ───────────────────────────────────────────────────────────────────────────────

  /** Runs `fn` as one transaction; a {@link Refusal} rolls it back and becomes a typed error. */
  private async atomically<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<StorageResult<T>> {
    try {
      return ok(await this.driver.transaction(fn));
    } catch (error) {
      if (error instanceof Refusal) return fail(error.code, error.message);
      throw error;
    }
  }

  private async requireUser(tx: SqlExecutor, userId: UserId): Promise<void> {
    if ((await tx.get('SELECT id FROM users WHERE id = ?', [userId])) === undefined) {
      refuse(StorageErrorCode.UNKNOWN_USER, `no user ${userId}`);
    }
  }

  private async balancesIn(tx: SqlExecutor, userId: UserId): Promise<Balances> {
    return {
      play: await this.balanceIn(tx, { kind: 'user', currency: 'play', userId }),
      real: await this.balanceIn(tx, { kind: 'user', currency: 'real', userId }),
    };
  }

  private async balanceIn(tx: SqlExecutor, account: LedgerAccount): Promise<number> {
    const row = await tx.get('SELECT balance FROM ledger_accounts WHERE account_key = ?', [
      accountKey(account),
    ]);
    return row === undefined ? 0 : intCol(row, 'balance');
  }

  /**
   * Writes one balanced transaction: validates it, records it, applies each posting to its account's
   * running balance and refuses (rolling everything back) if an account other than a source would go
   * below zero. `rake` > 0 adds the house's posting (its amount comes out of the other postings' sum).
   */
  private async transfer(
    tx: SqlExecutor,
    kind: TransactionKind,
    given: readonly Posting[],
    memo?: string,
    rake = 0,
  ): Promise<number> {
    const postings =
      rake > 0 && given[0] !== undefined
        ? [
            ...given,
            { account: { kind: 'house', currency: given[0].account.currency } as const, amount: rake },
          ]
        : given;
    const checked = validatePostings(postings);
    if (!checked.ok) refuse(checked.error.code, checked.error.message);
    const currency = postings[0]!.account.currency;
    const row = await tx.get(
      'INSERT INTO ledger_transactions (kind, currency, memo, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      [kind, currency, memo ?? null, this.clock()],
    );
    const transactionId = intCol(row!, 'id');
    for (const { account, amount } of postings) {
      if (amount === 0) continue;
      const key = accountKey(account);
      let updated = await tx.get(
        'UPDATE ledger_accounts SET balance = balance + ? WHERE account_key = ? RETURNING balance',
        [amount, key],
      );
      if (updated === undefined) {
        const columns = accountColumns(account);
        updated = await tx.get(
          'INSERT INTO ledger_accounts (account_key, kind, currency, user_id, table_id, hand_id, balance) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING balance',
          [key, account.kind, account.currency, columns.userId, columns.tableId, columns.handId, amount],
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
   * Adds one action's moves to the players' contributions to the hand. The chips stay in the seats' ledger
   * accounts until the hand is settled (one transaction) or cancelled (nothing to move).
   */
  private async contribute(tx: SqlExecutor, hand: HandRow, moves: readonly ChipMove[]): Promise<void> {
    for (const { userId, amount } of moves) {
      if (!Number.isSafeInteger(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad chip move ${amount}`);
      if (amount === 0) continue;
      const row = await tx.get(
        'UPDATE hand_players SET contributed = contributed + ? WHERE hand_id = ? AND user_id = ? RETURNING contributed',
        [amount, hand.id, userId],
      );
      if (row === undefined)
        refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} does not play hand ${hand.id}`);
      await this.requireCovered(tx, hand, userId, intCol(row!, 'contributed'));
    }
  }

  /**
   * A contribution is never below 0, nor more than the player's seat holds (a table deals
   * one hand at a time).
   */
  private async requireCovered(
    tx: SqlExecutor,
    hand: HandRow,
    userId: UserId,
    contributed: number,
  ): Promise<void> {
    if (contributed < 0) {
      refuse(
        StorageErrorCode.INSUFFICIENT_FUNDS,
        `user ${userId} would take back more than he put into hand ${hand.id}`,
      );
    }
    if (contributed === 0) return;
    const seat = await this.balanceIn(tx, seatOf(hand, userId));
    if (contributed > seat) {
      refuse(
        StorageErrorCode.INSUFFICIENT_FUNDS,
        `user ${userId} would put ${contributed} into hand ${hand.id} from a seat holding ${seat}`,
      );
    }
  }

  /**
   * The chips in front of the player: his seat's account less what he has put into hands in progress at
   * the table, which stays there until they are settled.
   */
  private async inFrontOf(tx: SqlExecutor, seat: LedgerAccount & { kind: 'seat' }): Promise<number> {
    const row = await tx.get(
      `SELECT COALESCE(SUM(hp.contributed), 0) AS committed
         FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
        WHERE h.status = 'in-progress' AND h.table_id = ? AND h.currency = ? AND hp.user_id = ?`,
      [seat.tableId, seat.currency, seat.userId],
    );
    return (await this.balanceIn(tx, seat)) - intCol(row!, 'committed');
  }

  /**
   * Marks a hand cancelled: its contributions never left the seats, so every chip is back with the player
   * who put it in; returns how many. A hand begun by an earlier Felt moved its chips into its pot as they
   * were bet: those are returned to the seats.
   */
  private async cancelIn(tx: SqlExecutor, hand: HandRow, kind: TransactionKind): Promise<number> {
    const rows = await tx.all(
      'SELECT user_id, contributed FROM hand_players WHERE hand_id = ? AND contributed > 0',
      [hand.id],
    );
    const total = rows.reduce((sum, row) => sum + intCol(row, 'contributed'), 0);
    const pot: LedgerAccount = { kind: 'pot', currency: hand.currency, handId: hand.id };
    if ((await this.balanceIn(tx, pot)) > 0) {
      const postings: Posting[] = rows.map((row) => ({
        account: seatOf(hand, intCol(row, 'user_id')),
        amount: intCol(row, 'contributed'),
      }));
      postings.push({ account: pot, amount: -total });
      await this.transfer(tx, kind, postings, `hand ${hand.id} cancelled`);
    }
    await tx.run("UPDATE hands SET status = 'cancelled', ended_at = ? WHERE id = ?", [this.clock(), hand.id]);
    await tx.run('DELETE FROM hand_actions WHERE hand_id = ?', [hand.id]);
    return total;
  }

  /** Moves all of a seat's chips to its player's balance; returns how many. */
  private async emptySeat(
    tx: SqlExecutor,
    kind: TransactionKind,
    seat: LedgerAccount & { kind: 'seat' },
  ): Promise<number> {
    const amount = await this.inFrontOf(tx, seat);
    if (amount <= 0) return 0;
    await this.transfer(
      tx,
      kind,
      [
        { account: seat, amount: -amount },
        { account: { kind: 'user', currency: seat.currency, userId: seat.userId }, amount },
      ],
      seat.tableId,
    );
    return amount;
  }

  private async handRow(tx: SqlExecutor, handId: HandId): Promise<HandRow> {
    const row = await tx.get('SELECT id, table_id, currency, status FROM hands WHERE id = ?', [handId]);
    if (row === undefined) return refuse(StorageErrorCode.UNKNOWN_HAND, `no hand ${handId}`);
    return {
      id: intCol(row, 'id'),
      tableId: textCol(row, 'table_id'),
      currency: currencyOf(row),
      status: statusOf(row),
    };
  }

  private async handInProgress(tx: SqlExecutor, handId: HandId): Promise<HandRow> {
    const hand = await this.handRow(tx, handId);
    if (hand.status !== 'in-progress') {
      refuse(StorageErrorCode.HAND_NOT_IN_PROGRESS, `hand ${handId} is ${hand.status}`);
    }
    return hand;
  }
}

const seatOf = (hand: HandRow, userId: UserId): LedgerAccount & { kind: 'seat' } => ({
  kind: 'seat',
  currency: hand.currency,
  tableId: hand.tableId,
  userId,
});

function statusOf(row: SqlRow): HandStatus {
  const status = textCol(row, 'status');
  const found = HAND_STATUSES.find((s) => s === status);
  if (found === undefined) throw new TypeError(`unknown hand status ${status}`);
  return found;
}

function requireAmount(amount: number): void {
  if (!isPositiveAmount(amount))
    refuse(StorageErrorCode.BAD_AMOUNT, `amounts are whole cents above 0, got ${amount}`);
}
