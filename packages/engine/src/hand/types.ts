/**
 * The public vocabulary of one hand of poker: its configuration, the actions that drive it, the events
 * that record it, the errors that refuse it, and the read-only views of it.
 *
 * Design (see ./hand.ts): a hand is a mutable `Hand` object whose only mutating method is `apply`
 * (guarded by `verify` / `can`). Every successful `apply` appends immutable events to `hand.events`;
 * that list is the hand's history and its replay source. `hand.snapshot()` returns an immutable copy.
 * A refused action returns a typed error and changes nothing.
 *
 * Players are identified by their POSITION: an index into `HandConfig.stacks`.
 * - Button games (hold'em, Omaha, draw games): positions are in acting order after the first round,
 *   i.e. position 0 is the first seat left of the button (the small blind at a full table) and the
 *   last position is the button. Heads-up the button posts the small blind, so position 0 is the big
 *   blind and position 1 the button: `blinds: [bb, sb]` (this is how PokerKit/PHH reads a two-handed
 *   `blinds_or_straddles = [sb, bb]`, which it reverses).
 * - Stud games (stud, stud-hilo, razz, Sökö, Americana, Telesina): position 0 is the first seat left of
 *   the dealer (the first dealt), the last position sits on the dealer's right.
 * Odd chips go to the lowest position among the winners of a share (the nearest the dealer's left; in
 * Sökö the first dealt, which is the same seat).
 *
 * All amounts are integer chips (the table's smallest unit, cents at real-money tables).
 */
import type { Card } from '../cards.js';
import type { GameId } from '../eval/games.js';
import type { FeltError, Result } from '../result.js';

/** The game being dealt: one of the registry's ids (see ./variants.ts). */
export type VariantId = GameId;

/** The betting structures. */
export const STRUCTURES = ['fixed-limit', 'spread-limit', 'pot-limit', 'half-pot-limit', 'no-limit'] as const;
export type Structure = (typeof STRUCTURES)[number];

/** Input to the rake policy when the hand ends. */
export interface RakeInput {
  /** Chips in all pots after uncalled bets were returned. */
  readonly pot: number;
  /** Players dealt into the hand. */
  readonly playersDealt: number;
  /** Whether the game's rake trigger was reached (flop seen, third/fourth card dealt, a draw made). */
  readonly triggered: boolean;
}

/**
 * Takes the rake (in chips) out of a finished hand's pot. Injected; see ./rake.ts for the house table.
 * The total is taken from the pots in proportion to their size (the remainder from the main pot),
 * unless `HandConfig.rakeEachPot` asks for the policy to be applied to each pot by itself.
 */
export type RakePolicy = (input: RakeInput) => number;

/**
 * Everything a hand needs to start. Arrays are in position order (see the module comment).
 * Fields that do not apply to the variant or structure are ignored.
 */
export interface HandConfig {
  readonly variant: VariantId;
  readonly structure: Structure;
  /** Starting stacks, in position order; 2 to the variant's seat limit entries, each > 0. */
  readonly stacks: readonly number[];
  /** Ante posted by each position (one number = the same for everybody). Default none. */
  readonly antes?: number | readonly number[];
  /**
   * Blinds and straddles posted by each position (missing entries = 0), button games only. A blind
   * is live: it counts toward the poster's bet. Example (6 players): `[1, 2]` = SB 1, BB 2.
   */
  readonly blinds?: readonly number[];
  /**
   * Dead money posted by each position (missing = 0): a missed small blind is dead, it goes straight
   * into the pot and does not count toward the poster's bet (RULES.md §1 Missed blinds). A missed big
   * blind posted out of position is live: pass it in `blinds`.
   */
  readonly deadBlinds?: readonly number[];
  /** Stud games: the bring-in amount (0 or absent = no bring-in: the bring-in player simply opens). */
  readonly bringIn?: number;
  /** Fixed limit: the small bet (also the spread-limit early-round limit). */
  readonly smallBet?: number;
  /** Fixed limit: the big bet (also the spread-limit late-round limit). */
  readonly bigBet?: number;
  /** Spread limit: the largest bet or raise increment of each betting round, in order; overrides small/big bet. */
  readonly spreadLimits?: readonly number[];
  /** Pot limit, half-pot limit, no limit, spread limit: the minimum bet (the big blind). Default: the largest blind, else the small bet, else 1. */
  readonly minBet?: number;
  /**
   * Fixed limit: whether the cap of a bet and three raises also holds when only two players are left.
   * Default true (tournaments, PokerKit); real-money cash tables set false (RULES.md §2, 004).
   */
  readonly capHeadsUp?: boolean;
  /** Fixed-limit 7-card stud (and hi/lo): an open pair on 4th street allows the big bet. Default true (house); PHH/PokerKit: false. */
  readonly openPairBigBet?: boolean;
  /**
   * Antes count like bets when side pots are made (true: a player all-in for his ante wins only the
   * antes he matched), or are dead money in the main pot (false: a big-blind ante). PHH
   * `ante_trimming_status`. Default: true when every position posts the same ante, else false.
   */
  readonly anteTrimming?: boolean;
  /**
   * How a short all-in (less than a full bet or raise) counts for reopening the betting to players
   * who already acted. Either way, raises since a player acted that add up to a full raise reopen it
   * to him (WSOP rule 96 (c)). false (default, RULES.md §2): a full raise is the last full bet or
   * raise, so one short all-in never reopens. true (PokerKit, PHH replays): a full raise is the
   * largest increment of the round so far, short ones included, so the first all-in of a round,
   * however short, reopens it; and a short all-in counts as a bet or raise: toward the fixed-limit
   * cap, and the next raise is a full one above it (a short opening bet of 1 with a 2 limit: the
   * next raise is to 3, not a completion to 2).
   */
  readonly shortAllInReopens?: boolean;
  /** Fixed limit: raises allowed after the bet (default 3: a bet and three raises). */
  readonly maxRaises?: number;
  /** Rake policy; default none (play money). See `houseRake` in ./rake.ts. */
  /** Apply the rake policy to each pot by itself, `pot` being that pot (PokerKit); default: to the total. */
  readonly rakeEachPot?: boolean;
  readonly rake?: RakePolicy;
  /**
   * Showdown: true = every remaining hand is shown automatically in showdown order when the last
   * card is out (the room and the simulator); false (default) = the caller sends `show` / `muck`
   * actions (replays of PHH `sm` lines).
   */
  readonly autoShowdown?: boolean;
}

/** A card as dealt by the caller: `null` is an unknown card (PHH `??`). */
export type MaybeCard = Card | null;

/**
 * The next dealing the hand waits for. The caller answers with a `deal` action, giving the cards
 * (replay) or omitting them to have the engine take them from its own shuffled deck (room, simulate).
 * Burn cards are implicit: the engine burns from its deck when it deals from it.
 */
export type DealRequest =
  /** `count` cards to one player; `up[i]` tells whether card i is dealt face up (stud). */
  | {
      readonly kind: 'hole';
      readonly player: number;
      readonly count: number;
      readonly up: readonly boolean[];
    }
  /** `count` community cards: a flop/turn/river, Telesina's Vela, or stud's community seventh card. */
  | { readonly kind: 'board'; readonly count: number }
  /** `count` replacement cards to a player who discarded as many. */
  | { readonly kind: 'draw'; readonly player: number; readonly count: number };

/** Everything a caller may do to a hand. `player` is a position. */
export type HandAction =
  /** Deal the pending `DealRequest` (see `Hand.pendingDeal`); `cards` omitted = from the engine's deck. */
  | { readonly type: 'deal'; readonly cards?: readonly MaybeCard[] }
  | { readonly type: 'fold'; readonly player: number }
  /** Check, or call the current bet (PHH `cc`). */
  | { readonly type: 'check-call'; readonly player: number }
  /** Stud: post the bring-in (PHH `pb`). */
  | { readonly type: 'bring-in'; readonly player: number }
  /** Complete, bet or raise TO `to`: the player's total bet on this street (PHH `cbr`). */
  | { readonly type: 'bet-raise'; readonly player: number; readonly to: number }
  /**
   * Draw games: discard these cards (empty = stand pat; PHH `sd`). `cards` may contain `null`s
   * where the caller does not know the cards (replays); then the player's unknown cards go.
   * `timedOut`: stood pat because the draw clock ran out: he may then not bet or raise on the
   * following round (RULES.md §8).
   */
  | {
      readonly type: 'discard';
      readonly player: number;
      readonly cards: readonly MaybeCard[];
      readonly timedOut?: boolean;
    }
  /** Show the hand (PHH `sm AsKs`). `cards` fills in cards the hand did not know (replays); omitted = as dealt. */
  | { readonly type: 'show'; readonly player: number; readonly cards?: readonly Card[] }
  /** Give up the hand at showdown without showing (PHH `sm` without cards). */
  | { readonly type: 'muck'; readonly player: number }
  /** 32-card draw: accept or decline the offered split of the pots (RULES.md §11). */
  | { readonly type: 'split'; readonly player: number; readonly accept: boolean }
  /**
   * Run it twice (docs/rules.md): the board cards still to come are dealt twice,
   * and each pot is split between the two runs. Allowed once, at the start of a street of a flop game
   * with no betting left and only board cards to come (`Hand.canRunTwice`); the players' agreement is
   * the caller's business.
   */
  | { readonly type: 'run-twice' }
  /**
   * The player to act cannot act (lost connection, clock ran out). Fixed and spread limit with chips in
   * the pot: an artificial all-in (RULES.md §1: he stays in for the pots he has matched and acts no
   * more); otherwise a check where he may check, else a fold. Whether he still has artificial all-ins
   * left (a number per 24 hours, real money only) is the room's business: it sends `fold` instead.
   */
  | { readonly type: 'timeout'; readonly player: number };

export type HandActionType = HandAction['type'];

/** Which forced bet a `post` event records. */
export type PostKind = 'ante' | 'blind' | 'dead-blind';

/**
 * What happened, in order. Events the caller caused (deal, fold, check-call, bring-in, bet-raise,
 * discard, show, muck, split) carry everything needed to replay them; the others follow from the rules.
 * Amounts: `amount` = chips moved from the player's stack by this event.
 */
export type HandEvent =
  | {
      readonly type: 'post';
      readonly player: number;
      readonly kind: PostKind;
      readonly amount: number;
      readonly allIn: boolean;
    }
  | {
      readonly type: 'deal-hole';
      readonly player: number;
      readonly cards: readonly MaybeCard[];
      readonly up: readonly boolean[];
    }
  /** `run: 2`: a card of the second run of a hand run twice (absent on every other board card). */
  | { readonly type: 'deal-board'; readonly cards: readonly MaybeCard[]; readonly run?: 2 }
  | { readonly type: 'deal-draw'; readonly player: number; readonly cards: readonly MaybeCard[] }
  /** A betting round starts (`round` counts from 0); `player` acts first. */
  | { readonly type: 'round'; readonly round: number; readonly player: number }
  | { readonly type: 'fold'; readonly player: number }
  | { readonly type: 'check'; readonly player: number }
  | { readonly type: 'call'; readonly player: number; readonly amount: number; readonly allIn: boolean }
  | { readonly type: 'bring-in'; readonly player: number; readonly amount: number; readonly allIn: boolean }
  /** `to` = the player's street total after the bet; `full` = a full bet/raise that reopens the betting. */
  | {
      readonly type: 'bet-raise';
      readonly player: number;
      readonly to: number;
      readonly amount: number;
      readonly allIn: boolean;
      readonly full: boolean;
    }
  | {
      readonly type: 'discard';
      readonly player: number;
      readonly cards: readonly MaybeCard[];
      readonly timedOut: boolean;
    }
  /** An uncalled bet goes back to its owner. */
  | { readonly type: 'return'; readonly player: number; readonly amount: number }
  | { readonly type: 'show'; readonly player: number; readonly cards: readonly MaybeCard[] }
  | { readonly type: 'muck'; readonly player: number }
  | { readonly type: 'split'; readonly player: number; readonly accept: boolean }
  /** The rest of the board is dealt twice (a `run-twice` action). */
  | { readonly type: 'run-twice' }
  /** A `timeout` action: what it did. A check or fold is also recorded as its own event right after. */
  | {
      readonly type: 'timeout';
      readonly player: number;
      readonly result: 'artificial-all-in' | 'check' | 'fold';
    }
  | { readonly type: 'rake'; readonly amount: number }
  /**
   * Chips from pot `pot` (0 = main pot) to `player`. `share`: 'all' = the whole pot (or a split
   * of it), 'high' / 'low' = a hi/lo half, 'agreed' = 32-card draw's agreed split. `run`: in a hand run
   * twice, the run whose board decided this part of the pot (absent otherwise).
   */
  | {
      readonly type: 'award';
      readonly pot: number;
      readonly player: number;
      readonly amount: number;
      readonly share: 'all' | 'high' | 'low' | 'agreed';
      readonly run?: 1 | 2;
    }
  /** The hand is over; `stacks` are the finishing stacks in position order. */
  | { readonly type: 'end'; readonly stacks: readonly number[] };

export type HandEventType = HandEvent['type'];

/** Where the hand stands: what kind of input it waits for. */
export type HandPhase =
  /** Waiting for a `deal` action (see `Hand.pendingDeal`). */
  | 'deal'
  /** Waiting for a betting or bring-in action of `Hand.actor`. */
  | 'bet'
  /** Waiting for `Hand.actor` to discard (draw games). */
  | 'draw'
  /** Waiting for `show` / `muck` of the players still in the showdown (any order). */
  | 'showdown'
  /** 32-card draw: waiting for `Hand.actor` to accept or decline the split. */
  | 'split'
  | 'done';

/** What the player to act may do, with amounts. All `to` amounts are street totals. */
export interface LegalActions {
  readonly player: number;
  readonly fold: boolean;
  /** Check allowed (nothing to call). */
  readonly check: boolean;
  /** Chips a call adds to the pot (capped at the stack: an all-in call), or null when there is nothing to call. */
  readonly call: number | null;
  /** Stud bring-in: chips it costs, or null. */
  readonly bringIn: number | null;
  /** Complete / bet / raise: the smallest and largest legal `to`, or null when not allowed. */
  readonly raise: { readonly min: number; readonly max: number } | null;
  /** Fixed limit / spread limit: the only legal `to` amounts when they are a short list (e.g. open pair: small or big bet). */
  readonly raiseTos: readonly number[] | null;
  /** Draw phase: the most cards the player may discard (0 = must stand pat), or null outside a draw. */
  readonly discard: number | null;
  /** 32-card draw split offer pending for this player. */
  readonly split: boolean;
}

/** One pot as it stands: `amount` chips that the `eligible` positions can win. */
export interface Pot {
  readonly amount: number;
  readonly eligible: readonly number[];
}

/** The state of one player, as seen by the engine (full information; the room filters views). */
export interface PlayerSnapshot {
  readonly stack: number;
  /** Chips bet on the current street (live money). */
  readonly bet: number;
  /** Chips put into the pot this hand, including antes, dead blinds and `bet`. */
  readonly committed: number;
  readonly folded: boolean;
  readonly allIn: boolean;
  readonly cards: readonly MaybeCard[];
  /** Per card: dealt face up (stud) or shown at showdown. */
  readonly up: readonly boolean[];
  readonly shown: boolean;
  readonly mucked: boolean;
}

/** An immutable copy of the hand's state. */
export interface HandSnapshot {
  readonly variant: VariantId;
  readonly structure: Structure;
  readonly phase: HandPhase;
  /** The player whose input is awaited, or null (deals, showdown, done). */
  readonly actor: number | null;
  readonly pendingDeal: DealRequest | null;
  /** Index of the current street in the variant's streets. */
  readonly street: number;
  /** Betting rounds started so far, minus one (-1 before the first). */
  readonly round: number;
  /** The board; in a hand run twice, the first run's. */
  readonly board: readonly MaybeCard[];
  /** How many times the rest of the board is dealt: 2 once a `run-twice` action was applied. */
  readonly runs: 1 | 2;
  /** A hand run twice: the second run's board (the cards both runs share, then its own), else null. */
  readonly secondBoard: readonly MaybeCard[] | null;
  readonly players: readonly PlayerSnapshot[];
  /** The bet to match on this street. */
  readonly currentBet: number;
  /** Chips collected from earlier streets (not counting current bets). */
  readonly collected: number;
  readonly pots: readonly Pot[];
  readonly rake: number;
  /** When done: finishing stacks (starting stack − committed + won, uncalled bets returned). */
  readonly finishingStacks: readonly number[] | null;
  readonly events: readonly HandEvent[];
}

/** Why an action or a configuration was refused. */
export const HandErrorCode = {
  /** The configuration is invalid (counts, amounts, missing limits, seat limit). */
  BAD_CONFIG: 'BAD_CONFIG',
  /** The hand does not wait for this kind of input now. */
  WRONG_PHASE: 'WRONG_PHASE',
  /** It is not this player's turn (or he is not in the hand). */
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  /** The action is not allowed in this situation (check facing a bet, raise when capped, …). */
  ILLEGAL_ACTION: 'ILLEGAL_ACTION',
  /** A bet or raise amount outside the legal range. */
  BAD_AMOUNT: 'BAD_AMOUNT',
  /** Wrong number of cards, cards not in the deck, already dealt, or not the player's. */
  BAD_CARDS: 'BAD_CARDS',
  /** Dealing from the deck was asked of a hand created without a random source, or the deck is empty. */
  NO_DECK: 'NO_DECK',
  /** The hand is over. */
  HAND_OVER: 'HAND_OVER',
} as const;
export type HandErrorCode = (typeof HandErrorCode)[keyof typeof HandErrorCode];

export type HandError = FeltError<HandErrorCode>;
export type HandResult<T> = Result<T, HandErrorCode>;
