/**
 * The hand's life at a table machine: planned (who plays, button, blinds; a blind asked for), dealt,
 * stored, each action applied, made durable then announced, the clocks, the moves the table makes for
 * a player (time-out, disconnection, leaving), the settlement, and what follows the hand. Every
 * function here works on a `Run` (./effects.ts): it changes the state and emits effects, nothing else.
 */
import {
  Hand,
  toHex,
  type HandAction,
  type HandConfig,
  type HandEvent,
  type RandomSource,
} from '@felt/engine';
import type { ChipMove, Settlement } from '../storage/types.js';
import { resolveTable, type ResolvedTable } from './config.js';
import { announceAside, broadcast, broadcastSnapshot, persist, tell, timer, type Run } from './effects.js';
import { dealLink, storedLink } from './fair.js';
import { storedFair, type HandStart } from './hand-start.js';
import { buildRecap, historyPhh } from './history.js';
import { offerRunTwice, runTwiceDue } from './run-twice.js';
import {
  planButtonHand,
  planDeadButtonHand,
  planStudHand,
  type HandPlan,
  type SeatPicture,
} from './seating.js';
import { isConnected, seatOf, type HandInPlay, type MachineState, type SeatState } from './state.js';
import type { AccountId, BlindRequestView, HandId } from './types.js';
import { fairRevealDelayMs } from './visibility.js';

const STATS_HANDS = 50;
const HOUR_MS = 3_600_000;

/**
 * Whether the seat is dealt into the next hand. At a table whose stacks a controller hands in (a
 * tournament) every stack is dealt in — away or disconnected, a player is blinded, never skips a blind
 * (docs/rules.md) — else only a connected player who is not sitting out or leaving.
 */
export function isReady(s: MachineState, seat: SeatState): boolean {
  if (s.policies.chips === 'controller') return seat.stack > 0;
  return !seat.sittingOut && !seat.leaving && seat.stack > 0 && isConnected(s, seat.account);
}

/** Hands started within the hour before `now` (forgetting older ones: the lobby asks every second). */
export function handsWithin(s: MachineState, now: number): number {
  while (s.handTimes.length > 0 && now - s.handTimes[0]! >= HOUR_MS) s.handTimes.shift();
  return s.handTimes.length;
}

const mayStartHand = (s: MachineState): boolean =>
  !s.paused && (s.policies.handStart === 'auto' || s.handsAllowed > 0);

/** Starts the next hand after the pause between hands, unless one runs, is due or waits for a blind. */
export function scheduleHand(run: Run): void {
  const s = run.s;
  if (s.closed || s.hand !== null || s.storing !== null || s.blindRequest !== null || s.nextHandDue) return;
  if (!mayStartHand(s)) return;
  s.nextHandDue = true;
  timer(run, 'next-hand', s.settings.clocks.betweenHandsMs);
}

/** The settings of the next hand: the table's, or its stakes from the schedule. */
function nextHandSettings(run: Run): ResolvedTable {
  const s = run.s;
  const stakes = s.policies.stakes;
  if (stakes.kind === 'fixed') return s.settings;
  const next = stakes.at(s.handNumber + 1, run.now);
  const current = s.settings.config.stakes;
  if (next.small === current.small && next.big === current.big && next.ante === current.ante)
    return s.settings;
  s.settings = resolveTable({ ...s.settings.config, stakes: next });
  return s.settings;
}

/** Plans the next hand, asks for a blind or deals it (storage then gives it its id: `handStored`). */
export function startHand(run: Run): void {
  const s = run.s;
  // Without its chain read from storage the table cannot name the hand's commitment: it waits.
  if (s.closed || s.hand !== null || s.storing !== null || s.fair === null || !mayStartHand(s)) return;
  const settings = nextHandSettings(run);
  const pictures: SeatPicture[] = [];
  for (const seat of s.seats) {
    if (seat === null) continue;
    pictures.push({
      seat: seat.seat,
      ready: isReady(s, seat),
      paid: seat.paid,
      missedSmall: seat.missedSmall,
      missedBig: seat.missedBig,
      wantsToPost: seat.postChoice === 'post',
    });
  }
  const stud = settings.variant.forced === 'bring-in';
  const plan = stud
    ? planStudHand(pictures, settings.seatCount, s.button)
    : s.policies.button === 'dead'
      ? planDeadButtonHand(
          pictures,
          settings.seatCount,
          { button: s.button, smallBlind: s.lastSmallBlind, bigBlind: s.lastBigBlind },
          settings.smallBlind,
          settings.bigBlind,
        )
      : planButtonHand(pictures, settings.seatCount, s.button, settings.smallBlind, settings.bigBlind);
  if (!plan) {
    s.consented.clear();
    return; // a seat change or a reconnection schedules the next try
  }
  if (!stud) {
    const request = blindToAsk(s, plan);
    if (request !== null) {
      askBlind(run, request);
      return;
    }
  }
  s.consented.clear();
  takePlan(s, plan);
  const seatsInHand = plan.order.map((seat) => s.seats[seat]!);
  const stacks = seatsInHand.map((seat) => seat.stack);
  // The deck is derived from the chain's secret and every contribution acknowledged for it; the next
  // hand's secret is drawn now and stored with this hand, before its commitment goes out.
  const { fair, deck, next } = dealLink(s.id, s.fair, s.random);
  s.fair = next;
  const engine = dealHandEngine(settings, plan, stacks, deck);
  const accounts = seatsInHand.map((seat) => seat.account);
  const names = seatsInHand.map((seat) => seat.name);
  s.storing = { engine, settings, plan, accounts, names, fair };
  const start: HandStart = {
    stakes: settings.config.stakes,
    plan,
    stacks,
    accounts,
    names,
    muckLosing: seatsInHand.map((seat) => seat.muckLosing),
    timeBankMs: seatsInHand.map((seat) => seat.timeBankMs),
    fair: storedFair(fair),
  };
  persist(run, {
    kind: 'start-hand',
    hand: {
      tableId: s.id,
      currency: settings.config.currency,
      description: settings.config.name,
      participants: plan.order.map((seat, position) => ({ userId: accounts[position]!, seat, position })),
      posts: moves(engine.events, accounts),
      fair: {
        secret: toHex(fair.secret),
        contributions: fair.contributions.map((c) => toHex(c.bytes)),
        next: storedLink(next),
      },
      start: JSON.stringify(start),
    },
  });
}

/**
 * The table's marks of a hand planned (or resumed): missed blinds, blinds paid, the button and the
 * blinds' seats.
 */
export function takePlan(s: MachineState, plan: HandPlan): void {
  // The seats still taken (a hand resumed by another owner: some may have been left since the deal).
  const taken = (seats: readonly number[]): SeatState[] => seats.flatMap((seat) => s.seats[seat] ?? []);
  for (const seat of taken(plan.missedSmall)) seat.missedSmall = true;
  for (const seat of taken(plan.missedBig)) seat.missedBig = true;
  for (const paid of taken(plan.nowPaid)) {
    paid.paid = true;
    paid.missedSmall = false;
    paid.missedBig = false;
  }
  s.button = plan.button;
  s.lastSmallBlind = plan.smallBlindSeat;
  s.lastBigBlind = plan.bigBlindSeat;
}

/** The engine's hand of `plan` at `settings` with these stacks (position order), dealt from `deck`. */
export function dealHandEngine(
  settings: ResolvedTable,
  plan: HandPlan,
  stacks: readonly number[],
  deck: RandomSource,
): Hand {
  const config: HandConfig = {
    ...settings.engine,
    stacks,
    ...(settings.variant.forced === 'bring-in'
      ? { antes: settings.ante }
      : {
          blinds: plan.blinds,
          ...(plan.deadBlinds.some((d) => d > 0) ? { deadBlinds: plan.deadBlinds } : {}),
        }),
  };
  const created = Hand.create(config, deck);
  if (!created.ok) throw new Error(`hand refused by the engine: ${created.error.message}`);
  return created.value;
}

/**
 * The hand is stored as `handId`: its forced bets are announced, then the snapshot that shows the hand
 * (it stands after them), then what the hand waits for is dealt and the first decision asked.
 */
export function handStored(run: Run, handId: HandId): void {
  const s = run.s;
  const storing = s.storing;
  if (storing === null) throw new Error('no hand waits for its id');
  s.storing = null;
  if (s.policies.handStart === 'controller') s.handsAllowed--;
  s.handNumber++;
  const hand: HandInPlay = {
    id: handId,
    number: s.handNumber,
    engine: storing.engine,
    settings: storing.settings,
    plan: storing.plan,
    order: storing.plan.order,
    accounts: storing.accounts,
    names: storing.names,
    fair: storing.fair,
    startedAt: run.now,
    clock: null,
    recordSeq: 0,
    announced: 0,
    bankFrom: null,
    runTwice: null,
  };
  playHand(run, hand);
  commit(run, null, null);
}

/**
 * The hand is the table's hand in play: its first message (its commitment and contributions, and the
 * next hand's commitment), every event so far, then the snapshot that shows it (it stands after them).
 */
export function playHand(run: Run, hand: HandInPlay): void {
  const s = run.s;
  s.hand = hand;
  s.handTimes.push(run.now);
  const next = s.fair!;
  broadcast(run, (seq) => ({ type: 'hand-start', hand, seq, next }));
  const events = hand.engine.events;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    broadcast(run, (seq) => ({ type: 'table-event', hand, seq, event }));
  }
  hand.announced = events.length;
  broadcastSnapshot(run);
}

// ------------------------------------------------------------------ blinds without auto-post

/**
 * The first blind of `plan` its player must be asked for: he has auto-post off and has not agreed to
 * post it yet (a new or returning player who chose to post has agreed when he chose).
 */
function blindToAsk(s: MachineState, plan: HandPlan): Omit<BlindRequestView, 'deadline'> | null {
  // A tournament's blinds are forced: nobody is asked, nobody declines.
  if (s.policies.chips === 'controller') return null;
  for (const [position, seatNumber] of plan.order.entries()) {
    const blind = plan.blinds[position] ?? 0;
    const dead = plan.deadBlinds[position] ?? 0;
    if (blind + dead === 0) continue;
    const seat = s.seats[seatNumber]!;
    const owes = !seat.paid || seat.missedSmall || seat.missedBig;
    if (seat.autoPost || s.consented.has(seatNumber) || (owes && seat.postChoice === 'post')) continue;
    return { seat: seatNumber, blind, dead };
  }
  return null;
}

/** Waits for the player's answer, for as long as a betting decision may take. */
function askBlind(run: Run, request: Omit<BlindRequestView, 'deadline'>): void {
  const ms = run.s.settings.clocks.actionMs;
  run.s.blindRequest = { ...request, deadline: run.now + ms };
  timer(run, 'blind', ms);
  broadcastSnapshot(run);
}

function endBlindRequest(run: Run): void {
  timer(run, 'blind', null);
  run.s.blindRequest = null;
}

/**
 * Post: he is not asked again for this hand; decline: he sits out (and is marked for the blind he
 * misses). Either way the hand is planned anew.
 */
export function settleBlind(run: Run, seat: SeatState, post: boolean): void {
  endBlindRequest(run);
  if (post) run.s.consented.add(seat.seat);
  else seat.sittingOut = true;
  broadcastSnapshot(run);
  startHand(run);
}

/** The table was waiting for this seat's blind and he went (left, sat out) or agreed: plan again now. */
export function planAgainIfAsked(run: Run, seat: number): void {
  if (run.s.blindRequest?.seat !== seat) return;
  endBlindRequest(run);
  startHand(run);
}

// ------------------------------------------------------------------ actions

/** Chip moves (seat → pot positive, returns negative) of these events, per account. */
function moves(events: readonly HandEvent[], accounts: readonly AccountId[]): ChipMove[] {
  const sums = new Map<AccountId, number>();
  const add = (p: number, amount: number): void => {
    const account = accounts[p]!;
    sums.set(account, (sums.get(account) ?? 0) + amount);
  };
  for (const event of events) {
    switch (event.type) {
      case 'post':
      case 'call':
      case 'bring-in':
      case 'bet-raise':
        add(event.player, event.amount);
        break;
      case 'return':
        add(event.player, -event.amount);
        break;
      default:
        break;
    }
  }
  return [...sums].filter(([, amount]) => amount !== 0).map(([userId, amount]) => ({ userId, amount }));
}

/**
 * Applies `action` (null: none, just move on), deals what the hand waits for, makes it all durable
 * (record-action, with the settlement when the hand ends), THEN announces it, then starts the next
 * clock or finishes the hand. Players to act who are leaving fold at once.
 */
export function commit(run: Run, action: HandAction | null, account: AccountId | null): void {
  const hand = run.s.hand!;
  const engine = hand.engine;
  const from = hand.announced;
  const offer = advance(run.s, hand, action);
  const fresh = engine.events.slice(from);
  // The action that ends the hand is recorded and settled in one transaction: one commit.
  const settlement = engine.isDone ? settle(hand) : undefined;
  persist(run, {
    kind: 'record-action',
    record: {
      handId: hand.id,
      seq: hand.recordSeq++,
      action: JSON.stringify({ by: account, action, events: fresh.length }),
      // The forced bets were stored with the hand (`announced` starts after them).
      moves: moves(fresh, hand.accounts),
      ...(settlement === undefined ? {} : { settlement }),
    },
  });
  // Durable: announce.
  for (const event of fresh) broadcast(run, (seq) => ({ type: 'table-event', hand, seq, event }));
  hand.announced = engine.events.length;
  if (settlement !== undefined) afterHand(run, settlement.fairRevealAfterMs);
  else if (offer) offerRunTwice(run, hand);
  else nextDecision(run);
}

/**
 * Applies `action` (null: none) to the hand, then what the hand waits for from the table: the deals
 * (all-in: the hands turned up first, then run it twice asked when offered), and at the showdown each
 * hand shown or mucked. True: it stopped to offer run it twice.
 */
export function advance(s: MachineState, hand: HandInPlay, action: HandAction | null): boolean {
  const engine = hand.engine;
  if (action !== null) {
    const applied = engine.apply(action);
    if (!applied.ok) throw new Error(`engine refused a verified action: ${applied.error.message}`);
  }
  for (let phase = engine.phase; phase === 'deal' || phase === 'showdown'; phase = engine.phase) {
    const exposure = phase === 'deal' ? engine.nextExposure() : null;
    if (phase === 'deal' && exposure === null && runTwiceDue(s, hand)) return true;
    const move = phase === 'deal' ? (exposure ?? ({ type: 'deal' } as const)) : showdownMove(s, hand);
    const applied = engine.apply(move);
    if (!applied.ok) throw new Error(`${move.type} refused: ${applied.error.message}`);
  }
  return false;
}

/**
 * The next hand at the showdown (in showdown order) is shown, or mucked when a shown hand already
 * beats it and its player mucks losing hands (a player who left is taken to). The last player in a
 * pot always shows: he wins it.
 */
function showdownMove(s: MachineState, hand: HandInPlay): HandAction {
  const engine = hand.engine;
  const p = engine.showdownPending()[0]!;
  const seat = s.seats[hand.order[p]!];
  const mucksLosing =
    seat === null || seat === undefined || seat.account !== hand.accounts[p] || seat.muckLosing;
  const muck: HandAction = { type: 'muck', player: p };
  return mucksLosing && !engine.canWinShowdown(p) && engine.can(muck) ? muck : { type: 'show', player: p };
}

/** The hand waits for a player: fold for a leaver, else start his clock. */
export function nextDecision(run: Run): void {
  const hand = run.s.hand!;
  const p = hand.engine.actor;
  if (p === null) throw new Error(`hand stuck in phase ${hand.engine.phase}`);
  const seat = run.s.seats[hand.order[p]!];
  if (seat === null || seat === undefined || seat.account !== hand.accounts[p] || seat.leaving) {
    forcedMove(run, p, 'leave', false);
    return;
  }
  startClock(run);
}

function startClock(run: Run): void {
  const s = run.s;
  const hand = s.hand!;
  const p = hand.engine.actor!;
  const seat = hand.order[p]!;
  const ms = hand.engine.phase === 'draw' ? s.settings.clocks.drawMs : s.settings.clocks.actionMs;
  const deadline = run.now + ms;
  hand.clock = { seat, deadline, bank: false };
  hand.bankFrom = null;
  startDecisionTimer(run, hand.id, p, ms);
  const timeBankMs = s.seats[seat]?.timeBankMs ?? 0;
  broadcast(run, (seq) => ({ type: 'clock', hand, seq, seat, deadline, timeBankMs }));
  const legal = hand.engine.legalActions();
  if (legal) announceAside(run, { type: 'legal-actions', hand, seq: s.stream, seat, legal });
}

function startDecisionTimer(run: Run, handId: HandId, player: number, ms: number): void {
  run.s.decisionFor = { handId, player };
  timer(run, 'decision', ms);
}

/** Stops the actor's clock; `charge`: take the time-bank time he used. */
export function stopClock(run: Run, charge: boolean): void {
  const s = run.s;
  const hand = s.hand;
  if (!hand) return;
  timer(run, 'decision', null);
  s.decisionFor = null;
  if (charge && hand.clock && hand.bankFrom !== null) {
    const seat = s.seats[hand.clock.seat];
    if (seat) seat.timeBankMs = Math.max(0, seat.timeBankMs - (run.now - hand.bankFrom));
  }
  hand.bankFrom = null;
  hand.clock = null;
}

/**
 * The decision clock armed for `armed` ran out: the time bank starts, or the table moves for him.
 * `allInLeft`: the actor has an artificial all-in left (the room's counter, read by the actor).
 */
export function decisionTimeUp(
  run: Run,
  armed: { readonly handId: HandId; readonly player: number } | null,
  allInLeft: boolean,
): void {
  const s = run.s;
  const hand = s.hand;
  if (s.closed || !hand || armed === null || s.decisionFor !== armed) return;
  const p = armed.player;
  if (hand.id !== armed.handId || hand.engine.actor !== p || !hand.clock) return;
  s.decisionFor = null;
  const seat = s.seats[hand.clock.seat] ?? null;
  const connected = seat !== null && isConnected(s, seat.account);
  // A tournament player away is folded only after his time bank too: he may be coming back.
  const banks = connected || s.policies.chips === 'controller';
  if (!hand.clock.bank && seat !== null && banks && seat.timeBankMs > 0) {
    // The action clock ran out: the time bank starts.
    const clockSeat = hand.clock.seat;
    const deadline = run.now + seat.timeBankMs;
    hand.clock = { seat: clockSeat, deadline, bank: true };
    hand.bankFrom = run.now;
    startDecisionTimer(run, hand.id, p, seat.timeBankMs);
    const timeBankMs = seat.timeBankMs;
    // Told as the action clock's end (now) with the bank left: the bank counts from here.
    broadcast(run, (seq) => ({ type: 'clock', hand, seq, seat: clockSeat, deadline: run.now, timeBankMs }));
    return;
  }
  if (seat && hand.clock.bank) seat.timeBankMs = 0;
  stopClock(run, false);
  forcedMove(run, p, connected ? 'timeout' : 'disconnected', allInLeft);
}

/**
 * A move the table makes for player `p`: time-out (check if free, else fold; draw: stand pat,
 * timed out; split: decline; bring-in: posted), disconnected (the same, or an artificial all-in in
 * fixed/spread limit real-money games with chips in the pot and allowance left), leave (fold).
 */
export function forcedMove(
  run: Run,
  p: number,
  why: 'timeout' | 'disconnected' | 'leave',
  allInLeft: boolean,
): void {
  const s = run.s;
  const hand = s.hand!;
  const engine = hand.engine;
  stopClock(run, false);
  const legal = engine.legalActions();
  if (!legal) throw new Error('forced move without a decision');
  let action: HandAction;
  if (engine.phase === 'draw') action = { type: 'discard', player: p, cards: [], timedOut: why !== 'leave' };
  else if (engine.phase === 'split') action = { type: 'split', player: p, accept: false };
  else if (legal.bringIn !== null) action = { type: 'bring-in', player: p };
  else if (why === 'leave') action = { type: 'fold', player: p };
  else {
    const limitGame = hand.settings.limitGame;
    const committed = engine.snapshot().players[p]!.committed;
    const artificial =
      why === 'disconnected' &&
      limitGame &&
      hand.settings.config.currency === 'real' &&
      committed > 0 &&
      allInLeft;
    if (artificial) persist(run, { kind: 'all-in', account: hand.accounts[p]! });
    if (artificial || !(limitGame && committed > 0)) action = { type: 'timeout', player: p };
    else action = { type: 'check-call', player: p };
    if (action.type === 'check-call' && !legal.check) action = { type: 'fold', player: p };
  }
  commit(run, action, null);
}

/** The finished hand's settlement: awards, rake, history (full and as each account dealt in may see it). */
function settle(hand: HandInPlay): Settlement & { readonly fairRevealAfterMs: number } {
  const awards = new Map<AccountId, number>();
  let rake = 0;
  for (const event of hand.engine.events) {
    if (event.type === 'award') {
      const account = hand.accounts[event.player]!;
      awards.set(account, (awards.get(account) ?? 0) + event.amount);
    } else if (event.type === 'rake') rake += event.amount;
  }
  return {
    awards: [...awards].map(([userId, amount]) => ({ userId, amount })),
    rake,
    history: {
      phh: historyPhh(hand, 'all'),
      views: hand.accounts.map((userId) => ({ userId, phh: historyPhh(hand, userId) })),
    },
    fairRevealAfterMs: fairRevealDelayMs(hand),
  };
}

/**
 * After the settlement: stacks, time banks, the recap (its secret revealed when the settlement's
 * `fairRevealAfterMs` is 0), leavers taken out, the next hand scheduled.
 */
function afterHand(run: Run, fairRevealAfterMs: number): void {
  const s = run.s;
  const hand = s.hand!;
  const finishing = hand.engine.finishingStacks() ?? [];
  let pot = 0;
  for (const event of hand.engine.events)
    if (event.type === 'award' || event.type === 'rake') pot += event.amount;
  s.pots.push(pot);
  s.potSum += pot;
  if (s.pots.length > STATS_HANDS) s.potSum -= s.pots.shift()!;
  const leavers: SeatState[] = [];
  const busted: SeatState[] = [];
  const clocks = s.settings.clocks;
  hand.accounts.forEach((account, p) => {
    const seat = seatOf(s, account);
    if (!seat) return;
    seat.stack = finishing[p] ?? seat.stack;
    seat.timeBankMs = Math.min(clocks.timeBankMs, seat.timeBankMs + clocks.timeBankRefillMs);
    if (seat.leaving) leavers.push(seat);
    else if (seat.stack === 0 && s.policies.chips === 'controller') busted.push(seat);
  });
  s.recap = buildRecap(hand, fairRevealAfterMs);
  s.hand = null;
  const recap = s.recap;
  broadcast(run, (seq) => ({ type: 'hand-summary', seq, recap }));
  for (const seat of leavers) releaseSeat(run, seat);
  broadcastSnapshot(run);
  const stud = hand.settings.variant.forced === 'bring-in';
  tell(run, {
    type: 'hand-finished',
    handId: hand.id,
    number: hand.number,
    positions: stud
      ? null
      : { button: hand.plan.button, smallBlind: hand.plan.smallBlindSeat, bigBlind: hand.plan.bigBlindSeat },
    players: hand.accounts.map((account, p) => ({
      account,
      seat: hand.order[p]!,
      startingStack: hand.engine.config.stacks[p]!,
      finishingStack: finishing[p] ?? hand.engine.config.stacks[p]!,
    })),
  });
  for (const seat of busted) tell(run, { type: 'busted', account: seat.account, seat: seat.seat });
  scheduleHand(run);
}

/** The player leaves his seat with his chips: cashed out (ledger) or handed out to the controller. */
export function releaseSeat(run: Run, seat: SeatState): void {
  const s = run.s;
  if (s.policies.chips === 'ledger') persist(run, { kind: 'cash-out', account: seat.account });
  else {
    persist(run, { kind: 'stack-out', account: seat.account, stack: seat.stack });
    tell(run, { type: 'left', account: seat.account, seat: seat.seat, stack: seat.stack });
  }
  s.seats[seat.seat] = null;
  broadcastSnapshot(run);
}
