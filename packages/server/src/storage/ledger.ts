/**
 * The ledger: every player's chips, double entry (see docs/storage.md). Every chip movement is a
 * balanced transaction — the amounts of its postings add up to 0 — written in one SQL transaction
 * together with whatever it records (a buy-in, a settlement). Chips live in ledger accounts: a player's
 * balance, his seat at a table, the house (rake), and two external sources (the real-money cashier and
 * the play-money top-up), whose balances go negative by what they have paid in. The sum over all
 * accounts of a currency is therefore always 0, which `audit()` checks.
 *
 * The chips a player has put into a hand in progress stay in his seat's account until the hand is
 * settled (./hand-journal.ts), so what is in front of him at a table is his seat less those: `seat` and
 * `cashOut` read the journal's contributions, and the audit reads the journal and the histories'
 * settled hands. The ledger and the journal therefore live in one database.
 */
import type { Currency, HandId, StorageResult, UserId } from './common.js';

export interface Balances {
  readonly play: number;
  readonly real: number;
}

/**
 * A ledger account. `user` = a player's balance; `seat` = a player's chips at a table (his stack when the
 * hand in progress began, or between hands); `pot` = the chips of a hand begun by an earlier Felt, which
 * moved them as they were bet; `house` = rake and tournament fees; `prize-pool` = the buy-ins of a
 * tournament's entrants, until they are paid out as prizes or refunded (tournament chips are not money
 * and are never here); `cashier` (real) and `top-up` (play) are the external sources.
 */
export type LedgerAccount =
  | { readonly kind: 'user'; readonly currency: Currency; readonly userId: UserId }
  | { readonly kind: 'seat'; readonly currency: Currency; readonly tableId: string; readonly userId: UserId }
  | { readonly kind: 'pot'; readonly currency: Currency; readonly handId: HandId }
  | { readonly kind: 'house'; readonly currency: Currency }
  | { readonly kind: 'prize-pool'; readonly currency: Currency; readonly tournamentId: string }
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
  // Kept so that ledgers holding them still read: chips moved through a pot account as bet and won.
  'contribution',
  'award',
  'rake',
  'crash-refund',
  'crash-cash-out',
  'manual',
  /** A tournament entry: the buy-in to its prize pool, the fee to the house. */
  'tournament-entry',
  /** An entry given back (unregistered, or the tournament cancelled): buy-in and fee. */
  'tournament-refund',
  /** A prize paid from the prize pool. */
  'tournament-prize',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** The memo of a hand's settlement, and of its cancellation: how a hand's transactions are found. */
export const handMemo = (handId: HandId): string => `hand ${handId}`;
export const handCancelledMemo = (handId: HandId): string => `hand ${handId} cancelled`;

/** The hand whose settlement or cancellation a memo names, if it names one. */
export function handOfMemo(memo: string | null): HandId | null {
  const match = memo === null ? null : /^hand (\d+)(?: cancelled)?$/.exec(memo);
  return match ? Number(match[1]) : null;
}

/** A transaction as stored: its postings add up to 0 (the ledger refuses any other). */
export interface LedgerTransactionRecord {
  readonly id: number;
  readonly kind: TransactionKind;
  readonly currency: Currency;
  /** What it was for: the table of a buy-in, the hand of a settlement (`hand 12`), … */
  readonly memo: string | null;
  /** Ms since the epoch. */
  readonly createdAt: number;
  readonly postings: readonly Posting[];
}

export interface LedgerLookups {
  /** One transaction with its postings, or null when there is none of that id. */
  ledgerTransaction(id: number): Promise<LedgerTransactionRecord | null>;
  /**
   * The newest transactions (at most `limit`) that post to one of a player's accounts (his balances,
   * his seats), or that settled or cancelled a hand.
   */
  ledgerTransactionsOf(
    about: { readonly userId: UserId } | { readonly handId: HandId },
    limit: number,
  ): Promise<LedgerTransactionRecord[]>;
}

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

/** One seat account of a table as the ledger holds it, and what its player has put into hands in progress there. */
export interface TableSeatAccount {
  readonly userId: UserId;
  readonly currency: Currency;
  /** The account's balance: the chips in front of him and what he has put into hands in progress. */
  readonly balance: number;
  readonly committed: number;
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
  /** Tournaments' prize pools: buy-ins held until paid out or refunded. */
  readonly prizePools: number;
  /** The external sources (cashier or top-up): minus what they paid in net. */
  readonly external: number;
  readonly sum: number;
}

/** One tournament's prize pool: what its entries brought in, what was paid out and refunded, what it holds. */
export interface PrizePoolReport {
  readonly tournamentId: string;
  readonly currency: Currency;
  readonly entered: number;
  readonly paid: number;
  readonly refunded: number;
  /** entered − paid − refunded (the audit checks it). */
  readonly held: number;
}

/** What `audit()` found. `conserved` is true when `problems` is empty. */
export interface AuditReport {
  readonly conserved: boolean;
  readonly currencies: Readonly<Record<Currency, CurrencyTotals>>;
  readonly transactions: number;
  readonly handsInProgress: number;
  /** Every tournament's prize pool. */
  readonly prizePools: readonly PrizePoolReport[];
  /**
   * Every broken invariant, in words: a currency whose sum is not 0, an unbalanced transaction, an
   * account whose balance differs from the sum of its postings, a negative non-source balance, a seat
   * holding less than its player has put into hands in progress, a settled hand that did not pay out
   * exactly what was put in, a player dealt a stack his seat account did not hold.
   */
  readonly problems: readonly string[];
}

/** Balances, the cashier, seats and the audit. Each method is one atomic transaction, durable when it resolves. */
export interface Ledger {
  balances(userId: UserId): Promise<Balances>;
  /** Operator's cashier: real money in (`credit`) or out (`debit`) of a player's balance. */
  cashier(userId: UserId, direction: 'credit' | 'debit', amount: number): Promise<StorageResult<Balances>>;
  /**
   * Play money added to a player's balance from the top-up source. With a `ceiling`: refused
   * (TOP_UP_LIMIT) if his balance and his chips at tables would then hold more than it — checked in the
   * transaction that adds them, so chips parked at a table or two top-ups at once do not pass it.
   */
  topUp(userId: UserId, amount: number, ceiling?: number): Promise<StorageResult<Balances>>;
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
  /** The seat accounts of one table holding chips, read at one moment (the live audit's side of a table). */
  seatsAt(tableId: string): Promise<TableSeatAccount[]>;
  /**
   * A raw balanced transaction (the primitive every movement is built on; exposed for the operator and
   * tests). Refused with UNBALANCED if the amounts do not add up to 0 or mix currencies, with
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
