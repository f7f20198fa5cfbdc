/**
 * What the staff's console is sent (`staff-*` acks): a player as the staff see him, the room's live
 * figures, the ledger's audit and the game-security reports. Amounts are in cents (real money) or
 * chips (play money), as everywhere.
 */
import type { Currency, Balances, HandListItem } from './messages.js';

/** A staff role; a player has none. */
export type StaffRoleName = 'operator' | 'admin';

/** A player as the staff see him. */
export interface StaffPlayerView {
  readonly id: number;
  readonly name: string;
  /** `operator`, `admin`, or null for a player. */
  readonly role: string | null;
  /** When the staff suspended him (ms since the epoch); null when he is not suspended. */
  readonly suspendedAt: number | null;
  readonly balances: Balances;
  /** Chips at tables, by table. */
  readonly seats: readonly {
    readonly tableId: string;
    readonly currency: Currency;
    readonly amount: number;
  }[];
  /** The sessions that have not expired: when each began and ends (ms since the epoch). */
  readonly sessions: readonly { readonly createdAt: number; readonly expiresAt: number }[];
  /** The addresses of his open connections (the TCP peer's; none when he is offline). */
  readonly addresses: readonly string[];
  /** His last settled hands, newest first (at most 20). */
  readonly hands: readonly HandListItem[];
}

/** A finished hand in the staff's lists: where and when, whoever played it. */
export type SettledHandView = Omit<HandListItem, 'net'>;

/** A window's p50 and p99 in milliseconds (the figures of `/health`). */
export interface WindowView {
  readonly p50: number;
  readonly p99: number;
}

/** The room at one moment. */
export interface FigureSample {
  /** ms since the epoch. */
  readonly at: number;
  readonly tables: number;
  /** Accounts with at least one logged-in connection. */
  readonly playersOnline: number;
  readonly connections: number;
  /** Hands dealt since the server started (`felt_hands_started_total`). */
  readonly handsStarted: number;
  /** Hands dealt in the minute before `at` (from `handsStarted`; partial in the server's first minute). */
  readonly handsPerMinute: number;
  /** The server's share of an action's latency over the last window; null before the first one ends. */
  readonly actLatencyMs: WindowView | null;
  /** The event loop's delay over the last window; null before the first one ends. */
  readonly eventLoopDelayMs: WindowView | null;
  /** Unexpected errors since the server started (`felt_errors_total`, every source). */
  readonly errors: number;
}

/** `staff-figures`: the room now, and a sample every `periodMs` over the last minutes (oldest first). */
export interface LiveFiguresView {
  readonly now: FigureSample;
  readonly periodMs: number;
  readonly samples: readonly FigureSample[];
  /** Tables stopped by an error (as `/health` lists them). */
  readonly failedTables: readonly { readonly tableId: string; readonly error: string; readonly at: number }[];
  /** The cluster as this process last saw it (at most a lease tick old); null for a room of one process. */
  readonly cluster: ClusterStatusView | null;
}

/** The members of a cluster and the tables' leases, with their ages by the database's clock. */
export interface ClusterView {
  readonly members: readonly {
    readonly id: number;
    readonly label: string;
    readonly address: string;
    /** Since its last heartbeat. */
    readonly heartbeatAgeMs: number;
    readonly live: boolean;
  }[];
  readonly leases: readonly {
    readonly tableId: string;
    readonly memberId: number;
    readonly epoch: number;
    /** Since the lease was taken by its present owner. */
    readonly ageMs: number;
    /** Until it runs out unless renewed; negative once it has. */
    readonly expiresInMs: number;
  }[];
  /** The tournament runs' leases (each run directed by its holder), those held or run out in the last minute. */
  readonly runs: readonly {
    readonly tournamentId: string;
    readonly memberId: number;
    readonly epoch: number;
    /** Since the lease was taken by the member directing the run. */
    readonly ageMs: number;
    readonly expiresInMs: number;
  }[];
}

/** A process's view of its cluster (`/health`'s `cluster`): which member it is and the tables it runs. */
export interface ClusterStatusView extends ClusterView {
  readonly member: number;
  readonly label: string;
  readonly tables: readonly string[];
}

/** One currency's totals in the audit; `sum` is 0 when it is conserved. */
export interface AuditCurrencyView {
  readonly accounts: number;
  readonly seats: number;
  readonly pots: number;
  readonly house: number;
  readonly prizePools: number;
  readonly external: number;
  readonly sum: number;
}

/**
 * A ledger account as the staff see it: a player's balance (`user`) or seat, a hand's pot (hands of an
 * earlier Felt), the house, a tournament's prize pool, or an external source (`cashier`, `top-up`).
 */
export interface LedgerAccountView {
  readonly kind: 'user' | 'seat' | 'pot' | 'house' | 'prize-pool' | 'cashier' | 'top-up';
  readonly userId?: number;
  /** The player's name, beside his id. */
  readonly userName?: string;
  readonly tableId?: string;
  readonly handId?: number;
  readonly tournamentId?: string;
}

/** `staff-transaction(s)`: one movement of chips, double entry. */
export interface LedgerTransactionView {
  readonly id: number;
  /** What moved them: `buy-in`, `cash-out`, `hand`, `cashier-credit`, `tournament-entry`, … */
  readonly kind: string;
  readonly currency: Currency;
  /** The ledger's note: the table of a buy-in, the hand of a settlement (`hand 12`), … */
  readonly memo: string | null;
  /** The hand it settled or cancelled, if any. */
  readonly handId: number | null;
  /** Ms since the epoch. */
  readonly createdAt: number;
  /** Positive into the account, negative out of it. */
  readonly postings: readonly { readonly account: LedgerAccountView; readonly amount: number }[];
  /** The postings' sum: 0, always (the ledger refuses any other transaction). */
  readonly sum: number;
}

/** `staff-audit`: the ledger's audit and the staff log's chain (what `felt admin audit` prints). */
export interface StaffAuditView {
  readonly conserved: boolean;
  readonly currencies: Readonly<Record<Currency, AuditCurrencyView>>;
  readonly transactions: number;
  readonly handsInProgress: number;
  /** Every broken invariant, in words: where the money is not conserved. */
  readonly problems: readonly string[];
  readonly staffLog: {
    readonly entries: number;
    readonly intact: boolean;
    readonly brokenAt: number | null;
  };
}

/** One finding of a game-security report (docs/operators.md, "Game security"). */
export interface IntegrityFindingView {
  readonly players: readonly { readonly id: number; readonly name: string }[];
  readonly pValue: number;
  readonly threshold: number;
  /** The supporting hands' ids (at most 500, ascending); `handCount`: all of them. */
  readonly hands: readonly number[];
  readonly handCount: number;
  /** The report's own figures (`together`, `netFlow`, `z`, …). */
  readonly [figure: string]: unknown;
}

/** `staff-integrity`: the game-security reports, the same document as `felt admin integrity`. */
export interface IntegrityView {
  readonly alpha: number;
  readonly hands: number;
  readonly unreadable: number;
  readonly players: number;
  readonly seating: readonly IntegrityFindingView[];
  readonly chipDumping: readonly IntegrityFindingView[];
  readonly softPlay: readonly IntegrityFindingView[];
  readonly winRate: readonly IntegrityFindingView[];
}
