/**
 * The public API of a table actor (Server I, "tables"). A table is one game at one stake: seats,
 * button and blinds, the hand in progress (the engine's `Hand`), the clocks, and the per-viewer
 * views of all of it. Everything about a table lives inside its actor; nothing is shared between
 * tables except the injected ports below (storage, allowance counter, clock, random source).
 *
 * Flow:
 * - The server creates a table with `createTable(config, deps)` (./actor.ts): a thin actor around the
 *   table machine (./machine.ts), a cash table unless `deps.policies` says otherwise (./policies.ts).
 * - Connections `subscribe(viewer, sink)`: the table sends the viewer's full view at once and then
 *   every message filtered by `viewFor` (./visibility.ts) for that viewer (an account sees the down
 *   cards dealt to it; anybody else, spectators included, only face-up and shown cards; each message
 *   carries the table's stream number `seq`, docs/protocol.md). An account with no live subscription
 *   is DISCONNECTED (he keeps his seat; see docs/tables.md), subscribing again reconnects him.
 * - Commands from authenticated accounts go to `handle(player, command)`: queued in the table's
 *   mailbox and run one at a time (also across `await`); the promise settles with the outcome once
 *   the command has been made durable and announced.
 * - The lobby reads `summary()`.
 *
 * Money is integer cents (real money) or integer play chips. Seats are numbered 0 … seats − 1.
 */
import type { RandomSource, Structure, VariantId } from '@felt/engine';
import type { Logger } from '../log.js';
import type {
  EventView,
  FairHandView,
  FairNextView,
  HandRecap,
  LegalView,
  TableView,
  WireHandAction,
} from '@felt/protocol';
import type { ControllerNews } from './effects.js';
import type { TablePolicies } from './policies.js';
import type { Currency, HandId, HandJournal, Ledger, TableCurrency, UserId } from '../storage/types.js';

export type TableId = string;
/** A player's account: the storage's user id. */
export type AccountId = UserId;
/** Play money and real money are kept apart; rake is taken at real-money tables only. */
/** A tournament's table plays `chips`: tournament chips in whole units, never money (no ledger, no rake). */
export type { Currency, HandId, TableCurrency };

// ------------------------------------------------------------------------------------------ config

/**
 * The stakes of a table, in cents. `small`/`big` are the limit ("€1/€2"): the big blind is `small`
 * (RULES.md §1: big blind = small bet), the small blind half of it rounded down; fixed limit bets
 * `small` then `big`; spread limit: `spreadLimits` or small/big as the early/late round limits;
 * PL/½PL/NL: the minimum bet is `small`. Stud games: `ante` and `bringIn` (defaults from RULES.md §6's
 * table when absent, see `studForcedBets`).
 */
export interface TableStakes {
  readonly small: number;
  readonly big: number;
  readonly ante?: number;
  readonly bringIn?: number;
  /** Spread limit: the largest bet/raise increment per betting round. */
  readonly spreadLimits?: readonly number[];
}

/** Clock settings in milliseconds (defaults: `DEFAULT_CLOCKS`). */
export interface ClockConfig {
  /** Time for a betting decision. */
  readonly actionMs: number;
  /** Time for a draw decision (RULES.md §8, §13: 30 s). */
  readonly drawMs: number;
  /** Time to answer a run-it-twice offer; no answer declines. */
  readonly runTwiceMs: number;
  /** Time bank: its size when a player sits down and its maximum. */
  readonly timeBankMs: number;
  /** Added to every dealt-in player's time bank at the end of each hand (up to the maximum). */
  readonly timeBankRefillMs: number;
  /** Pause between the end of a hand and the next deal. */
  readonly betweenHandsMs: number;
}

export const DEFAULT_CLOCKS: ClockConfig = {
  actionMs: 15_000,
  drawMs: 30_000,
  runTwiceMs: 8_000,
  timeBankMs: 30_000,
  timeBankRefillMs: 2_000,
  betweenHandsMs: 2_000,
};

export interface TableConfig {
  readonly id: TableId;
  readonly name: string;
  /** One of the room's 13 games (`ROOM_VARIANT_IDS`). */
  readonly game: VariantId;
  readonly structure: Structure;
  readonly stakes: TableStakes;
  readonly currency: TableCurrency;
  /** Seats at the table: default and maximum the game's seat limit (RULES.md §13: 10/8/6/5). */
  readonly seats?: number;
  /** Buy-in minimum; default `defaultBuyIn(...)`: fixed/spread limit 10 small bets (RULES.md §1), else 20 big blinds. */
  readonly minBuyIn?: number;
  /** Buy-in maximum (PL/½PL/NL only; default 100 big blinds); fixed and spread limit have none. */
  readonly maxBuyIn?: number | null;
  readonly clocks?: Partial<ClockConfig>;
  /** Artificial all-ins per account per 24 hours (fixed/spread limit real-money tables). Default 2. */
  readonly allInsPerDay?: number;
  /**
   * Run it twice is offered at this cash table of a flop game when players are all in with board cards
   * to come, and dealt when every player in agrees (docs/rules.md). Default off.
   */
  readonly runItTwice?: boolean;
}

// ------------------------------------------------------------------------------------------ ports

/** Time and timers, injected: real ones in production (`realClock`), a manual one in tests (`manualClock`). */
export interface TableClock {
  now(): number;
  /** A timer that calls `fire`; made once and started again and again. */
  timer(fire: () => void): TableTimer;
}

export interface TableTimer {
  /** Fires once `ms` from now; a running timer starts over. */
  start(ms: number): void;
  stop(): void;
  /** Started and not yet fired or stopped (false while it fires). */
  readonly running: boolean;
}

/**
 * What the table needs from storage: from the ledger, buy-in and cash-out of seats; from the hand
 * journal, hands in progress (forced bets with `startHand`, every accepted action with
 * `recordAction` BEFORE it is announced, so that a crash refunds exactly; the last one carries the
 * settlement with the hand's history, full and per participant, filtered by ./visibility.ts).
 */
export type TableStorage = Pick<Ledger, 'buyIn' | 'cashOut'> &
  Pick<HandJournal, 'startHand' | 'recordAction' | 'fairLink' | 'saveFairLink'>;

/** What a ledger table also reads and writes to go on after storage refused a write (./reconcile.ts). */
export type TableRecoveryStorage = Pick<HandJournal, 'handInPlay' | 'cancelHand'> & Pick<Ledger, 'seat'>;

/** Where a table says it waits for storage to take writes, and that it goes on (the room's readiness). */
export interface StorageWaits {
  failed(source: string, error: unknown): void;
  recovered(source: string): void;
}

/**
 * Artificial all-ins: a limited number per account per 24 hours, counted across tables (the room
 * shares one counter between its tables; `memoryAllInCounter` in ./allin.ts). The allowance is the
 * asking table's (`allInsPerDay`): each call says it.
 */
export interface AllInCounter {
  /** Uses one of the account's `perDay` allowance at time `now` if any is left: true when granted. */
  take(account: AccountId, now: number, perDay: number): boolean;
  /** How many of `perDay` are left for the account at `now`. */
  left(account: AccountId, now: number, perDay: number): number;
}

/**
 * Where the stacks of a `controller` chips table (./policies.ts) are made durable (a tournament's
 * storage); called before the seat change is announced.
 */
export interface StackStore {
  handIn(tableId: TableId, account: AccountId, stack: number): Promise<void>;
  handOut(tableId: TableId, account: AccountId, stack: number): Promise<void>;
}

/** What a table tells its controller (./machine.ts `ControllerNews`). */
export type TableController = (news: ControllerNews) => void;

export interface TableDeps {
  readonly storage: TableStorage;
  readonly clock: TableClock;
  /** A fresh random source per table (node:crypto in production: `cryptoRandomSource`). */
  readonly random: RandomSource;
  readonly allIns?: AllInCounter;
  /** Default `CASH_GAME`. */
  readonly policies?: TablePolicies;
  /** Stacks handed in and out (`controller` chips); none: nothing to write. */
  readonly stacks?: StackStore;
  /** Told of finished hands, busted players and players taken out. */
  readonly controller?: TableController;
  /**
   * With it, a ledger table that meets a write storage refuses for want of space or reach
   * (storage/unavailable.ts) waits and tries again (./reconcile.ts) instead of stopping; without it (a
   * fenced table of several processes, a tournament's) it stops as on any other failure.
   */
  readonly recovery?: TableRecoveryStorage;
  /** Told while the table waits for storage, and once it goes on. */
  readonly storageWaits?: StorageWaits;
  /** Called when a command or timer fails unexpectedly (a bug, a lease lost); default console.error. */
  readonly onError?: (error: unknown) => void;
  /** Details the players are not shown (a ledger refusal's words); default: none kept. */
  readonly logger?: Logger;
}

// ------------------------------------------------------------------------------------------ input

/** The player behind a command (authenticated by the server). */
export interface PlayerRef {
  readonly account: AccountId;
  /** Display name shown to others. */
  readonly name: string;
  /** A house bot (shown as one on his seat). */
  readonly bot?: boolean;
}

/**
 * A decision in the hand: the protocol's own shape, from the client to the engine unchanged until the
 * table translates it once into the engine's action (./actions.ts). Cards are card texts ("Ah").
 */
export type PlayerAction = WireHandAction;

export type TableCommand =
  /**
   * Take seat `seat` with `buyIn` chips (moved from the balance at once). `post`: a new player may
   * post a big blind to play at once ('post') or wait for the big blind ('wait', default); stud games
   * ignore it. `autoPost` (default on): see the 'auto-post' command.
   */
  | {
      readonly type: 'sit';
      readonly seat: number;
      readonly buyIn: number;
      readonly post?: 'post' | 'wait';
      readonly autoPost?: boolean;
      readonly muckLosing?: boolean;
    }
  /** Leave the table: chips back to the balance at once, or after the hand he is in (his hand folded when it is his turn). */
  | { readonly type: 'leave' }
  /** Sit out from the next hand on (the seat is kept; missed blinds are marked). */
  | { readonly type: 'sit-out' }
  /** Come back: `post` the missed blinds now (the small one dead) or `wait` for the big blind (default). */
  | { readonly type: 'sit-in'; readonly post?: 'post' | 'wait' }
  /** Post blinds when they are due without being asked (default on); off: the table asks each time. */
  | { readonly type: 'auto-post'; readonly on: boolean }
  /** Answers the table's request to post a blind: post it, or decline and sit out. */
  | { readonly type: 'post-blind'; readonly post: boolean }
  /** Answers the hand's run-it-twice offer (`HandView.runTwice`): agree, or decline (one run). */
  | { readonly type: 'run-twice'; readonly accept: boolean }
  /** At the showdown, muck a hand a shown one already beats instead of showing it (default on). */
  | { readonly type: 'muck-losing'; readonly on: boolean }
  /** Add chips between hands (up to the maximum buy-in). */
  | { readonly type: 'top-up'; readonly amount: number }
  /** A decision; `handId` (optional) must be the current hand's. */
  | { readonly type: 'act'; readonly action: PlayerAction; readonly handId?: HandId }
  /**
   * 32 random bytes (64 lower-case hex digits) for the fair-dealing chain's next hand, naming that
   * hand's commitment (hex); one per seat and hand (docs/fairness.md).
   */
  | { readonly type: 'fair-contribute'; readonly commitment: string; readonly bytes: string };

/** Commands of a table's controller (`controller` chips or hand start, ./policies.ts). */
export type ControllerCommand =
  /**
   * Seat `player` at `seat` with `stack` chips (handed in: `StackStore.handIn`). `afterButton`: his
   * seat lies between the next hand's button and small blind, so he is dealt in only once the button
   * has passed him (a late registration, TDA), never skipping the blinds.
   */
  | {
      readonly type: 'seat';
      readonly player: PlayerRef;
      readonly seat: number;
      readonly stack: number;
      readonly afterButton?: boolean;
    }
  /**
   * A ledger table taken over from a process that died (src/cluster/): seat `player` again at `seat`
   * with the `stack` his seat's ledger account still holds (nothing moves in the ledger). Before any hand.
   */
  | {
      readonly type: 'restore-seat';
      readonly player: PlayerRef;
      readonly seat: number;
      readonly stack: number;
    }
  /**
   * A ledger table taken over from a process that handed it over in play (src/cluster/), its seats
   * restored: go on with its hand in progress `handId` from the state it was dealt from and the actions
   * recorded since (the journal's, ../storage/hand-journal.ts `handInPlay`), each replayed and checked.
   * Refused when the seats or the replay do not match the journal: the hand is then cancelled instead.
   */
  | {
      readonly type: 'resume-hand';
      readonly handId: HandId;
      readonly start: string;
      readonly actions: readonly string[];
    }
  /** Take `account` out with his stack (after the hand he is in). */
  | { readonly type: 'unseat'; readonly account: AccountId }
  /** Add `chips` to the stack of `account`, who is not in a hand in progress (a tournament's rebuy or add-on). */
  | { readonly type: 'add-chips'; readonly account: AccountId; readonly chips: number }
  /** `handStart: 'controller'`: allow `count` more hands to start. */
  | { readonly type: 'allow-hands'; readonly count: number }
  /** The room's staff: no hand starts while paused (the one in play finishes); any table. */
  | { readonly type: 'pause'; readonly paused: boolean };

/** Refusals; the values are those of `@felt/protocol`'s `ErrorCode` (a subset of it). */
export const TableErrorCode = {
  /** The seat is taken or outside the table. */
  SEAT_TAKEN: 'SEAT_TAKEN',
  /** One seat per account per table. */
  ALREADY_SEATED: 'ALREADY_SEATED',
  NOT_SEATED: 'NOT_SEATED',
  /** Buy-in or top-up outside the table's minimum/maximum. */
  BAD_BUY_IN: 'BAD_BUY_IN',
  /** The balance is too low for the buy-in. */
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  /** A staff account's real-money buy-in. */
  STAFF_ACCOUNT: 'STAFF_ACCOUNT',
  /** Not possible in the hand's or the seat's current state (e.g. top-up during his hand, sit-in while not out). */
  WRONG_STATE: 'WRONG_STATE',
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  /** The action is not among the legal actions. */
  ILLEGAL_ACTION: 'ILLEGAL_ACTION',
  BAD_AMOUNT: 'BAD_AMOUNT',
  BAD_CARDS: 'BAD_CARDS',
  /** No hand in progress, or `handId` is not the hand in progress. */
  NO_SUCH_HAND: 'NO_SUCH_HAND',
  /** A fair-dealing contribution names another commitment than the next hand's. */
  WRONG_COMMITMENT: 'WRONG_COMMITMENT',
  /** A fair-dealing contribution is not 32 bytes in lower-case hex. */
  BAD_CONTRIBUTION: 'BAD_CONTRIBUTION',
  /** The table is closed (disposed, or stopped after a bug or a lost lease). */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
  /** Storage refuses writes for now: the table waits for it, nothing changed; it goes on by itself. */
  STORAGE_UNAVAILABLE: 'STORAGE_UNAVAILABLE',
  /** A storage failure; the request changed nothing the players were told of. */
  INTERNAL: 'INTERNAL',
} as const;
export type TableErrorCode = (typeof TableErrorCode)[keyof typeof TableErrorCode];

/** An acknowledged contribution: the hand it goes to, and the hash that hand's first message will list. */
export interface ContributionReceipt {
  readonly hand: number;
  readonly seat: number;
  /** 64 hex digits. */
  readonly hash: string;
}

export type CommandResult =
  | { readonly ok: true; readonly contribution?: ContributionReceipt }
  | { readonly ok: false; readonly error: { readonly code: TableErrorCode; readonly message: string } };

// ------------------------------------------------------------------------------------------ output

// What a table sends is the protocol's wire shapes: one definition, shared with the browser client.
export type {
  CardView,
  MissedBlinds,
  SeatStatus,
  SeatView,
  HandPlayerView,
  LegalView,
  HandView,
  BlindRequestView,
  TableView,
  EventView,
  HandRecap,
  FairHandView,
  FairNextView,
  FairRevealView,
} from '@felt/protocol';
export { HIDDEN_CARD } from '@felt/protocol';

/**
 * Everything a table sends; each message already filtered for its receiver by `viewFor`. `seq`: the
 * table's stream number (docs/protocol.md): every broadcast advances it by one and carries the new
 * number; a snapshot to one subscriber carries the current one; legal actions that of their clock.
 */
export type TableMessage =
  /** The full current view (on subscribe/reconnect, at each hand start and end, on seat changes). */
  | {
      readonly type: 'table-snapshot';
      readonly tableId: TableId;
      readonly seq: number;
      readonly view: TableView;
    }
  /**
   * A hand's first message (before its forced bets): its place in the fair-dealing chain, and the
   * commitment of the next hand, which contributions now go to.
   */
  | {
      readonly type: 'hand-start';
      readonly tableId: TableId;
      readonly seq: number;
      readonly handId: HandId;
      readonly number: number;
      readonly fair: FairHandView;
      readonly next: FairNextView;
    }
  /** One event of the hand in progress. */
  | {
      readonly type: 'table-event';
      readonly tableId: TableId;
      readonly handId: HandId;
      readonly seq: number;
      readonly event: EventView;
    }
  /** Somebody is to act: the seat, his clock (deadline in clock ms, time bank not counted) and time bank. */
  | {
      readonly type: 'clock';
      readonly tableId: TableId;
      readonly seq: number;
      readonly handId: HandId;
      readonly seat: number;
      readonly deadline: number;
      readonly timeBankMs: number;
    }
  /** Sent only to the player to act: what he may do. */
  | {
      readonly type: 'legal-actions';
      readonly tableId: TableId;
      readonly seq: number;
      readonly handId: HandId;
      readonly legal: LegalView;
    }
  /** The hand is over; the summary as this viewer may see it. */
  | {
      readonly type: 'hand-summary';
      readonly tableId: TableId;
      readonly seq: number;
      readonly summary: HandRecap;
    };

/** A subscriber's sink: called synchronously with every message for him (never throws back into the table). */
export type TableSink = (message: TableMessage) => void;

/** What the lobby shows about a table. */
export interface TableSummary {
  readonly id: TableId;
  readonly name: string;
  readonly game: VariantId;
  readonly structure: Structure;
  readonly stakes: TableStakes;
  /** The stakes the table is named and shown by (a big-bet table's blinds: "0.50/1"). */
  readonly stakesText: string;
  readonly currency: TableCurrency;
  readonly seatCount: number;
  readonly seated: number;
  readonly free: number;
  readonly minBuyIn: number;
  readonly maxBuyIn: number | null;
  /** Average final pot over the last (up to) 50 hands, 0 before the first. */
  readonly averagePot: number;
  /** Hands dealt in the last hour (clock time). */
  readonly handsPerHour: number;
  /** Players waiting for a hand to start (fewer than 2 ready) → false. */
  readonly playing: boolean;
  /** The room's staff paused it: no hand starts until they resume it. */
  readonly paused: boolean;
}

/** A table actor. */
export interface Table {
  readonly id: TableId;
  readonly config: TableConfig;
  /** Queues a command; resolves with its outcome once it is durable and announced. */
  handle(player: PlayerRef, command: TableCommand): Promise<CommandResult>;
  /** Queues a controller's command (./policies.ts); resolves like `handle`. */
  control(command: ControllerCommand): Promise<CommandResult>;
  /** Who watches: the distinct accounts with a live subscription, and the anonymous subscriptions. */
  audience(): { readonly accounts: readonly AccountId[]; readonly anonymous: number };
  /**
   * Watches the table as `viewer` (an account: seated or not; null: anonymous spectator). The sink
   * gets the full view at once (queued in the mailbox) and then every message as that viewer may
   * see it. Returns the unsubscribe function. A seated account with no subscription is disconnected.
   */
  subscribe(viewer: AccountId | null, sink: TableSink): () => void;
  /** The lobby's summary (synchronous; reflects the last completed command). */
  summary(): TableSummary;
  /** The view of `viewer` now (synchronous, filtered like every message). */
  view(viewer: AccountId | null): TableView;
  /** The last finished hand's summary as `viewer` may see it, or null (kept where the table runs). */
  lastSummary(viewer: AccountId | null): Promise<HandRecap | null>;
  /** Resolves when the mailbox is empty (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Closes the table: stops its timers and refuses further commands. The hand in progress (if any)
   * is left as it is in storage, to be cancelled and refunded by the crash rule on the next start,
   * and so are the seats' chips (the room's shutdown and recovery return them to the balances).
   */
  dispose(): Promise<void>;
}
