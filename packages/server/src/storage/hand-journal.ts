/**
 * The hand journal of each table: the hands in progress, made durable action by action so that a crash
 * loses nothing a player was told of (RULES.md §1). Each action is one row, and what the players put in
 * is counted per player; the chips stay in the seats' ledger accounts until the hand is settled, as one
 * ledger transaction of each seat's net result and the rake — so a cancelled hand has nothing to move
 * back. Needs the journal's own tables (`hands`, `hand_players`, `hand_actions`) and the ledger's
 * accounts and postings (./ledger.ts); a settlement also stores the hand's histories (./hand-histories.ts
 * reads them).
 *
 * Every method but {@link HandJournal.recoverTables} is one atomic transaction, durable when it resolves.
 */
import type { HandId, TableCurrency, StorageResult, UserId } from './common.js';

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

/**
 * A table's fair-dealing chain (docs/fairness.md): the next hand it will deal, the commitment that hand
 * names as its previous one, and its secret (hex). Stored before the commitment is published.
 */
export interface FairLink {
  /** The hand's number in the table's chain, from 1 (cancelled hands count). */
  readonly hand: number;
  /** 64 hex digits: the previous hand's commitment (zeros for the first). */
  readonly previous: string;
  /** 64 hex digits: the hand's secret. */
  readonly secret: string;
}

/** What a hand dealt by the scheme keeps: its secret and contributions (hex), and the chain's next link. */
export interface NewHandFair {
  readonly secret: string;
  /** The contributions used, in the order of the hand's listed seats. */
  readonly contributions: readonly string[];
  /** The table's next link, stored in the same transaction as the hand (its commitment goes out with it). */
  readonly next: FairLink;
}

export interface NewHand {
  readonly tableId: string;
  /** A tournament's hands (`chips`) go to its own book, never to the ledger. */
  readonly currency: TableCurrency;
  /** Free text for lists, e.g. "NL Hold'em 0.50/1". */
  readonly description: string;
  readonly participants: readonly HandParticipant[];
  /** Forced bets posted when the hand starts (antes, blinds), made durable with the hand itself. */
  readonly posts?: readonly ChipMove[];
  /** The hand is dealt by the fair-dealing scheme: its secret, contributions and the chain's next link. */
  readonly fair?: NewHandFair;
  /**
   * The state the hand was dealt from, as the table keeps it (JSON, table/hand-start.ts): with the actions
   * recorded since, another process goes on with the hand exactly (a hand handed over in play).
   */
  readonly start?: string;
}

/** A hand in progress as the journal holds it: what another owner needs to go on with it. */
export interface StoredHandInPlay {
  readonly handId: HandId;
  /** {@link NewHand.start}; null for a hand stored without it. */
  readonly start: string | null;
  /** The recorded actions ({@link HandActionRecord.action}), in sequence order (0, 1, 2, …). */
  readonly actions: readonly string[];
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
   * The action ended the hand: settle it in the same transaction (as {@link HandJournal.settleHand}), so
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
   * What each participant may see: the PHH filtered by the table's visibility rules for his account
   * (his own cards, cards shown and face up, `??` for the rest). One entry per participant.
   */
  readonly views: readonly { readonly userId: UserId; readonly phh: string }[];
}

/** How a finished hand is paid out; see {@link HandJournal.settleHand}. */
export interface Settlement {
  /** Chips from the pot to the winners' seats (one entry per winner; amounts > 0). */
  readonly awards: readonly ChipMove[];
  /** Chips from the pot to the house (real money only; 0 on play money). */
  readonly rake: number;
  readonly history: HandHistoryInput;
  /**
   * A hand dealt by the scheme: how long after the settlement its secret and contributions go to its
   * players' histories (0: at once). The rule is the table's (table/visibility.ts).
   */
  readonly fairRevealAfterMs?: number;
}

export interface HandSettlement extends Settlement {
  readonly handId: HandId;
}

export type HandStatus = 'in-progress' | 'settled' | 'cancelled';

/** What `recoverTables()` did, for the log. */
export interface RecoveryReport {
  /** Hands that were in progress and are now cancelled, their contributions returned to the seats. */
  readonly handsCancelled: number;
  /** Cents/chips the cancelled hands had taken from the players, theirs again. */
  readonly refunded: number;
  /** Seats emptied back into the players' balances. */
  readonly seatsCashedOut: number;
  readonly cashedOut: number;
}

export interface HandJournal {
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
  /** Cancels a hand in progress: every contribution is its player's again (what recovery does per hand). */
  cancelHand(handId: HandId): Promise<StorageResult<void>>;
  /** Each participant's net contribution to the pot of a hand in progress (also after it ended: what it was). */
  contributions(handId: HandId): Promise<StorageResult<ChipMove[]>>;
  handStatus(handId: HandId): Promise<HandStatus | null>;
  /** The table's hand in progress (its latest, should there be several), or null. */
  handInPlay(tableId: string): Promise<StoredHandInPlay | null>;
  /** The table's stored fair-dealing chain (its next hand), or null for a table that never had one. */
  fairLink(tableId: string): Promise<FairLink | null>;
  /** Stores the table's next link (a table's first, before its commitment is published). */
  saveFairLink(tableId: string, link: FairLink): Promise<StorageResult<void>>;
  /** The tables with a hand in progress or a seat holding chips, in order: what a crash left to recover. */
  tablesInPlay(): Promise<string[]>;
  /**
   * Crash recovery (RULES.md §1) of the given tables, which the caller owns: cancels each of their hands
   * in progress, giving each player back what he put in (it never left his seat's account), then returns
   * each of their seats' chips to its player's balance. Other tables are not touched. Each hand and each
   * seat is its own SQL transaction, so a crash during recovery leaves nothing half done and recovering
   * again finishes the job. Call it before the tables open.
   */
  recoverTables(tableIds: readonly string[]): Promise<RecoveryReport>;
}
