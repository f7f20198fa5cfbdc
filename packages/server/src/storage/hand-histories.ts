/**
 * Hand histories: the finished hands, each stored with its full PHH and one view per participant when
 * the journal settles it (./hand-journal.ts), and fetched by a player (his own view of his own hands) or
 * the operator (every card). Reads the journal's `hands` and `hand_players`, where the histories are
 * stored beside the hand's result.
 */
import type { Currency, HandId, UserId } from './common.js';

/** A settled hand as one player played it: a line of his hand list. */
export interface PlayedHand {
  readonly handId: HandId;
  readonly tableId: string;
  readonly currency: Currency;
  readonly description: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The player's net result in the hand: awards minus contributions. */
  readonly net: number;
}

/** A settled hand as the staff list it: where and when, whoever played it. */
export type SettledHandItem = Omit<PlayedHand, 'net'>;

/** One hand's history (its PHH file) as one participant may see it. */
export interface HandHistoryView extends PlayedHand {
  readonly phh: string;
  /**
   * A hand dealt by the fair-dealing scheme whose reveal time has come: its secret and the
   * contributions used (hex, in the order its history lists their seats); null before, or for a hand
   * dealt otherwise.
   */
  readonly fairReveal: FairReveal | null;
}

export interface FairReveal {
  readonly secret: string;
  readonly contributions: readonly string[];
}

/** One participant of a stored hand: who he is, where he sat, what he put in and took out. */
export interface StoredHandPlayer {
  readonly userId: UserId;
  readonly name: string;
  readonly seat: number;
  /** The engine's position: `p{position + 1}` in the PHH. */
  readonly position: number;
  readonly contributed: number;
  readonly won: number;
}

/** A settled hand with its full PHH and its participants, for the operator's reports (../integrity). */
export interface StoredHand {
  readonly handId: HandId;
  readonly tableId: string;
  readonly currency: Currency;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly phh: string;
  readonly players: readonly StoredHandPlayer[];
}

export interface HandHistories {
  /** The player's settled hands, newest first; `before` = a hand id to page from. */
  handsOf(
    userId: UserId,
    options?: { readonly limit?: number; readonly before?: HandId },
  ): Promise<PlayedHand[]>;
  /** One settled hand as the player may see it, or null when it does not exist or he did not play it. */
  handFor(handId: HandId, userId: UserId): Promise<HandHistoryView | null>;
  /**
   * Settled hands, newest first, at one table and/or ended within a time span (ms since the epoch,
   * both ends included); at most `limit` (default 50, at most 500). The staff's lookup: it reads the
   * hands newest first, so a narrow filter over an old span reads far.
   */
  handsWhere(options: {
    readonly tableId?: string;
    readonly endedFrom?: number;
    readonly endedTo?: number;
    readonly limit?: number;
  }): Promise<SettledHandItem[]>;
  /** The full history (operator only: every card). */
  handFull(handId: HandId): Promise<HandHistoryView | null>;
  /** Settled hands in id order from after `after` (exclusive), at most `limit` (default 500, at most 5,000). */
  settledHands(options?: { readonly after?: HandId; readonly limit?: number }): Promise<StoredHand[]>;
}
