/**
 * The room's storage: accounts, sessions, the double-entry chip ledger, hands in progress (for crash
 * recovery) and finished hand histories — behind one small asynchronous interface, so that the
 * embedded SQLite implementation (./sqlite.ts) can be joined by PostgreSQL. Every implementation
 * must pass the one contract suite (packages/server/test/storage-contract.ts).
 *
 * Money: integer cents (real money) or integer play chips, never fractions. Real and play money are two
 * currencies that never mix: every ledger transaction is in one currency.
 *
 * The ledger (see docs/storage.md): every chip movement is a balanced transaction — the amounts of its
 * postings add up to 0 — written in one SQL transaction together with whatever it records (a buy-in,
 * a settlement). Chips live in ledger accounts: a player's balance, his seat at a table, the house
 * (rake), and two external sources (the real-money cashier and the play-money top-up), whose balances go
 * negative by what they have paid in. The sum over all accounts of a currency is therefore always 0,
 * which `audit()` checks. A hand in progress is a journal: each action is one row, and what the players
 * put in is counted per player; the chips stay in the seats' accounts until the hand is settled, as one
 * transaction of each seat's net result and the rake — so a cancelled hand has nothing to move back.
 *
 * Errors that a caller can cause (unknown user, insufficient funds, bad amount, …) are values with a
 * {@link StorageErrorCode}; only I/O failures and broken invariants throw.
 */
import type { Result } from '@felt/engine';

/** The two currencies. Real money is in cents; play money in play chips. */
export const CURRENCIES = ['play', 'real'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const StorageErrorCode = {
  /** A user with this name exists already (names are unique, compared exactly). */
  NAME_TAKEN: 'NAME_TAKEN',
  /** No such user. */
  UNKNOWN_USER: 'UNKNOWN_USER',
  /** An amount that is not a positive safe integer (or not a non-negative one where 0 is allowed). */
  BAD_AMOUNT: 'BAD_AMOUNT',
  /** The movement would leave a balance, seat, pot or contribution below zero. Nothing was changed. */
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  /** The postings of a transaction do not add up to 0, or mix currencies. Nothing was changed. */
  UNBALANCED: 'UNBALANCED',
  /** No hand with this id. */
  UNKNOWN_HAND: 'UNKNOWN_HAND',
  /** The hand is already settled or cancelled. */
  HAND_NOT_IN_PROGRESS: 'HAND_NOT_IN_PROGRESS',
  /** The user is not a participant of this hand. */
  NOT_IN_HAND: 'NOT_IN_HAND',
  /** An action with this sequence number was already recorded for the hand. */
  DUPLICATE_ACTION: 'DUPLICATE_ACTION',
  /** A settlement's awards plus rake do not add up to the chips in the pot. */
  POT_MISMATCH: 'POT_MISMATCH',
  /** Rake on a play-money hand (RULES.md §1: play money is free). */
  RAKE_ON_PLAY_MONEY: 'RAKE_ON_PLAY_MONEY',
  /** Anything else malformed in the input (empty name, duplicate participant, …). */
  BAD_REQUEST: 'BAD_REQUEST',
} as const;
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];
export type StorageResult<T> = Result<T, StorageErrorCode>;

// ─── Accounts ────────────────────────────────────────────────────────────────────────────────────

export type UserId = number;

/** A user as stored. The password hash and salt are produced by the accounts module (scrypt); storage keeps them opaque. */
export interface UserRecord {
  readonly id: UserId;
  readonly name: string;
  readonly passwordHash: string;
  readonly passwordSalt: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export interface NewUser {
  readonly name: string;
  readonly passwordHash: string;
  readonly passwordSalt: string;
}

/** A login session. Only a hash of the token is stored; the token itself never touches the disk. */
export interface SessionRecord {
  readonly tokenHash: string;
  readonly userId: UserId;
  readonly createdAt: number;
  /** Milliseconds since the epoch; the session is void from this instant on. */
  readonly expiresAt: number;
}

export interface Balances {
  readonly play: number;
  readonly real: number;
}

// ─── Ledger ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A ledger account. `user` = a player's balance; `seat` = a player's chips at a table (his stack when the
 * hand in progress began, or between hands); `pot` = the chips of a hand begun by an earlier Felt, which
 * moved them as they were bet; `house` = rake; `cashier` (real) and `top-up` (play) are the external
 * sources.
 */
export type LedgerAccount =
  | { readonly kind: 'user'; readonly currency: Currency; readonly userId: UserId }
  | { readonly kind: 'seat'; readonly currency: Currency; readonly tableId: string; readonly userId: UserId }
  | { readonly kind: 'pot'; readonly currency: Currency; readonly handId: HandId }
  | { readonly kind: 'house'; readonly currency: Currency }
  | { readonly kind: 'cashier'; readonly currency: 'real' }
  | { readonly kind: 'top-up'; readonly currency: 'play' };

export type LedgerAccountKind = LedgerAccount['kind'];

/** One line of a transaction: `amount` cents into (positive) or out of (negative) the account. */
export interface Posting {
  readonly account: LedgerAccount;
  readonly amount: number;
}

/** What a transaction was for; recorded with it. */
export const TRANSACTION_KINDS = [
  'cashier-credit',
  'cashier-debit',
  'top-up',
  'buy-in',
  'cash-out',
  /** A settled hand: each seat's winnings less what it put in, and the rake. */
  'hand',
  // An earlier Felt moved chips into and out of a pot account as they were bet and won.
  'contribution',
  'award',
  'rake',
  'crash-refund',
  'crash-cash-out',
  'manual',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export interface TransactionReceipt {
  readonly transactionId: number;
}

/** A seat with chips: where the chips of a table are, per player. */
export interface SeatBalance {
  readonly tableId: string;
  readonly userId: UserId;
  readonly currency: Currency;
  readonly amount: number;
}

/** The totals of one currency. `sum` is the sum of all the others and must be 0. */
export interface CurrencyTotals {
  /** Players' balances. */
  readonly accounts: number;
  /** Chips at the tables in front of the players (their seats' accounts less what is in the pots). */
  readonly seats: number;
  /** Chips put into the pots of hands in progress (in the seats' accounts until the hand is settled). */
  readonly pots: number;
  readonly house: number;
  /** The external sources (cashier or top-up): minus what they paid in net. */
  readonly external: number;
  readonly sum: number;
}

/** What `audit()` found. `conserved` is true when `problems` is empty. */
export interface AuditReport {
  readonly conserved: boolean;
  readonly currencies: Readonly<Record<Currency, CurrencyTotals>>;
  readonly transactions: number;
  readonly handsInProgress: number;
  /**
   * Every broken invariant, in words: a currency whose sum is not 0, an unbalanced transaction, an
   * account whose balance differs from the sum of its postings, a negative non-source balance, a seat
   * holding less than its player has put into hands in progress, a settled hand that did not pay out
   * exactly what was put in.
   */
  readonly problems: readonly string[];
}

// ─── Hands ───────────────────────────────────────────────────────────────────────────────────────

export type HandId = number;

/** One player's chip movement between his seat and the pot of a hand. */
export interface ChipMove {
  readonly userId: UserId;
  /** Positive: seat → pot (a post, call, bet, raise, bring-in). Negative: pot → seat (an uncalled bet returned). 0: ignored. */
  readonly amount: number;
}

export interface HandParticipant {
  readonly userId: UserId;
  /** The seat number at the table. */
  readonly seat: number;
  /** The engine's position (index into HandConfig.stacks). */
  readonly position: number;
}

export interface NewHand {
  readonly tableId: string;
  readonly currency: Currency;
  /** Free text for lists, e.g. "NL Hold'em 0.50/1". */
  readonly description: string;
  readonly participants: readonly HandParticipant[];
  /** Forced bets posted when the hand starts (antes, blinds), made durable with the hand itself. */
  readonly posts?: readonly ChipMove[];
}

/** One accepted action of a hand in progress, made durable before it is announced. */
export interface HandActionRecord {
  readonly handId: HandId;
  /** 0, 1, 2, … per hand, in order; a repeated number is refused (DUPLICATE_ACTION). */
  readonly seq: number;
  /** The accepted action or its events, serialised by the table (JSON); kept until the hand ends. */
  readonly action: string;
  /** Chips it moved between seats and the pot (empty for a check, fold, deal, …). */
  readonly moves?: readonly ChipMove[];
  /**
   * The action ended the hand: settle it in the same transaction (as {@link Storage.settleHand}), so
   * that the last action costs one commit, not two. A refused settlement records nothing.
   */
  readonly settlement?: Settlement;
}

/**
 * A finished hand's history as PHH files; see {@link HandSettlement.history}. The readable text is made
 * from them when asked for, not stored.
 */
export interface HandHistoryInput {
  /** The full PHH (every card), for the operator only. */
  readonly phh: string;
  /**
   * What each participant may see: the PHH filtered by the room's `viewFor` for his seat (his own cards,
   * cards shown and face up, `??` for the rest). One entry per participant.
   */
  readonly views: readonly { readonly userId: UserId; readonly phh: string }[];
}

/** How a finished hand is paid out; see {@link Storage.settleHand}. */
export interface Settlement {
  /** Chips from the pot to the winners' seats (one entry per winner; amounts > 0). */
  readonly awards: readonly ChipMove[];
  /** Chips from the pot to the house (real money only; 0 on play money). */
  readonly rake: number;
  readonly history: HandHistoryInput;
}

export interface HandSettlement extends Settlement {
  readonly handId: HandId;
}

export type HandStatus = 'in-progress' | 'settled' | 'cancelled';

/** A line of a player's hand list. */
export interface HandSummary {
  readonly handId: HandId;
  readonly tableId: string;
  readonly currency: Currency;
  readonly description: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The player's net result in the hand: awards minus contributions. */
  readonly net: number;
}

/** One hand's history (its PHH file) as one participant may see it. */
export interface HandHistoryView extends HandSummary {
  readonly phh: string;
}

/** What `recover()` did, for the log. */
export interface RecoveryReport {
  /** Hands that were in progress and are now cancelled, their contributions returned to the seats. */
  readonly handsCancelled: number;
  /** Cents/chips the cancelled hands had taken from the players, theirs again. */
  readonly refunded: number;
  /** Seats emptied back into the players' balances. */
  readonly seatsCashedOut: number;
  readonly cashedOut: number;
}

// ─── The interface ───────────────────────────────────────────────────────────────────────────────

/**
 * The storage of the room. Calls may be made concurrently; each method is one atomic SQL transaction
 * (all or nothing) and is durable when its promise resolves.
 *
 * Life cycle (server.ts): `openSqliteStorage(...)` → `migrate()` → `recover()` → … → `close()`.
 */
export interface Storage {
  /** Creates or upgrades the schema: ordered migrations recorded in a migrations table; idempotent. */
  migrate(): Promise<void>;
  /**
   * Crash recovery (RULES.md §1): cancels every hand in progress, giving each player back what he put
   * in (it never left his seat's account), then returns every seat's chips to its player's balance. Each
   * hand and each seat is its own SQL transaction, so a crash during recovery leaves nothing half done
   * and the next `recover()` finishes the job. Call once on start, before any table opens.
   */
  recover(): Promise<RecoveryReport>;
  /** Flushes and closes; the object is unusable afterwards. Idempotent. */
  close(): Promise<void>;

  // Users and sessions
  createUser(user: NewUser): Promise<StorageResult<UserRecord>>;
  userById(id: UserId): Promise<UserRecord | null>;
  userByName(name: string): Promise<UserRecord | null>;
  setPassword(id: UserId, passwordHash: string, passwordSalt: string): Promise<StorageResult<void>>;
  createSession(session: {
    readonly tokenHash: string;
    readonly userId: UserId;
    readonly expiresAt: number;
  }): Promise<StorageResult<SessionRecord>>;
  /** The session with this token hash if it exists and has not expired at `now` (default: the clock). */
  sessionByTokenHash(tokenHash: string, now?: number): Promise<SessionRecord | null>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Logs a user out everywhere (e.g. after a password change), optionally keeping one session. */
  deleteSessionsOf(userId: UserId, keepTokenHash?: string): Promise<void>;
  /** Removes expired sessions; returns how many. */
  deleteExpiredSessions(now?: number): Promise<number>;

  // Balances and the cashier
  balances(userId: UserId): Promise<Balances>;
  /** Operator's cashier: real money in (`credit`) or out (`debit`) of a player's balance. */
  cashier(userId: UserId, direction: 'credit' | 'debit', amount: number): Promise<StorageResult<Balances>>;
  /** Play money added to a player's balance from the top-up source. */
  topUp(userId: UserId, amount: number): Promise<StorageResult<Balances>>;

  // Seats
  /** Moves `amount` from the player's balance to his seat at the table (a buy-in or a top-up between hands). */
  buyIn(
    tableId: string,
    userId: UserId,
    currency: Currency,
    amount: number,
  ): Promise<StorageResult<SeatBalance>>;
  /**
   * Moves the chips of the player's seat back to his balance (leaving the table); returns how many. What
   * he put into a hand still in progress stays for its settlement.
   */
  cashOut(tableId: string, userId: UserId, currency: Currency): Promise<StorageResult<number>>;
  /**
   * The chips in front of a player at a table (0 if none): his seat less what he has put into a hand in
   * progress.
   */
  seat(tableId: string, userId: UserId, currency: Currency): Promise<number>;
  /** Every seat holding chips. */
  seats(): Promise<SeatBalance[]>;

  // Hands in progress
  /** Registers a hand in progress with its participants and forced bets; returns its id. */
  startHand(hand: NewHand): Promise<StorageResult<HandId>>;
  /**
   * Records an accepted action and adds its chips to the players' contributions (never more than a seat
   * holds), in one transaction. Call it — and await it — BEFORE announcing the action: after a crash its
   * chips are refunded exactly.
   */
  recordAction(record: HandActionRecord): Promise<StorageResult<void>>;
  /**
   * Ends a hand: moves each seat's winnings less its contributions and the rake to the house as one
   * ledger transaction, and stores the history — in one SQL transaction. Awards plus rake must equal the
   * contributions (POT_MISMATCH).
   */
  settleHand(settlement: HandSettlement): Promise<StorageResult<void>>;
  /** Cancels a hand in progress: every contribution is its player's again (what `recover` does per hand). */
  cancelHand(handId: HandId): Promise<StorageResult<void>>;
  /** Each participant's net contribution to the pot of a hand in progress (also after it ended: what it was). */
  contributions(handId: HandId): Promise<StorageResult<ChipMove[]>>;
  handStatus(handId: HandId): Promise<HandStatus | null>;

  // Hand histories
  /** The player's finished hands, newest first; `before` = a hand id to page from. */
  handsOf(
    userId: UserId,
    options?: { readonly limit?: number; readonly before?: HandId },
  ): Promise<HandSummary[]>;
  /** One finished hand as the player may see it, or null when it does not exist or he did not play it. */
  handFor(handId: HandId, userId: UserId): Promise<HandHistoryView | null>;
  /** The full history (operator only: every card). */
  handFull(handId: HandId): Promise<HandHistoryView | null>;

  // The ledger itself
  /**
   * A raw balanced transaction (the primitive every movement above is built on; exposed for the operator
   * and tests). Refused with UNBALANCED if the amounts do not add up to 0 or mix currencies, with
   * INSUFFICIENT_FUNDS if an account other than a source would go negative; nothing is changed then.
   */
  post(
    kind: TransactionKind,
    postings: readonly Posting[],
    memo?: string,
  ): Promise<StorageResult<TransactionReceipt>>;
  /** Checks that no chip was created or lost; see {@link AuditReport}. */
  audit(): Promise<AuditReport>;
}

/** Options for opening the SQLite implementation. */
export interface SqliteStorageOptions {
  /**
   * The directory holding the database file `felt.db` (created if missing); default `./data`.
   * Ignored when `file` or `memory` is given.
   */
  readonly dataDir?: string;
  /** An explicit database file path. */
  readonly file?: string;
  /** An in-memory database (tests). */
  readonly memory?: boolean;
  /**
   * `full` (default): every commit is fsynced before the call resolves — an accepted action survives a
   * power cut. `normal`: survives a process crash (SIGKILL) but an OS crash may lose the last commits.
   */
  readonly synchronous?: 'full' | 'normal';
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly clock?: () => number;
  /**
   * The least time between the starts of two write batches (group commits), in ms; default 0 (each
   * turn of the event loop). What arrives meanwhile waits and commits together: under load, fewer and
   * larger commits for at most this much more latency; when idle, a write commits at once.
   */
  readonly commitGapMs?: number;
}
