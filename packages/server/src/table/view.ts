/**
 * The one filter between a table and the world: `viewFor(state, seat, message)` turns every outgoing
 * message (snapshot, event, clock, legal actions, hand summary) into what the viewer at `seat` (null:
 * a spectator) may see. A player sees his own cards; everybody sees face-up cards, the board and cards
 * shown at showdown; nobody sees another player's down cards, discards, the deck, the burns or the
 * random source (the engine's deck never leaves the `Hand` object: no message is built from it).
 */
import { formatCard, type HandEvent, type Hand, type LegalActions, type MaybeCard } from '@felt/engine';
import type { ResolvedTable } from './config.js';
import {
  HIDDEN_CARD,
  type AccountId,
  type BlindRequestView,
  type CardView,
  type ClockConfig,
  type EventView,
  type HandId,
  type HandRecap,
  type HandView,
  type LegalView,
  type SeatView,
  type TableId,
  type TableMessage,
  type TableView,
} from './types.js';

/** A seat as the table keeps it (full information). */
export interface SeatState {
  readonly seat: number;
  readonly account: AccountId;
  readonly name: string;
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

/** The hand in progress as the table keeps it. */
export interface HandState {
  readonly id: HandId;
  readonly number: number;
  readonly hand: Hand;
  /** Seat of each engine position. */
  readonly order: readonly number[];
  readonly accounts: readonly AccountId[];
  readonly names: readonly string[];
  readonly startedAt: number;
  /** The actor's clock: deadline (clock ms) of the current stage (action clock, then time bank). */
  clock: { seat: number; deadline: number; bank: boolean } | null;
}

/** Everything a view is made from. */
export interface TableState {
  readonly id: TableId;
  readonly table: ResolvedTable;
  readonly clocks: ClockConfig;
  readonly button: number | null;
  readonly seats: readonly (SeatState | null)[];
  readonly connected: (account: AccountId) => boolean;
  readonly hand: HandState | null;
  readonly blindRequest: BlindRequestView | null;
}

/** An outgoing message before filtering: engine positions and full cards. */
export type FullMessage =
  | { readonly type: 'table-snapshot' }
  | {
      readonly type: 'table-event';
      readonly hand: HandState;
      readonly seq: number;
      readonly event: HandEvent;
    }
  | {
      readonly type: 'clock';
      readonly hand: HandState;
      readonly seat: number;
      readonly deadline: number;
      readonly timeBankMs: number;
    }
  | {
      readonly type: 'legal-actions';
      readonly hand: HandState;
      readonly seat: number;
      readonly legal: LegalActions;
    }
  | { readonly type: 'hand-summary'; readonly recap: HandRecap; readonly seats: readonly number[] };

const SNAPSHOT: FullMessage = { type: 'table-snapshot' };

const text = (card: MaybeCard): CardView => (card === null ? HIDDEN_CARD : formatCard(card));

/** Cards as `viewer` sees them: all when `own`, else only those flagged visible. */
function cardsFor(cards: readonly MaybeCard[], own: boolean, visible: readonly boolean[]): CardView[] {
  return cards.map((card, i) => (own || visible[i] === true ? text(card) : HIDDEN_CARD));
}

export function legalView(seat: number, legal: LegalActions): LegalView {
  return {
    seat,
    fold: legal.fold,
    check: legal.check,
    call: legal.call,
    bringIn: legal.bringIn,
    raise: legal.raise,
    raiseTos: legal.raiseTos,
    discard: legal.discard,
    split: legal.split,
  };
}

function eventFor(event: HandEvent, order: readonly number[], viewer: number | null): EventView {
  const seatOf = (p: number): number => order[p] ?? -1;
  const own = (p: number): boolean => viewer !== null && seatOf(p) === viewer;
  switch (event.type) {
    case 'post':
      return {
        type: 'post',
        seat: seatOf(event.player),
        kind: event.kind,
        amount: event.amount,
        allIn: event.allIn,
      };
    case 'deal-hole':
      return {
        type: 'deal-hole',
        seat: seatOf(event.player),
        cards: cardsFor(event.cards, own(event.player), event.up),
        up: [...event.up],
      };
    case 'deal-board':
      return { type: 'deal-board', cards: event.cards.map(text) };
    case 'deal-draw':
      return {
        type: 'deal-draw',
        seat: seatOf(event.player),
        cards: cardsFor(event.cards, own(event.player), []),
      };
    case 'round':
      return { type: 'round', round: event.round, seat: seatOf(event.player) };
    case 'fold':
    case 'check':
    case 'muck':
      return { type: event.type, seat: seatOf(event.player) };
    case 'call':
    case 'bring-in':
      return { type: event.type, seat: seatOf(event.player), amount: event.amount, allIn: event.allIn };
    case 'bet-raise':
      return {
        type: 'bet-raise',
        seat: seatOf(event.player),
        to: event.to,
        amount: event.amount,
        allIn: event.allIn,
        full: event.full,
      };
    case 'discard':
      return {
        type: 'discard',
        seat: seatOf(event.player),
        cards: cardsFor(event.cards, own(event.player), []),
        timedOut: event.timedOut,
      };
    case 'return':
      return { type: 'return', seat: seatOf(event.player), amount: event.amount };
    case 'show':
      return { type: 'show', seat: seatOf(event.player), cards: event.cards.map(text) };
    case 'split':
      return { type: 'split', seat: seatOf(event.player), accept: event.accept };
    case 'timeout':
      return { type: 'timeout', seat: seatOf(event.player), result: event.result };
    case 'rake':
      return { type: 'rake', amount: event.amount };
    case 'award':
      return {
        type: 'award',
        pot: event.pot,
        seat: seatOf(event.player),
        amount: event.amount,
        share: event.share,
      };
    case 'end':
      return { type: 'end', stacks: event.stacks.map((stack, p) => ({ seat: seatOf(p), stack })) };
  }
}

function handViewFor(hand: HandState, viewer: number | null): HandView {
  const snap = hand.hand.snapshot();
  const actorSeat = snap.actor === null ? null : (hand.order[snap.actor] ?? null);
  const legal = hand.hand.legalActions();
  return {
    handId: hand.id,
    number: hand.number,
    phase: snap.phase,
    street: snap.street,
    board: snap.board.map(text),
    pots: snap.pots.map((pot) => ({
      amount: pot.amount,
      seats: pot.eligible.map((p) => hand.order[p] ?? -1),
    })),
    currentBet: snap.currentBet,
    actor: actorSeat,
    deadline: hand.clock?.deadline ?? null,
    players: snap.players.map((player, p) => ({
      seat: hand.order[p] ?? -1,
      stack: player.stack,
      bet: player.bet,
      committed: player.committed,
      folded: player.folded,
      allIn: player.allIn,
      cards: cardsFor(player.cards, viewer !== null && hand.order[p] === viewer, player.up),
      up: [...player.up],
    })),
    legal: legal !== null && actorSeat !== null && actorSeat === viewer ? legalView(actorSeat, legal) : null,
  };
}

function seatView(state: TableState, seat: SeatState): SeatView {
  return {
    seat: seat.seat,
    account: seat.account,
    name: seat.name,
    stack: seat.stack,
    status: seat.leaving
      ? 'leaving'
      : seat.sittingOut
        ? 'sitting-out'
        : !seat.paid || seat.missedBig || seat.missedSmall
          ? 'waiting'
          : 'playing',
    connected: state.connected(seat.account),
    missed: { small: seat.missedSmall, big: seat.missedBig },
    paid: seat.paid,
    autoPost: seat.autoPost,
    muckLosing: seat.muckLosing,
    timeBankMs: seat.timeBankMs,
  };
}

/**
 * A hand summary as `viewer` (a seat, or null) may see it: his own cards, shown and face-up cards, "??"
 * for the rest. `askedFor`: the summary a player asked for, in which a player dealt into the hand also
 * sees the hands mucked at the showdown (RULES.md §1); the one pushed at the end of the hand hides them.
 */
export function recapFor(recap: HandRecap, viewer: number | null, askedFor = false): HandRecap {
  const seesMucks = askedFor && viewer !== null && recap.players.some((player) => player.seat === viewer);
  return {
    ...recap,
    players: recap.players.map((player) => {
      if (viewer !== null && player.seat === viewer) return player;
      if (player.showed || (player.mucked && seesMucks)) return player;
      return {
        ...player,
        cards: player.cards.map((card, i) => (player.up[i] === true ? card : HIDDEN_CARD)),
        high: null,
        low: null,
      };
    }),
  };
}

/**
 * Event types whose view is the same for every viewer (`eventFor` does not look at the viewer: no
 * cards that are down for some and up for others). A type not listed here is filtered per viewer.
 */
const PUBLIC_EVENTS: ReadonlySet<HandEvent['type']> = new Set<HandEvent['type']>([
  'post',
  'deal-board',
  'round',
  'fold',
  'check',
  'muck',
  'call',
  'bring-in',
  'bet-raise',
  'return',
  'show',
  'split',
  'timeout',
  'rake',
  'award',
  'end',
]);

/**
 * Whether `viewFor(state, seat, message)` is the same for every seat (so a broadcast may build it once
 * and hand the same message to everybody): clocks, and events without private cards.
 */
export function sameForEveryViewer(message: FullMessage): boolean {
  if (message.type === 'clock') return true;
  return message.type === 'table-event' && PUBLIC_EVENTS.has(message.event.type);
}

/**
 * THE filter: what the viewer at `seat` (null: a spectator, or an account without a seat) may receive
 * of `message` (default: a full snapshot of the table). Null: nothing for this viewer (legal actions
 * are for the actor alone).
 */
export function viewFor(
  state: TableState,
  seat: number | null,
  message: FullMessage = SNAPSHOT,
): TableMessage | null {
  switch (message.type) {
    case 'table-snapshot': {
      const { table } = state;
      const view: TableView = {
        tableId: state.id,
        name: table.config.name,
        game: table.config.game,
        structure: table.config.structure,
        stakes: table.config.stakes,
        currency: table.config.currency,
        seatCount: table.seatCount,
        minBuyIn: table.minBuyIn,
        maxBuyIn: table.maxBuyIn,
        button: state.button,
        seats: state.seats.map((s) => (s === null ? null : seatView(state, s))),
        hand: state.hand === null ? null : handViewFor(state.hand, seat),
        blindRequest: state.blindRequest,
        you: seat,
      };
      return { type: 'table-snapshot', tableId: state.id, view };
    }
    case 'table-event':
      return {
        type: 'table-event',
        tableId: state.id,
        handId: message.hand.id,
        seq: message.seq,
        event: eventFor(message.event, message.hand.order, seat),
      };
    case 'clock':
      return {
        type: 'clock',
        tableId: state.id,
        handId: message.hand.id,
        seat: message.seat,
        deadline: message.deadline,
        timeBankMs: message.timeBankMs,
      };
    case 'legal-actions':
      if (seat === null || seat !== message.seat) return null;
      return {
        type: 'legal-actions',
        tableId: state.id,
        handId: message.hand.id,
        legal: legalView(message.seat, message.legal),
      };
    case 'hand-summary':
      return { type: 'hand-summary', tableId: state.id, summary: recapFor(message.recap, seat) };
  }
}
