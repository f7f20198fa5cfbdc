/**
 * The one visibility module of a table: what each viewer may see of every message (snapshot, event,
 * clock, legal actions, hand summary), of the recap a player asks for, and of the stored history of a
 * hand (./history.ts asks `sees` too). A viewer is an ACCOUNT (null: an anonymous spectator), never a
 * seat: the down cards of an engine position are seen by the account that was dealt them, whoever sits
 * on that seat now. Everybody sees face-up cards, the board and cards shown at showdown; nobody sees
 * another player's down cards, discards, the deck, the burns or the random source (the engine's deck
 * never leaves the `Hand` object: no message is built from it). The fair-dealing chain's commitments
 * and contributions' hashes are public; a hand's secret and contributions reach only its players,
 * after it ended, by the reveal rule here (docs/fairness.md §8).
 */
import {
  FAIR_VERSION,
  formatCard,
  secretExposesNothingHidden,
  toHex,
  type HandEvent,
  type LegalActions,
  type MaybeCard,
} from '@felt/engine';
import { committedOrder, type HandFair, type OpenLink } from './fair.js';
import { isConnected, toldDeadline, type HandInPlay, type MachineState, type SeatState } from './state.js';
import {
  HIDDEN_CARD,
  type AccountId,
  type CardView,
  type EventView,
  type FairHandView,
  type FairNextView,
  type FairRevealView,
  type HandRecap,
  type HandView,
  type LegalView,
  type SeatView,
  type TableMessage,
  type TableView,
} from './types.js';

/** An outgoing message before filtering: engine positions and full cards; `seq` its stream number. */
export type FullMessage =
  | { readonly type: 'table-snapshot'; readonly seq: number }
  | {
      readonly type: 'hand-start';
      readonly hand: HandInPlay;
      readonly seq: number;
      readonly next: OpenLink;
    }
  | {
      readonly type: 'table-event';
      readonly hand: HandInPlay;
      readonly seq: number;
      readonly event: HandEvent;
    }
  | {
      readonly type: 'clock';
      readonly hand: HandInPlay;
      readonly seq: number;
      readonly seat: number;
      readonly deadline: number;
      readonly timeBankMs: number;
    }
  | {
      readonly type: 'legal-actions';
      readonly hand: HandInPlay;
      readonly seq: number;
      readonly seat: number;
      readonly legal: LegalActions;
    }
  | { readonly type: 'hand-summary'; readonly seq: number; readonly recap: HandRecap };

/** How long after a hand its secret goes to its players: a day, unless it exposes nothing hidden (docs/fairness.md §8). */
export const FAIR_REVEAL_DELAY_MS = 24 * 3_600_000;

/**
 * 0 when every card the secret would rebuild up to the hand's last take was seen by every player and
 * nothing was discarded, else a day: folded, mucked and discarded cards stay his while they matter.
 */
export function fairRevealDelayMs(hand: HandInPlay): number {
  const order = committedOrder(hand.fair, hand.engine.variant.deck);
  return secretExposesNothingHidden(hand.engine.events, order) ? 0 : FAIR_REVEAL_DELAY_MS;
}

/** The public part of a hand's fair record. */
export function fairHandView(fair: HandFair): FairHandView {
  return {
    version: FAIR_VERSION,
    hand: fair.hand,
    previous: toHex(fair.previous),
    commitment: toHex(fair.commitment),
    contributions: fair.contributions.map((c, i) => ({ seat: c.seat, hash: toHex(fair.hashes[i]!) })),
  };
}

/** The secret part, for the hand's players once the reveal rule allows. */
export function fairRevealView(fair: HandFair): FairRevealView {
  return { secret: toHex(fair.secret), contributions: fair.contributions.map((c) => toHex(c.bytes)) };
}

const nextView = (link: OpenLink): FairNextView => ({ hand: link.hand, commitment: link.commitmentHex });

/** Whether `viewer` sees the down cards of engine position `p` of a hand dealt to `accounts`. */
export function sees(accounts: readonly AccountId[], p: number, viewer: AccountId | null): boolean {
  return viewer !== null && accounts[p] === viewer;
}

/** The seat a viewer sees the table from: his seat, or his seat in the hand in play (left but still in it). */
export function viewerSeat(state: MachineState, viewer: AccountId | null): number | null {
  if (viewer === null) return null;
  for (const seat of state.seats) if (seat !== null && seat.account === viewer) return seat.seat;
  const p = state.hand?.accounts.indexOf(viewer) ?? -1;
  return p >= 0 ? (state.hand!.order[p] ?? null) : null;
}

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

function eventFor(event: HandEvent, hand: HandInPlay, viewer: AccountId | null): EventView {
  const order = hand.order;
  const seatOf = (p: number): number => order[p] ?? -1;
  const own = (p: number): boolean => sees(hand.accounts, p, viewer);
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
      return event.run === undefined
        ? { type: 'deal-board', cards: event.cards.map(text) }
        : { type: 'deal-board', cards: event.cards.map(text), run: event.run };
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
    case 'run-twice':
      return { type: 'run-twice' };
    case 'award':
      return {
        type: 'award',
        pot: event.pot,
        seat: seatOf(event.player),
        amount: event.amount,
        share: event.share,
        ...(event.run === undefined ? {} : { run: event.run }),
      };
    case 'end':
      return { type: 'end', stacks: event.stacks.map((stack, p) => ({ seat: seatOf(p), stack })) };
  }
}

function handViewFor(hand: HandInPlay, viewer: AccountId | null): HandView {
  const snap = hand.engine.snapshot();
  const actorSeat = snap.actor === null ? null : (hand.order[snap.actor] ?? null);
  const legal = hand.engine.legalActions();
  return {
    handId: hand.id,
    number: hand.number,
    fair: fairHandView(hand.fair),
    phase: snap.phase,
    street: snap.street,
    board: snap.board.map(text),
    secondBoard: snap.secondBoard?.map(text) ?? null,
    runTwice: runTwiceView(hand),
    pots: snap.pots.map((pot) => ({
      amount: pot.amount,
      seats: pot.eligible.map((p) => hand.order[p] ?? -1),
    })),
    currentBet: snap.currentBet,
    actor: actorSeat,
    deadline: toldDeadline(hand),
    players: snap.players.map((player, p) => ({
      seat: hand.order[p] ?? -1,
      stack: player.stack,
      bet: player.bet,
      committed: player.committed,
      folded: player.folded,
      allIn: player.allIn,
      // A hand shown (all in with no betting left, or at the showdown) stays face up for everybody.
      cards: cardsFor(player.cards, player.shown || sees(hand.accounts, p, viewer), player.up),
      up: [...player.up],
    })),
    legal:
      legal !== null && actorSeat !== null && sees(hand.accounts, snap.actor!, viewer)
        ? legalView(actorSeat, legal)
        : null,
  };
}

/** The run-it-twice offer while it is open: whom it asks (seats) and who agreed so far. */
function runTwiceView(hand: HandInPlay): HandView['runTwice'] {
  const offer = hand.runTwice;
  if (offer === null || !offer.open) return null;
  const seat = (p: number): number => hand.order[p] ?? -1;
  return {
    deadline: offer.deadline,
    seats: offer.players.map(seat),
    accepted: [...offer.accepted].map(seat),
  };
}

function seatView(state: MachineState, seat: SeatState): SeatView {
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
    connected: isConnected(state, seat.account),
    missed: { small: seat.missedSmall, big: seat.missedBig },
    paid: seat.paid,
    autoPost: seat.autoPost,
    muckLosing: seat.muckLosing,
    timeBankMs: seat.timeBankMs,
    bot: seat.bot,
  };
}

/**
 * A hand summary as `viewer` (an account, or null) may see it: the cards he was dealt, shown and
 * face-up cards, "??" for the rest. `askedFor`: the summary a player asked for, in which a player dealt
 * into the hand also sees the hands mucked at the showdown (RULES.md §1); the one pushed at the end of
 * the hand hides them.
 */
export function recapFor(recap: HandRecap, viewer: AccountId | null, askedFor = false): HandRecap {
  const played = viewer !== null && recap.players.some((player) => player.account === viewer);
  const seesMucks = askedFor && played;
  return {
    ...recap,
    reveal: played ? recap.reveal : null,
    players: recap.players.map((player) => {
      if (viewer !== null && player.account === viewer) return player;
      if (player.showed || (player.mucked && seesMucks)) return player;
      return {
        ...player,
        cards: player.cards.map((card, i) => (player.up[i] === true ? card : HIDDEN_CARD)),
        high: null,
        low: null,
        ...(player.second === undefined ? {} : { second: { high: null, low: null } }),
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
  'run-twice',
  'timeout',
  'rake',
  'award',
  'end',
]);

/**
 * Whether `viewFor(state, viewer, message)` is the same for every viewer (so a broadcast may build it once
 * and hand the same message to everybody): clocks, and events without private cards.
 */
export function sameForEveryViewer(message: FullMessage): boolean {
  if (message.type === 'clock' || message.type === 'hand-start') return true;
  return message.type === 'table-event' && PUBLIC_EVENTS.has(message.event.type);
}

/** The table as `viewer` sees it now. */
export function tableViewFor(state: MachineState, viewer: AccountId | null): TableView {
  const table = state.settings;
  return {
    tableId: state.id,
    name: table.config.name,
    game: table.config.game,
    structure: table.config.structure,
    stakes: table.config.stakes,
    stakesText: table.stakesText,
    currency: table.config.currency,
    seatCount: table.seatCount,
    minBuyIn: table.minBuyIn,
    maxBuyIn: table.maxBuyIn,
    button: state.button,
    seats: state.seats.map((s) => (s === null ? null : seatView(state, s))),
    hand: state.hand === null ? null : handViewFor(state.hand, viewer),
    blindRequest: state.blindRequest,
    paused: state.paused,
    you: viewerSeat(state, viewer),
    fair: state.fair === null ? null : nextView(state.fair),
  };
}

/**
 * THE filter: what `viewer` (an account, seated or not; null: an anonymous spectator) may receive of
 * `message`. Null: nothing for this viewer (legal actions are for the actor alone).
 */
export function viewFor(
  state: MachineState,
  viewer: AccountId | null,
  message: FullMessage,
): TableMessage | null {
  switch (message.type) {
    case 'table-snapshot':
      return {
        type: 'table-snapshot',
        tableId: state.id,
        seq: message.seq,
        view: tableViewFor(state, viewer),
      };
    case 'hand-start':
      return {
        type: 'hand-start',
        tableId: state.id,
        seq: message.seq,
        handId: message.hand.id,
        number: message.hand.number,
        fair: fairHandView(message.hand.fair),
        next: nextView(message.next),
      };
    case 'table-event':
      return {
        type: 'table-event',
        tableId: state.id,
        handId: message.hand.id,
        seq: message.seq,
        event: eventFor(message.event, message.hand, viewer),
      };
    case 'clock':
      return {
        type: 'clock',
        tableId: state.id,
        seq: message.seq,
        handId: message.hand.id,
        seat: message.seat,
        deadline: message.deadline,
        timeBankMs: message.timeBankMs,
      };
    case 'legal-actions':
      if (!sees(message.hand.accounts, message.legal.player, viewer)) return null;
      return {
        type: 'legal-actions',
        tableId: state.id,
        seq: message.seq,
        handId: message.hand.id,
        legal: legalView(message.seat, message.legal),
      };
    case 'hand-summary':
      return {
        type: 'hand-summary',
        tableId: state.id,
        seq: message.seq,
        summary: recapFor(message.recap, viewer),
      };
  }
}

/** A broadcast message made for every viewer at once (when it is made: the state moves on after). */
export interface Rendered {
  /** For anonymous spectators and every account not in `byViewer`. */
  readonly others: TableMessage | null;
  /** Per watching account that sees more than a spectator; null when the message is the same for all. */
  readonly byViewer: ReadonlyMap<AccountId, TableMessage | null> | null;
}

/** What each watching viewer receives of a broadcast `message`: one view per viewer who sees more. */
export function render(state: MachineState, message: FullMessage): Rendered {
  if (sameForEveryViewer(message)) return { others: viewFor(state, null, message), byViewer: null };
  const byViewer = new Map<AccountId, TableMessage | null>();
  if (message.type === 'legal-actions') {
    const account = message.hand.accounts[message.legal.player];
    if (account !== undefined) byViewer.set(account, viewFor(state, account, message));
    return { others: null, byViewer };
  }
  // Who sees more than a spectator: the seated, those dealt into the hand, and those of a finished hand.
  const recap = message.type === 'hand-summary' ? message.recap : null;
  for (const account of state.presence.keys())
    if (viewerSeat(state, account) !== null || recap?.players.some((p) => p.account === account) === true)
      byViewer.set(account, viewFor(state, account, message));
  return { others: viewFor(state, null, message), byViewer };
}

/** The message of `rendered` for `viewer`. */
export function renderedFor(rendered: Rendered, viewer: AccountId | null): TableMessage | null {
  const byViewer = rendered.byViewer;
  if (byViewer === null || viewer === null) return rendered.others;
  const own = byViewer.get(viewer);
  return own === undefined ? rendered.others : own;
}
