/**
 * One open table in the client: the last full view from the server, brought up to date by the hand's
 * events until the next view arrives. Applying an event is bookkeeping only (chips from a stack to a bet,
 * a card onto the board); every rule — who acts, what is legal, who wins — comes from the server.
 */
import { formatMoney } from '../format';
import {
  HIDDEN,
  type CardView,
  type EventView,
  type HandPlayerView,
  type HandSummary,
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

export interface TableState {
  readonly tableId: string;
  readonly view: TableView | null;
  /** The viewer's legal actions when he is to act, else null. */
  readonly legal: LegalView | null;
  readonly clock: ClockState | null;
  /** Lines of the hand in progress (and of the last one until the next starts). */
  readonly log: readonly string[];
  /** Chips won by seat in the last hand (award events), for the result badges. */
  readonly won: Readonly<Record<number, number>>;
  /** The last finished hand's summary as this viewer may see it. */
  readonly summary: HandSummary | null;
  /** Seats that mucked at showdown. */
  readonly mucked: readonly number[];
  /** The hand that just ended, kept on the table (board, shown cards) until the next one starts. */
  readonly lastHand: HandView | null;
  /**
   * Chips of forced bets the view already counts: the server's first view of a hand is taken after the
   * blinds and antes are posted, and their `post` events follow it; those are not counted twice.
   */
  readonly postedInView: number;
  /** The last event applied (per hand), so a repeated event is not applied twice. */
  readonly lastSeq: number;
}

export function emptyTable(tableId: string): TableState {
  return {
    tableId,
    view: null,
    legal: null,
    clock: null,
    log: [],
    won: {},
    summary: null,
    mucked: [],
    lastHand: null,
    postedInView: 0,
    lastSeq: 0,
  };
}

/** A full view from the server replaces what the client had built. */
export function withView(state: TableState, view: TableView): TableState {
  const previousHand = state.view?.hand?.handId ?? null;
  const newHand = view.hand !== null && view.hand.handId !== previousHand && view.hand.phase !== 'done';
  const legal = view.hand?.legal ?? (view.hand !== null && view.hand.actor === view.you ? state.legal : null);
  const ended =
    view.hand === null && state.view?.hand != null
      ? { ...state.view.hand, phase: 'done' as const, actor: null }
      : null;
  return {
    ...state,
    view,
    legal: view.hand === null || view.hand.phase === 'done' ? null : legal,
    clock: view.hand === null || view.hand.actor === null ? null : state.clock,
    ...(ended === null ? {} : { lastHand: ended }),
    ...(newHand
      ? {
          log: [`Hand #${view.hand.number} starts`],
          won: {},
          mucked: [],
          lastHand: null,
          postedInView: view.hand.players.reduce((sum, p) => sum + p.committed, 0),
          lastSeq: 0,
        }
      : {}),
  };
}

export function withLegal(state: TableState, legal: LegalView | null): TableState {
  return { ...state, legal };
}

export function withClock(state: TableState, clock: ClockState | null): TableState {
  const view = state.view;
  if (clock === null || view?.hand == null) return { ...state, clock };
  return {
    ...state,
    clock,
    view: { ...view, hand: { ...view.hand, actor: clock.seat } },
    // The legal actions belong to the player to act; a clock for someone else retires ours.
    legal: clock.seat === view.you ? state.legal : null,
  };
}

export function withSummary(state: TableState, summary: HandSummary): TableState {
  const lines = summaryLines(summary, state.view);
  return { ...state, summary, legal: null, clock: null, log: [...state.log, ...lines] };
}

/** Brings the view up to date with one event of the hand in progress (`seq`: its number in the hand). */
export function withEvent(state: TableState, event: EventView, seq?: number): TableState {
  const view = state.view;
  if (seq !== undefined && seq <= state.lastSeq) return state;
  const line = describeEvent(event, view);
  const log = line === null ? state.log : [...state.log, line];
  const lastSeq = seq ?? state.lastSeq;
  if (view?.hand == null) return { ...state, log, lastSeq };
  if (event.type === 'post' && state.postedInView >= event.amount) {
    return { ...state, log, lastSeq, postedInView: state.postedInView - event.amount };
  }
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
  return {
    ...state,
    view: { ...view, hand, seats },
    log,
    won,
    mucked,
    legal,
    clock,
    lastSeq,
    postedInView: event.type === 'post' ? state.postedInView : 0,
  };
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

/** Bookkeeping of one event on the hand's view (chips and cards move; no rule is decided here). */
export function applyEvent(hand: HandView, event: EventView): HandView {
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
      return { ...hand, board: [...hand.board, ...event.cards] };
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

const cardsText = (cards: readonly CardView[]): string => cards.join(' ');

/** One line of the hand's log, or null for events not worth a line. */
export function describeEvent(event: EventView, view: TableView | null): string | null {
  switch (event.type) {
    case 'post':
      return `${nameOf(view, event.seat)} posts ${event.kind === 'ante' ? 'the ante' : event.kind === 'dead-blind' ? 'a dead blind' : 'a blind'} of ${money(view, event.amount)}`;
    case 'deal-hole':
      return event.cards.some((card, i) => card !== HIDDEN && event.up[i] === true)
        ? `${nameOf(view, event.seat)} is dealt ${cardsText(event.cards.filter((_, i) => event.up[i] === true))} face up`
        : null;
    case 'deal-board':
      return `Board: ${cardsText(event.cards)}`;
    case 'deal-draw':
      return event.cards.every((card) => card === HIDDEN)
        ? null
        : `${nameOf(view, event.seat)} draws ${cardsText(event.cards)}`;
    case 'round':
      return null;
    case 'fold':
      return `${nameOf(view, event.seat)} folds`;
    case 'check':
      return `${nameOf(view, event.seat)} checks`;
    case 'call':
      return `${nameOf(view, event.seat)} calls ${money(view, event.amount)}${event.allIn ? ' (all in)' : ''}`;
    case 'bring-in':
      return `${nameOf(view, event.seat)} brings in for ${money(view, event.amount)}`;
    case 'bet-raise':
      return `${nameOf(view, event.seat)} ${event.to === event.amount ? 'bets' : 'raises to'} ${money(view, event.to)}${event.allIn ? ' (all in)' : ''}`;
    case 'discard':
      return event.cards.length === 0
        ? `${nameOf(view, event.seat)} stands pat`
        : `${nameOf(view, event.seat)} discards ${event.cards.length}`;
    case 'return':
      return `${money(view, event.amount)} returned to ${nameOf(view, event.seat)}`;
    case 'show':
      return `${nameOf(view, event.seat)} shows ${cardsText(event.cards)}`;
    case 'muck':
      return `${nameOf(view, event.seat)} mucks`;
    case 'split':
      return `${nameOf(view, event.seat)} ${event.accept ? 'accepts' : 'declines'} the split`;
    case 'timeout':
      return `${nameOf(view, event.seat)} timed out (${event.result})`;
    case 'rake':
      return event.amount > 0 ? `Rake ${money(view, event.amount)}` : null;
    case 'award':
      return `${nameOf(view, event.seat)} wins ${money(view, event.amount)}${potName(event.pot)}${shareName(event.share)}`;
    case 'end':
      return 'Hand over';
  }
}

const potName = (pot: number): string => (pot === 0 ? ' from the main pot' : ` from side pot ${pot}`);
const shareName = (share: string): string =>
  share === 'high' ? ' (high)' : share === 'low' ? ' (low)' : share === 'agreed' ? ' (agreed split)' : '';

/** The readable result of a hand: winners, amounts, the hands that won and the halves. */
export function summaryLines(summary: HandSummary, view: TableView | null): string[] {
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
