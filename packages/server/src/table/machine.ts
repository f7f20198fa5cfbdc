/**
 * The table machine: `step(state, command) → { state, effects, result }`. It owns and updates in place
 * the state it is given (./state.ts; the engine's `Hand` in it is mutable by design) and returns that
 * same state; it does no I/O, reads no clock (time comes in on the command as `now`) and draws no
 * random number except from the state's own source, and it never awaits. What must happen in the
 * world comes out as effects (./effects.ts), which the actor (./actor.ts) runs in order: persist
 * (awaited before what follows it), broadcast or deliver, timers, news for the controller.
 *
 * A command that needs an answer from the world before the state may change is split: the ledger's
 * buy-in of `sit` and `top-up` is checked first with the pure `check`, bought by the actor, and only
 * then stepped (the step takes it as paid); the hand's id comes back from storage as `hand-stored`.
 * What a cash table decides for itself otherwise comes from its policies (./policies.ts).
 */
import { contributionHash, fromHex, FAIR_BYTES, toHex, type RandomSource } from '@felt/engine';
import type { FairLink } from '../storage/types.js';
import { toHandAction } from './actions.js';
import type { ResolvedTable } from './config.js';
import { broadcastSnapshot, deliver, persist, type Effect, type Run, type SubscriberId } from './effects.js';
import { firstLink, linkFromStore, storedLink } from './fair.js';
import {
  commit,
  decisionTimeUp,
  forcedMove,
  handStored,
  planAgainIfAsked,
  releaseSeat,
  scheduleHand,
  settleBlind,
  startHand,
  stopClock,
} from './hand-flow.js';
import type { TablePolicies } from './policies.js';
import { resumeHand } from './resume.js';
import { answerRunTwice, closeRunTwice } from './run-twice.js';
import { storageBack } from './storage-back.js';
import { seatOf, toldDeadline, type MachineState, type RunTwiceOffer, type SeatState } from './state.js';
import {
  TableErrorCode,
  type AccountId,
  type CommandResult,
  type ControllerCommand,
  type HandId,
  type PlayerRef,
  type TableCommand,
} from './types.js';

export type { Effect, Write, ControllerNews, SubscriberId, TimerName } from './effects.js';

export type MachineCommand =
  /** A player's command; `sit` and `top-up` of ledger chips: bought in already (see `check`). */
  | {
      readonly type: 'player';
      readonly now: number;
      readonly player: PlayerRef;
      readonly command: TableCommand;
    }
  | { readonly type: 'controller'; readonly now: number; readonly command: ControllerCommand }
  /**
   * The table's fair-dealing chain as storage holds it (the actor reads it before anything else);
   * null: the table has none yet, and starts one.
   */
  | { readonly type: 'fair-chain'; readonly now: number; readonly link: FairLink | null }
  /** Storage stored the hand being started under this id. */
  | { readonly type: 'hand-stored'; readonly now: number; readonly handId: HandId }
  /**
   * Storage takes writes again after refusing one: the table's hands in progress are cancelled, and
   * here are its chain and each seated account's chips as storage holds them (./storage-back.ts).
   */
  | {
      readonly type: 'storage-back';
      readonly now: number;
      readonly link: FairLink | null;
      readonly stacks: ReadonlyMap<AccountId, number>;
    }
  /** A new subscriber (the actor counted his presence already): his view, or everybody's when seated. */
  | {
      readonly type: 'subscribed';
      readonly now: number;
      readonly subscriber: SubscriberId;
      readonly viewer: AccountId | null;
    }
  /** The account's last subscription ended. */
  | { readonly type: 'disconnected'; readonly now: number; readonly account: AccountId }
  | { readonly type: 'next-hand-due'; readonly now: number }
  /** The blind request `request` (the one running when the timer fired) got no answer in time. */
  | { readonly type: 'blind-time-up'; readonly now: number; readonly request: MachineState['blindRequest'] }
  /** The run-it-twice offer `offer` (the one open when the timer fired) got no answer from everybody in time. */
  | { readonly type: 'run-twice-time-up'; readonly now: number; readonly offer: RunTwiceOffer | null }
  /**
   * The decision clock armed for `armed` (`state.decisionFor` when it fired) ran out; `allInLeft`: the
   * actor has an artificial all-in left (the room's counter).
   */
  | {
      readonly type: 'decision-time-up';
      readonly now: number;
      readonly armed: MachineState['decisionFor'];
      readonly allInLeft: boolean;
    };

export interface StepResult {
  readonly state: MachineState;
  readonly effects: readonly Effect[];
  readonly result: CommandResult;
}

const OK: CommandResult = { ok: true };
const refuse = (code: TableErrorCode, message: string): CommandResult => ({
  ok: false,
  error: { code, message },
});

export function createMachineState(
  settings: ResolvedTable,
  policies: TablePolicies,
  random: RandomSource,
): MachineState {
  return {
    id: settings.config.id,
    settings,
    policies,
    random,
    fair: null,
    closed: false,
    seats: Array.from({ length: settings.seatCount }, () => null),
    presence: new Map(),
    button: null,
    lastSmallBlind: null,
    lastBigBlind: null,
    hand: null,
    storing: null,
    handNumber: 0,
    blindRequest: null,
    consented: new Set(),
    recap: null,
    stream: 0,
    handsAllowed: 0,
    paused: false,
    nextHandDue: false,
    decisionFor: null,
    pots: [],
    potSum: 0,
    handTimes: [],
  };
}

/**
 * Whether a player's `sit` or `top-up` may go ahead (before the ledger is asked for the chips); every
 * other command: OK (the step decides).
 */
export function check(s: MachineState, player: PlayerRef, command: TableCommand): CommandResult {
  if (s.closed) return refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed');
  if (command.type === 'sit') {
    if (s.policies.chips !== 'ledger')
      return refuse(TableErrorCode.WRONG_STATE, 'seats are given by the controller');
    return checkSeat(s, player.account, command.seat) ?? checkBuyIn(s, command.buyIn);
  }
  if (command.type === 'top-up') {
    if (s.policies.chips !== 'ledger')
      return refuse(TableErrorCode.WRONG_STATE, 'stacks are given by the controller');
    const seat = seatOf(s, player.account);
    if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
    if (s.hand?.accounts.includes(player.account) === true)
      return refuse(TableErrorCode.WRONG_STATE, 'chips are added between hands (table stakes)');
    const max = s.settings.maxBuyIn;
    if (
      !Number.isSafeInteger(command.amount) ||
      command.amount <= 0 ||
      (max !== null && seat.stack + command.amount > max)
    )
      return refuse(TableErrorCode.BAD_BUY_IN, 'top-up beyond the maximum buy-in');
  }
  return OK;
}

function checkSeat(s: MachineState, account: AccountId, seat: number): CommandResult | null {
  if (!Number.isInteger(seat) || seat < 0 || seat >= s.settings.seatCount)
    return refuse(TableErrorCode.SEAT_TAKEN, `no seat ${seat} at this table`);
  if (seatOf(s, account) !== null || s.hand?.accounts.includes(account) === true)
    return refuse(TableErrorCode.ALREADY_SEATED, 'one seat per account per table');
  if (s.seats[seat] !== null) return refuse(TableErrorCode.SEAT_TAKEN, `seat ${seat} is taken`);
  return null;
}

function checkBuyIn(s: MachineState, buyIn: number): CommandResult {
  const { minBuyIn, maxBuyIn } = s.settings;
  if (!Number.isSafeInteger(buyIn) || buyIn < minBuyIn || (maxBuyIn !== null && buyIn > maxBuyIn))
    return refuse(TableErrorCode.BAD_BUY_IN, `buy-in from ${minBuyIn} to ${maxBuyIn ?? 'any amount'}`);
  return OK;
}

/** One command: the state changed in place, the effects to run in order, the command's outcome. */
export function step(state: MachineState, command: MachineCommand): StepResult {
  const run: Run = { s: state, fx: [], now: command.now };
  const result = dispatch(run, command);
  return { state, effects: run.fx, result };
}

function dispatch(run: Run, command: MachineCommand): CommandResult {
  const s = run.s;
  if (s.closed) return refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed');
  switch (command.type) {
    case 'player':
      return playerCommand(run, command.player, command.command);
    case 'controller':
      return controllerCommand(run, command.command);
    case 'fair-chain':
      takeUpChain(run, command.link);
      return OK;
    case 'hand-stored':
      handStored(run, command.handId);
      return OK;
    case 'storage-back':
      // The link the table holds is the stored one: its acknowledged contributions stay.
      if (s.fair === null || command.link === null || toHex(s.fair.secret) !== command.link.secret)
        takeUpChain(run, command.link);
      storageBack(run, command.stacks);
      return OK;
    case 'subscribed':
      subscribed(run, command.subscriber, command.viewer);
      return OK;
    case 'disconnected':
      if (seatOf(s, command.account) !== null) broadcastSnapshot(run);
      return OK;
    case 'next-hand-due':
      s.nextHandDue = false;
      startHand(run);
      return OK;
    case 'blind-time-up': {
      // No answer in time: he declines (the request ends when he leaves, so his seat is still there).
      const request = command.request;
      if (request !== null && s.blindRequest === request) settleBlind(run, s.seats[request.seat]!, false);
      return OK;
    }
    case 'decision-time-up':
      decisionTimeUp(run, command.armed, command.allInLeft);
      return OK;
    case 'run-twice-time-up': {
      // No answer in time is no: the board is run once.
      const offer = command.offer;
      if (offer?.open === true && s.hand?.runTwice === offer) {
        closeRunTwice(run, offer);
        commit(run, null, null);
      }
      return OK;
    }
  }
}

/**
 * The chain goes on from its stored link; a table without one starts it, stored before it is shown.
 * The actor's first job (nobody is seated or subscribed yet, so nothing is announced), and again when
 * storage takes writes after refusing one (the next hand's commitment goes out with that hand).
 */
function takeUpChain(run: Run, stored: FairLink | null): void {
  const s = run.s;
  if (stored === null) {
    s.fair = firstLink(s.id, s.random);
    persist(run, { kind: 'fair-link', link: storedLink(s.fair) });
  } else s.fair = linkFromStore(s.id, stored);
}

/**
 * A seated player's 32 bytes for the chain's next hand, naming its commitment: kept (one per seat) and
 * used when that hand starts, whether or not he is dealt in. Nothing is announced: the hand's first
 * message lists the hashes.
 */
function contribute(
  run: Run,
  account: AccountId,
  command: Extract<TableCommand, { type: 'fair-contribute' }>,
): CommandResult {
  const s = run.s;
  const seat = seatOf(s, account);
  if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'only a seated player contributes');
  const bytes = fromHex(command.bytes, FAIR_BYTES);
  if (bytes === null)
    return refuse(TableErrorCode.BAD_CONTRIBUTION, 'a contribution is 64 lower-case hex digits');
  const link = s.fair;
  if (link === null) return refuse(TableErrorCode.WRONG_STATE, 'the table has not taken up its chain yet');
  if (command.commitment !== link.commitmentHex)
    return refuse(
      TableErrorCode.WRONG_COMMITMENT,
      `contributions go to hand ${link.hand}, commitment ${link.commitmentHex}`,
    );
  if (link.contributions.has(seat.seat))
    return refuse(
      TableErrorCode.WRONG_STATE,
      `seat ${seat.seat} has contributed to hand ${link.hand} already`,
    );
  link.contributions.set(seat.seat, bytes);
  return {
    ok: true,
    contribution: {
      hand: link.hand,
      seat: seat.seat,
      hash: toHex(contributionHash(link.commitment, { seat: seat.seat, bytes })),
    },
  };
}

/** A new subscriber: a seated player (re)connecting is news for everybody; he gets the full view either way. */
function subscribed(run: Run, subscriber: SubscriberId, viewer: AccountId | null): void {
  const s = run.s;
  if (viewer !== null && seatOf(s, viewer) !== null) broadcastSnapshot(run);
  else deliver(run, subscriber, viewer, { type: 'table-snapshot', seq: s.stream });
  const hand = s.hand;
  if (hand?.clock) {
    const seat = hand.clock.seat;
    const timeBankMs = s.seats[seat]?.timeBankMs ?? 0;
    deliver(run, subscriber, viewer, {
      type: 'clock',
      hand,
      seq: s.stream,
      seat,
      deadline: toldDeadline(hand) ?? hand.clock.deadline,
      timeBankMs,
    });
    const legal = hand.engine.legalActions();
    if (legal) deliver(run, subscriber, viewer, { type: 'legal-actions', hand, seq: s.stream, seat, legal });
  }
  scheduleHand(run);
}

function newSeat(s: MachineState, player: PlayerRef, seat: number, stack: number, paid: boolean): SeatState {
  return {
    seat,
    account: player.account,
    name: player.name,
    bot: player.bot === true,
    stack,
    sittingOut: false,
    leaving: false,
    paid,
    missedSmall: false,
    missedBig: false,
    postChoice: 'wait',
    autoPost: true,
    muckLosing: true,
    timeBankMs: s.settings.clocks.timeBankMs,
  };
}

function playerCommand(run: Run, player: PlayerRef, command: TableCommand): CommandResult {
  const s = run.s;
  switch (command.type) {
    case 'sit': {
      const checked = check(s, player, command);
      if (!checked.ok) return checked;
      const seat = newSeat(s, player, command.seat, command.buyIn, s.settings.variant.forced === 'bring-in');
      seat.postChoice = command.post ?? 'wait';
      seat.autoPost = command.autoPost ?? true;
      seat.muckLosing = command.muckLosing ?? true;
      s.seats[command.seat] = seat;
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    }
    case 'leave':
      if (s.policies.chips !== 'ledger')
        return refuse(TableErrorCode.WRONG_STATE, 'the controller takes players out');
      return leave(run, player.account);
    case 'top-up': {
      const checked = check(s, player, command);
      if (!checked.ok) return checked;
      seatOf(s, player.account)!.stack += command.amount;
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    }
    case 'act':
      return act(run, player.account, command);
    case 'run-twice':
      return runTwice(run, player.account, command.accept);
    case 'fair-contribute':
      return contribute(run, player.account, command);
    default:
      break;
  }
  const seat = seatOf(s, player.account);
  if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
  switch (command.type) {
    case 'sit-out':
      if (s.policies.chips === 'controller')
        return refuse(TableErrorCode.WRONG_STATE, 'at a tournament table every player is dealt in');
      seat.sittingOut = true;
      broadcastSnapshot(run);
      planAgainIfAsked(run, seat.seat);
      return OK;
    case 'sit-in':
      if (seat.leaving) return refuse(TableErrorCode.WRONG_STATE, 'leaving the table');
      seat.sittingOut = false;
      seat.postChoice = command.post ?? 'wait';
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    case 'auto-post':
    case 'muck-losing':
      if (command.type === 'auto-post') seat.autoPost = command.on;
      else seat.muckLosing = command.on;
      broadcastSnapshot(run);
      // Auto-post switched on while the table asks him: that is his answer.
      if (seat.autoPost) planAgainIfAsked(run, seat.seat);
      return OK;
    case 'post-blind':
      if (s.blindRequest?.seat !== seat.seat)
        return refuse(TableErrorCode.WRONG_STATE, 'no blind of yours is awaited');
      settleBlind(run, seat, command.post);
      return OK;
  }
}

/** Leaves now, or (in the hand, not folded) when the hand is over, his hand folded when his turn comes. */
function leave(run: Run, account: AccountId): CommandResult {
  const s = run.s;
  const seat = seatOf(s, account);
  if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
  const hand = s.hand;
  const p = hand ? hand.accounts.indexOf(account) : -1;
  if (hand && p >= 0) {
    const player = hand.engine.snapshot().players[p]!;
    if (!player.folded && !hand.engine.isDone) {
      seat.leaving = true;
      seat.sittingOut = true;
      broadcastSnapshot(run);
      if (hand.engine.actor === p) forcedMove(run, p, 'leave', false);
      return OK;
    }
  }
  releaseSeat(run, seat);
  planAgainIfAsked(run, seat.seat);
  return OK;
}

function act(run: Run, account: AccountId, command: Extract<TableCommand, { type: 'act' }>): CommandResult {
  const hand = run.s.hand;
  if (!hand || hand.engine.isDone) return refuse(TableErrorCode.NO_SUCH_HAND, 'no hand in progress');
  if (command.handId !== undefined && command.handId !== hand.id)
    return refuse(TableErrorCode.NO_SUCH_HAND, 'not the hand in progress');
  const p = hand.accounts.indexOf(account);
  if (p < 0) return refuse(TableErrorCode.NOT_SEATED, 'not in this hand');
  if (hand.engine.actor !== p) return refuse(TableErrorCode.NOT_YOUR_TURN, 'not your turn');
  const translated = toHandAction(hand.engine, p, command.action);
  if (!translated.ok) return refuse(translated.code, translated.message);
  stopClock(run, true);
  commit(run, translated.action, account);
  return OK;
}

/** A player's answer to the hand's run-it-twice offer: once, by a player it asks, while it is open. */
function runTwice(run: Run, account: AccountId, accept: boolean): CommandResult {
  const hand = run.s.hand;
  const offer = hand?.runTwice;
  if (!hand || !offer?.open) return refuse(TableErrorCode.WRONG_STATE, 'no run it twice is offered');
  const p = hand.accounts.indexOf(account);
  if (!offer.players.includes(p)) return refuse(TableErrorCode.NOT_SEATED, 'not asked: not in this hand');
  if (offer.accepted.has(p)) return refuse(TableErrorCode.WRONG_STATE, 'agreed already');
  const outcome = answerRunTwice(run, offer, p, accept);
  if (outcome !== 'wait') commit(run, outcome === 'agreed' ? { type: 'run-twice' } : null, account);
  return OK;
}

function controllerCommand(run: Run, command: ControllerCommand): CommandResult {
  const s = run.s;
  switch (command.type) {
    case 'seat': {
      if (s.policies.chips !== 'controller')
        return refuse(TableErrorCode.WRONG_STATE, 'players buy in at this table');
      const refused = checkSeat(s, command.player.account, command.seat);
      if (refused) return refused;
      if (!Number.isSafeInteger(command.stack) || command.stack <= 0)
        return refuse(TableErrorCode.BAD_BUY_IN, 'a stack is a positive whole number of chips');
      // Unpaid: the dead-button planner deals him in once the button has passed him.
      const paid = command.afterButton !== true;
      s.seats[command.seat] = newSeat(s, command.player, command.seat, command.stack, paid);
      persist(run, { kind: 'stack-in', account: command.player.account, stack: command.stack });
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    }
    case 'restore-seat': {
      if (s.policies.chips !== 'ledger')
        return refuse(TableErrorCode.WRONG_STATE, 'the controller seats players at this table');
      if (s.hand !== null) return refuse(TableErrorCode.WRONG_STATE, 'seats are restored before any hand');
      const refused = checkSeat(s, command.player.account, command.seat);
      if (refused) return refused;
      if (!Number.isSafeInteger(command.stack) || command.stack <= 0)
        return refuse(TableErrorCode.BAD_BUY_IN, 'a stack is a positive whole number of chips');
      // He was playing at this table: his blinds are paid, he is dealt in at once.
      s.seats[command.seat] = newSeat(s, command.player, command.seat, command.stack, true);
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    }
    case 'unseat':
      if (s.policies.chips !== 'controller')
        return refuse(TableErrorCode.WRONG_STATE, 'players leave this table themselves');
      return leave(run, command.account);
    case 'add-chips': {
      if (s.policies.chips !== 'controller')
        return refuse(TableErrorCode.WRONG_STATE, 'players top up at this table');
      const seat = seatOf(s, command.account);
      if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
      // The hand's stacks were taken when it was planned and are written back when it ends.
      if (
        s.hand?.accounts.includes(command.account) === true ||
        s.storing?.accounts.includes(command.account) === true
      )
        return refuse(TableErrorCode.WRONG_STATE, 'in the hand in progress');
      if (!Number.isSafeInteger(command.chips) || command.chips <= 0)
        return refuse(TableErrorCode.BAD_BUY_IN, 'chips are a positive whole number');
      seat.stack += command.chips;
      persist(run, { kind: 'stack-in', account: command.account, stack: seat.stack });
      broadcastSnapshot(run);
      scheduleHand(run);
      return OK;
    }
    case 'allow-hands':
      if (!Number.isSafeInteger(command.count) || command.count <= 0)
        return refuse(TableErrorCode.WRONG_STATE, 'allow a positive number of hands');
      s.handsAllowed += command.count;
      scheduleHand(run);
      return OK;
    case 'resume-hand':
      return resumeHand(run, command);
    case 'pause':
      if (s.paused !== command.paused) {
        s.paused = command.paused;
        // Its players see it at once, not only at the next hand that does not come.
        broadcastSnapshot(run);
      }
      scheduleHand(run);
      return OK;
  }
}
