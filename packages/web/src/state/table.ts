/**
 * One open table in the client: the last full view from the server, brought up to date by the table's
 * stream of messages until the next view arrives. Applying an event is bookkeeping only (chips from a
 * stack to a bet, a card onto the board); every rule — who acts, what is legal, who wins — comes from
 * the server, every line of the log from the engine's wording.
 */
import { eventLine } from '@felt/engine/browser';
import { formatMoney } from '../format';
import {
  HIDDEN,
  type EventView,
  type HandPlayerView,
  type HandRecap,
  type HandView,
  type LegalView,
  type TableView,
} from '../net/views';

export interface ClockState {
  readonly seat: number;
  /** Local time (ms since the epoch) when the action clock runs out; then the time bank runs. */
  readonly deadline: number;
  readonly actionMs: number;
  readonly timeBankMs: number;
}

export interface TableModel {
  readonly tableId: string;
  /**
   * The table's stream number this model stands at: the view reflects the table's messages up to it
   * (each carries its number, `seq`; a snapshot the number it stands at). 0 before the first view.
   */
  readonly seq: number;
  readonly view: TableView | null;
  /** The viewer's legal actions when he is to act, else null. */
  readonly legal: LegalView | null;
  readonly clock: ClockState | null;
  /** Lines of the hand in progress (and of the last one until the next starts). */
  readonly log: readonly string[];
  /** The hand whose lines the log holds, or null. */
  readonly logHand: number | null;
  /** Chips won by seat in the last hand (award events), for the result badges. */
  readonly won: Readonly<Record<number, number>>;
  /** The last finished hand's summary as this viewer may see it. */
  readonly summary: HandRecap | null;
  /** Seats that mucked at showdown. */
  readonly mucked: readonly number[];
  /** The hand that just ended, kept on the table (board, shown cards) until the next one starts. */
  readonly lastHand: HandView | null;
  /**
   * The viewer's own fair-dealing contributions the server acknowledged: the chain's hand number →
   * the hash that hand's first message must list (the last few hands only).
   */
  readonly contributed: Readonly<Record<number, string>>;
}

export function emptyTable(tableId: string): TableModel {
  return {
    tableId,
    seq: 0,
    view: null,
    legal: null,
    clock: null,
    log: [],
    logHand: null,
    won: {},
    summary: null,
    mucked: [],
    lastHand: null,
    contributed: {},
  };
}

/** A message of the table's stream, as the client keeps it. */
export type TableMessage =
  | { readonly op: 'table-snapshot'; readonly seq: number; readonly view: TableView }
  | { readonly op: 'table-event'; readonly seq: number; readonly handId: number; readonly event: EventView }
  | { readonly op: 'clock'; readonly seq: number; readonly clock: ClockState }
  | { readonly op: 'legal-actions'; readonly seq: number; readonly legal: LegalView }
  | { readonly op: 'hand-summary'; readonly seq: number; readonly summary: HandRecap };

/**
 * Applies one message by the table's stream number: a snapshot replaces the view and sets the number;
 * the legal actions belong to the stream message they go with (applied at the current number only);
 * anything else is applied only when it follows the number, so nothing a snapshot shows, and nothing
 * repeated, is counted twice.
 */
export function receive(state: TableModel, message: TableMessage): TableModel {
  if (message.op === 'table-snapshot') return { ...withView(state, message.view), seq: message.seq };
  if (message.op === 'legal-actions')
    return message.seq === state.seq && state.view !== null ? withLegal(state, message.legal) : state;
  if (message.seq <= state.seq) return state;
  const next = { ...state, seq: message.seq };
  switch (message.op) {
    case 'table-event':
      return withEvent(next, message.event, message.handId);
    case 'clock':
      return withClock(next, message.clock);
    case 'hand-summary':
      return withSummary(next, message.summary);
  }
}

/** A full view from the server replaces what the client had built. */
function withView(state: TableModel, view: TableView): TableModel {
  const hand = view.hand;
  const newHand = hand !== null && hand.handId !== state.view?.hand?.handId && hand.phase !== 'done';
  const ended =
    hand === null && state.view?.hand != null
      ? { ...state.view.hand, phase: 'done' as const, actor: null }
      : null;
  return {
    ...state,
    view,
    legal: hand === null || hand.phase === 'done' ? null : hand.legal,
    clock: hand !== null && hand.actor !== null && state.clock?.seat === hand.actor ? state.clock : null,
    ...(ended === null ? {} : { lastHand: ended }),
    ...(newHand
      ? {
          // Events of the hand that came before the view showed it (its forced bets) keep their lines.
          log: [`Hand #${hand.number} starts`, ...(state.logHand === hand.handId ? state.log : [])],
          logHand: hand.handId,
          won: {},
          mucked: [],
          lastHand: null,
        }
      : {}),
  };
}

const CONTRIBUTIONS_KEPT = 4;

/** The server acknowledged the viewer's contribution to the chain's hand `hand`, to be listed as `hash`. */
export function withContribution(state: TableModel, hand: number, hash: string): TableModel {
  const kept = Object.entries(state.contributed).filter(([n]) => Number(n) > hand - CONTRIBUTIONS_KEPT);
  return { ...state, contributed: { ...Object.fromEntries(kept), [hand]: hash } };
}

/** The viewer's legal actions (null: none, e.g. once he has sent his decision). */
export function withLegal(state: TableModel, legal: LegalView | null): TableModel {
  return { ...state, legal };
}

function withClock(state: TableModel, clock: ClockState): TableModel {
  const view = state.view;
  if (view?.hand == null) return { ...state, clock };
  return {
    ...state,
    clock,
    view: { ...view, hand: { ...view.hand, actor: clock.seat } },
    // The legal actions belong to the player to act; a clock for someone else retires ours.
    legal: clock.seat === view.you ? state.legal : null,
  };
}

/** The summary of the last hand (pushed at its end, or the answer to asking for it). */
export function withSummary(state: TableModel, summary: HandRecap): TableModel {
  const lines = summaryLines(summary, state.view);
  return { ...state, summary, legal: null, clock: null, log: [...state.log, ...lines] };
}

/**
 * One event of hand `handId`: its line goes to the log; the view follows it when it shows that hand
 * (an event of a hand the view does not show yet is part of the snapshot that will show it).
 */
function withEvent(state: TableModel, event: EventView, handId: number): TableModel {
  const view = state.view;
  const shown = view?.hand?.handId === handId ? view.hand : null;
  const line = eventLine(
    event,
    { name: (seat) => nameOf(view, seat), money: (amount) => money(view, amount) },
    // Before the view shows the hand, only its forced bets come: no bet has been made.
    { currentBet: shown === null ? 0 : streetBet(shown) },
  );
  const earlier = state.logHand === handId ? state.log : [];
  const log = line === null ? earlier : [...earlier, line];
  if (view?.hand?.handId !== handId) return { ...state, log, logHand: handId };
  const hand = applyEvent(view.hand, event);
  let seats = view.seats;
  let won = state.won;
  let mucked = state.mucked;
  let legal = state.legal;
  let clock = state.clock;
  if (event.type === 'award') won = { ...won, [event.seat]: (won[event.seat] ?? 0) + event.amount };
  if (event.type === 'muck') mucked = [...mucked, event.seat];
  if ('seat' in event && event.type !== 'round' && event.type !== 'award') {
    // The seat that acted is no longer to act: its clock and (if ours) the legal actions go.
    if (clock?.seat === event.seat) clock = null;
    if (event.seat === view.you && isDecision(event.type)) legal = null;
  }
  if (event.type === 'end') {
    const stacks = new Map(event.stacks.map((entry) => [entry.seat, entry.stack]));
    seats = seats.map((seat) => {
      if (seat === null) return null;
      const stack = stacks.get(seat.seat);
      return stack === undefined ? seat : { ...seat, stack };
    });
    legal = null;
    clock = null;
  }
  return { ...state, view: { ...view, hand, seats }, log, logHand: handId, won, mucked, legal, clock };
}

function isDecision(type: EventView['type']): boolean {
  return [
    'fold',
    'check',
    'call',
    'bring-in',
    'bet-raise',
    'discard',
    'show',
    'muck',
    'split',
    'timeout',
  ].includes(type);
}

function updatePlayer(
  hand: HandView,
  seat: number,
  change: (player: HandPlayerView) => HandPlayerView,
): HandView {
  return { ...hand, players: hand.players.map((player) => (player.seat === seat ? change(player) : player)) };
}

/** The street's highest bet: what a bet-raise raises (0: it is a bet). */
export function streetBet(hand: HandView): number {
  return hand.players.reduce((highest, p) => Math.max(highest, p.bet), hand.currentBet);
}

/**
 * Bookkeeping of one event on the hand's view (chips and cards move; no rule is decided here). The
 * pots are the server's: chips moving leave the view without them until the next view brings them.
 */
export function applyEvent(hand: HandView, event: EventView): HandView {
  return withPots(applyMove(hand, event), event);
}

function withPots(hand: HandView, event: EventView): HandView {
  switch (event.type) {
    case 'post':
    case 'call':
    case 'bring-in':
    case 'bet-raise':
    case 'return':
    case 'award':
      return hand.pots.length === 0 ? hand : { ...hand, pots: [] };
    case 'fold':
    case 'muck':
      // A player out of the hand can win none of the pots.
      return {
        ...hand,
        pots: hand.pots.map((pot) => ({ ...pot, seats: pot.seats.filter((seat) => seat !== event.seat) })),
      };
    default:
      return hand;
  }
}

function applyMove(hand: HandView, event: EventView): HandView {
  switch (event.type) {
    case 'post':
      return updatePlayer(hand, event.seat, (p) => ({
        ...p,
        stack: p.stack - event.amount,
        bet: event.kind === 'blind' ? p.bet + event.amount : p.bet,
        committed: p.committed + event.amount,
        allIn: event.allIn,
      }));
    case 'deal-hole':
      return updatePlayer(hand, event.seat, (p) => ({
        ...p,
        cards: [...p.cards, ...event.cards],
        up: [...p.up, ...event.up],
      }));
    case 'deal-board':
      return event.run === 2
        ? { ...hand, secondBoard: [...(hand.secondBoard ?? []), ...event.cards] }
        : { ...hand, board: [...hand.board, ...event.cards] };
    case 'run-twice':
      // Both runs share the cards out so far; the second run's own follow them.
      return { ...hand, secondBoard: [...hand.board], runTwice: null };
    case 'discard':
      return updatePlayer({ ...collectBets(hand), phase: 'draw', actor: null }, event.seat, (p) => {
        const cards = [...p.cards];
        const up = [...p.up];
        for (const card of event.cards) {
          let index = card === HIDDEN ? cards.lastIndexOf(HIDDEN) : cards.indexOf(card);
          if (index < 0) index = cards.length - 1;
          if (index >= 0) {
            cards.splice(index, 1);
            up.splice(index, 1);
          }
        }
        return { ...p, cards, up };
      });
    case 'deal-draw':
      return updatePlayer(hand, event.seat, (p) => ({
        ...p,
        cards: [...p.cards, ...event.cards],
        up: [...p.up, ...event.cards.map(() => false)],
      }));
    case 'round':
      // Round 0 starts with the blinds still in front of the players; later rounds collect the bets.
      return event.round === 0
        ? { ...hand, phase: 'bet', actor: event.seat }
        : { ...collectBets(hand), phase: 'bet', actor: event.seat };
    case 'fold':
      return updatePlayer({ ...hand, actor: null }, event.seat, (p) => ({ ...p, folded: true }));
    case 'check':
      return { ...hand, actor: null };
    case 'call':
    case 'bring-in':
      return updatePlayer(
        { ...hand, actor: null, currentBet: event.type === 'bring-in' ? event.amount : hand.currentBet },
        event.seat,
        (p) => ({
          ...p,
          stack: p.stack - event.amount,
          bet: p.bet + event.amount,
          committed: p.committed + event.amount,
          allIn: event.allIn,
        }),
      );
    case 'bet-raise':
      return updatePlayer({ ...hand, actor: null, currentBet: event.to }, event.seat, (p) => ({
        ...p,
        stack: p.stack - event.amount,
        bet: event.to,
        committed: p.committed + event.amount,
        allIn: event.allIn,
      }));
    case 'return':
      return updatePlayer(hand, event.seat, (p) => ({
        ...p,
        stack: p.stack + event.amount,
        bet: Math.max(0, p.bet - event.amount),
        committed: p.committed - event.amount,
      }));
    case 'show':
      return updatePlayer({ ...hand, phase: 'showdown' }, event.seat, (p) => ({
        ...p,
        cards: event.cards.length > 0 ? event.cards : p.cards,
        up: (event.cards.length > 0 ? event.cards : p.cards).map(() => true),
      }));
    case 'muck':
      return updatePlayer(hand, event.seat, (p) => ({ ...p, folded: true }));
    case 'award':
      return updatePlayer(hand, event.seat, (p) => ({ ...p, stack: p.stack + event.amount }));
    case 'end': {
      const stacks = new Map(event.stacks.map((entry) => [entry.seat, entry.stack]));
      return {
        ...hand,
        phase: 'done',
        actor: null,
        legal: null,
        players: hand.players.map((p) => ({ ...p, bet: 0, stack: stacks.get(p.seat) ?? p.stack })),
      };
    }
    case 'split':
    case 'timeout':
    case 'rake':
      return hand;
  }
}

/** The bets of a finished betting round go to the middle. */
function collectBets(hand: HandView): HandView {
  if (hand.players.every((p) => p.bet === 0) && hand.currentBet === 0) return hand;
  return { ...hand, currentBet: 0, players: hand.players.map((p) => (p.bet === 0 ? p : { ...p, bet: 0 })) };
}

/** Chips in the middle: everything put in this hand minus the bets still in front of the players. */
export function potTotal(hand: HandView): number {
  let total = 0;
  for (const player of hand.players) total += player.committed - player.bet;
  return total;
}

function money(view: TableView | null, amount: number): string {
  return formatMoney(amount, view?.currency ?? 'play');
}

function nameOf(view: TableView | null, seat: number): string {
  return view?.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

/** The readable result of a hand: winners, amounts, the hands that won and the halves. */
export function summaryLines(summary: HandRecap, view: TableView | null): string[] {
  const lines: string[] = [];
  for (const player of summary.players) {
    if (player.high === null && player.low === null) continue;
    const hands = [
      player.high === null ? null : player.high.name,
      player.low === null ? null : `low: ${player.low.name}`,
    ]
      .filter((text) => text !== null)
      .join('; ');
    lines.push(`${player.name || nameOf(view, player.seat)}: ${hands}`);
  }
  return lines;
}
