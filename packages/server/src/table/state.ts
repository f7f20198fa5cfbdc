/**
 * What a table machine keeps (./machine.ts): its seats, the hand in play, the button, the blind it
 * waits for, the stream number and the lobby's figures. Plain data owned by the machine; the engine's
 * `Hand` inside a hand in play is mutable by design and updated in place.
 */
import type { Hand, RandomSource } from '@felt/engine';
import type { ResolvedTable } from './config.js';
import type { HandFair, OpenLink } from './fair.js';
import type { TablePolicies } from './policies.js';
import type { HandPlan } from './seating.js';
import type { AccountId, BlindRequestView, HandId, HandRecap, TableId } from './types.js';

/** A seat as the table keeps it (full information). */
export interface SeatState {
  readonly seat: number;
  readonly account: AccountId;
  readonly name: string;
  readonly bot: boolean;
  stack: number;
  sittingOut: boolean;
  leaving: boolean;
  paid: boolean;
  missedSmall: boolean;
  missedBig: boolean;
  postChoice: 'post' | 'wait';
  autoPost: boolean;
  muckLosing: boolean;
  timeBankMs: number;
}

/** The hand in play as the table keeps it. */
export interface HandInPlay {
  readonly id: HandId;
  readonly number: number;
  /** The engine's hand (mutable: the machine applies actions to it in place). */
  readonly engine: Hand;
  /** The stakes and engine settings this hand was dealt at (a schedule may change them between hands). */
  readonly settings: ResolvedTable;
  readonly plan: HandPlan;
  /** Seat of each engine position. */
  readonly order: readonly number[];
  /** The account dealt each engine position's cards: what a viewer may see follows it. */
  readonly accounts: readonly AccountId[];
  readonly names: readonly string[];
  /** Its place in the table's fair-dealing chain: commitment, contributions, secret (never sent before it ends). */
  readonly fair: HandFair;
  readonly startedAt: number;
  /** The actor's clock: deadline (clock ms) of the current stage (action clock, then time bank). */
  clock: { seat: number; deadline: number; bank: boolean } | null;
  /** Next `recordAction` sequence number. */
  recordSeq: number;
  /** Engine events already announced (or shown by the snapshot that announced the hand). */
  announced: number;
  /** When the actor started using his time bank (clock ms), or null. */
  bankFrom: number | null;
  /** Run it twice: null until offered (once a hand at most), then the offer (./run-twice.ts). */
  runTwice: RunTwiceOffer | null;
}

/**
 * The run-it-twice offer of a hand: the engine positions still in, asked; those who agreed; when an
 * unanswered offer counts as declined (clock ms); open until everybody agreed, one declined or time ran out.
 */
export interface RunTwiceOffer {
  readonly players: readonly number[];
  readonly accepted: Set<number>;
  readonly deadline: number;
  open: boolean;
}

/**
 * The actor's clock as players are told it: when his action clock runs (or ran) out, his time bank not
 * counted (docs/protocol.md), so that a page tells the bank from the action clock and counts it down.
 */
export function toldDeadline(hand: HandInPlay): number | null {
  if (hand.clock === null) return null;
  return hand.clock.bank && hand.bankFrom !== null ? hand.bankFrom : hand.clock.deadline;
}

/** A hand dealt by the engine whose start storage has not confirmed yet (it gives the hand its id). */
export interface HandToStore {
  readonly engine: Hand;
  readonly settings: ResolvedTable;
  readonly plan: HandPlan;
  readonly accounts: readonly AccountId[];
  readonly names: readonly string[];
  readonly fair: HandFair;
}

export interface MachineState {
  readonly id: TableId;
  /** The table's resolved configuration (its stakes: the current ones under a schedule). */
  settings: ResolvedTable;
  readonly policies: TablePolicies;
  /**
   * The machine's one source of randomness: the secrets of the fair-dealing chain are drawn from it
   * (each hand's deck is then derived from its secret and the players' contributions).
   */
  readonly random: RandomSource;
  /** The chain's next hand, open for contributions; null until the actor has read it from storage. */
  fair: OpenLink | null;
  closed: boolean;
  readonly seats: (SeatState | null)[];
  /** Live subscriptions per account (absent: disconnected). */
  readonly presence: Map<AccountId, number>;
  button: number | null;
  /** Dead button: the seats of the last hand's blinds. */
  lastSmallBlind: number | null;
  lastBigBlind: number | null;
  hand: HandInPlay | null;
  storing: HandToStore | null;
  handNumber: number;
  /** Between hands: the blind the table waits for a player without auto-post to post, and his clock. */
  blindRequest: BlindRequestView | null;
  /** Seats that agreed to post their blind in the hand being planned (cleared when it starts or cannot). */
  readonly consented: Set<number>;
  recap: HandRecap | null;
  /** The last stream number given (0: nothing broadcast yet). */
  stream: number;
  /** `handStart: 'controller'`: hands the controller has allowed and not yet started. */
  handsAllowed: number;
  /** The room's staff paused the table: the hand in play finishes, no other starts until resumed. */
  paused: boolean;
  /** The pause before the next hand is running. */
  nextHandDue: boolean;
  /** The decision clock runs for this hand and engine position. */
  decisionFor: { readonly handId: HandId; readonly player: number } | null;
  /** The final pots of the last (up to) 50 hands, and their sum. */
  readonly pots: number[];
  potSum: number;
  /** Start times of the hands of the last hour, oldest first (the lobby's hands per hour). */
  readonly handTimes: number[];
}

export function seatOf(state: MachineState, account: AccountId): SeatState | null {
  for (const seat of state.seats) if (seat !== null && seat.account === account) return seat;
  return null;
}

export function isConnected(state: MachineState, account: AccountId): boolean {
  return (state.presence.get(account) ?? 0) > 0;
}
