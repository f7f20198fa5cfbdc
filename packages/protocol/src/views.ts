/**
 * The shapes of what a table sends, as they travel on the wire: the full view of a table, hand
 * events, the legal actions and clock of the player to act, and the hand summary — each already
 * filtered for its receiver by the server's `viewFor` (a player sees his own down cards; nobody sees
 * anything else hidden: "??"). These mirror the table actor's output types
 * (packages/server/src/table/types.ts); the server checks at compile time that they agree
 * (packages/server/src/transport/wire.ts).
 */
import type { HandEvent, MaybeCard, Structure, VariantId } from '@felt/engine';

type TableId = string;
/** An account: the storage's user id. */
export type AccountId = number;
/** A hand: the storage's hand id (the same number identifies its stored history). */
type HandId = number;
/**
 * What a table's amounts count: play or real money (in cents), or tournament chips (`chips`: whole
 * units, never money).
 */
export type TableCurrency = 'play' | 'real' | 'chips';

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

/** A card as a viewer sees it: its text ("Ah"), or "??" when hidden from him. */
export type CardView = string;
export const HIDDEN_CARD = '??';

/** Missed-blind marks (RULES.md §1, 004): ML = missed the big ("large") blind, MS = the small one. */
export interface MissedBlinds {
  readonly small: boolean;
  readonly big: boolean;
}

export type SeatStatus =
  /** Dealt into hands. */
  | 'playing'
  /** New (or back with missed blinds) and waiting for the big blind or to post. */
  | 'waiting'
  | 'sitting-out'
  /** Left during a hand he is in: gone when it ends. */
  | 'leaving';

export interface SeatView {
  readonly seat: number;
  readonly account: AccountId;
  readonly name: string;
  /** A house bot of the room (practice tables), not a person. */
  readonly bot: boolean;
  /** Chips in front of him (not counting chips already in the pot this hand). */
  readonly stack: number;
  readonly status: SeatStatus;
  readonly connected: boolean;
  readonly missed: MissedBlinds;
  /** Has paid his blinds since sitting down (may receive the button). */
  readonly paid: boolean;
  /** Posts his blinds when due without being asked (default on); off: the table asks him each time. */
  readonly autoPost: boolean;
  /** At the showdown, a hand already beaten by a shown one is mucked, not shown (default on). */
  readonly muckLosing: boolean;
  readonly timeBankMs: number;
}

export interface HandPlayerView {
  readonly seat: number;
  readonly stack: number;
  readonly bet: number;
  readonly committed: number;
  readonly folded: boolean;
  readonly allIn: boolean;
  /** Cards in dealing order, "??" where hidden from the viewer. */
  readonly cards: readonly CardView[];
  readonly up: readonly boolean[];
}

/** What the player to act may do (sent only to him). Amounts as the engine's `LegalActions`. */
export interface LegalView {
  readonly seat: number;
  readonly fold: boolean;
  readonly check: boolean;
  readonly call: number | null;
  readonly bringIn: number | null;
  readonly raise: { readonly min: number; readonly max: number } | null;
  readonly raiseTos: readonly number[] | null;
  readonly discard: number | null;
  readonly split: boolean;
}

/**
 * A hand's place in its table's fair-dealing chain (docs/fairness.md), public from its first message:
 * hex values, the contributions' hashes in increasing seat order.
 */
export interface FairHandView {
  readonly version: number;
  /** The hand's number in the table's chain (the scheme's `hand`; cancelled hands count). */
  readonly hand: number;
  readonly previous: string;
  readonly commitment: string;
  readonly contributions: readonly { readonly seat: number; readonly hash: string }[];
}

/** The chain's next hand: the commitment contributions go to now. */
export interface FairNextView {
  readonly hand: number;
  readonly commitment: string;
}

/** What lets the hand's players check its whole deck: given only when the reveal rule allows. */
export interface FairRevealView {
  readonly secret: string;
  /** The contributions used, in the order of `FairHandView.contributions`. */
  readonly contributions: readonly string[];
}

export interface HandView {
  readonly handId: HandId;
  readonly number: number;
  readonly fair: FairHandView;
  readonly phase: 'deal' | 'bet' | 'draw' | 'showdown' | 'split' | 'done';
  readonly street: number;
  /** The board; in a hand run twice, the first run's. */
  readonly board: readonly CardView[];
  /** A hand run twice: the second run's board (the cards both runs share, then its own), else null. */
  readonly secondBoard: readonly CardView[] | null;
  /**
   * Run it twice on offer (all in, no betting left, board cards to come, at a table that offers it):
   * the seats asked, those who agreed so far, and when an unanswered offer counts as declined (clock
   * ms); null when no offer is open. A player answers with `run-twice`.
   */
  readonly runTwice: {
    readonly deadline: number;
    readonly seats: readonly number[];
    readonly accepted: readonly number[];
  } | null;
  readonly pots: readonly { readonly amount: number; readonly seats: readonly number[] }[];
  readonly currentBet: number;
  /** The seat to act, or null. */
  readonly actor: number | null;
  /** When the actor's clock (without his time bank) runs out, clock ms; null when nobody is to act. */
  readonly deadline: number | null;
  readonly players: readonly HandPlayerView[];
  /** The viewer's legal actions when he is to act, else null. */
  readonly legal: LegalView | null;
}

/**
 * The table asks a player without auto-post to post his blind before the next hand is dealt; everybody
 * sees whom it waits for. `blind`: the live blind, `dead`: the dead small blind he owes besides (0 if
 * none); `deadline` (clock ms): when an unanswered request sits him out.
 */
export interface BlindRequestView {
  readonly seat: number;
  readonly blind: number;
  readonly dead: number;
  readonly deadline: number;
}

export interface TableView {
  readonly tableId: TableId;
  readonly name: string;
  readonly game: VariantId;
  readonly structure: Structure;
  readonly stakes: TableStakes;
  /** The stakes the table is named and shown by: a big-bet table's blinds ("0.50/1"), a limit table's bets. */
  readonly stakesText: string;
  readonly currency: TableCurrency;
  readonly seatCount: number;
  readonly minBuyIn: number;
  readonly maxBuyIn: number | null;
  /** Button seat (stud games: the dealer box), or null before the first hand. */
  readonly button: number | null;
  /** Seats by number: null = free. */
  readonly seats: readonly (SeatView | null)[];
  readonly hand: HandView | null;
  /** Between hands: the blind the table waits for a player to post, or null. */
  readonly blindRequest: BlindRequestView | null;
  /** The viewer's own seat, or null (spectator). */
  readonly you: number | null;
  /** The room's staff paused the table (`staff-pause`): the hand in play finishes, no other starts. */
  readonly paused: boolean;
  /** The fair-dealing chain's next hand, open for contributions; null until the table has taken up its chain. */
  readonly fair: FairNextView | null;
}

/**
 * One hand event as a viewer sees it: the engine's `HandEvent` with positions replaced by seats
 * (`player` → `seat`) and cards as texts, hidden ones "??" (a discard's cards only to their owner).
 * Derived from the engine's type, so that a new event reaches the wire shape without a copy to keep.
 */
export type EventView =
  | WireEvent<Exclude<HandEvent, { readonly type: 'end' }>>
  /** The finishing stacks by seat. */
  | { readonly type: 'end'; readonly stacks: readonly { readonly seat: number; readonly stack: number }[] };

/** An engine event as the wire carries it: `player` becomes `seat`, cards become texts (one per member). */
type WireEvent<E> = E extends unknown
  ? {
      readonly [K in keyof E as K extends 'player' ? 'seat' : K]: E[K] extends readonly MaybeCard[]
        ? readonly CardView[]
        : E[K];
    }
  : never;

/** The summary of a finished hand (RULES.md §1: players may ask for it). */
export interface HandRecap {
  readonly handId: HandId;
  readonly number: number;
  readonly fair: FairHandView;
  /**
   * The hand's secret and contributions: to its players at once when every card dealt was shown and
   * none discarded (nothing hidden is revealed, docs/fairness.md §8), else null (they come in the hand histories a day later); spectators: null.
   */
  readonly reveal: FairRevealView | null;
  readonly game: VariantId;
  /** The board; in a hand run twice, the first run's. */
  readonly board: readonly CardView[];
  /** A hand run twice: the second run's board, else null. */
  readonly secondBoard: readonly CardView[] | null;
  readonly rake: number;
  readonly players: readonly {
    readonly seat: number;
    readonly account: AccountId;
    readonly name: string;
    readonly committed: number;
    readonly won: number;
    /** His cards: all of them for himself; for others the face-up and shown ones, "??" for the rest. */
    readonly cards: readonly CardView[];
    /** Per card: face up or shown (public). */
    readonly up: readonly boolean[];
    /** He showed his hand at showdown. */
    readonly showed: boolean;
    /**
     * He mucked at the showdown. His cards stay hidden, but a player dealt into the hand may ask for the
     * summary (`hand-summary`) and see them (RULES.md §1).
     */
    readonly mucked: boolean;
    readonly folded: boolean;
    /** Named best hands, when he showed down (or mucked, to those who may see it): high and (hi/lo) low. */
    readonly high: { readonly name: string; readonly cards: readonly CardView[] } | null;
    readonly low: { readonly name: string; readonly cards: readonly CardView[] } | null;
    /** A hand run twice: his named hands on the second run's board (`high`, `low`: on the first). */
    readonly second?: {
      readonly high: { readonly name: string; readonly cards: readonly CardView[] } | null;
      readonly low: { readonly name: string; readonly cards: readonly CardView[] } | null;
    };
  }[];
  /** Pot by pot: who won what, and which half (in a hand run twice, on which run's board). */
  readonly awards: readonly {
    readonly pot: number;
    readonly seat: number;
    readonly amount: number;
    readonly share: 'all' | 'high' | 'low' | 'agreed';
    readonly run?: 1 | 2;
  }[];
}
