/**
 * The table actor: one mailbox (a promise chain: one command at a time, also across `await`), its own
 * clock and random source, seats, button and blinds, the hand in progress, and the per-viewer output.
 * Nothing here is shared with another table. See ./types.ts for the API and docs/tables.md for the rules.
 */
import { Hand, parseCard, type Card, type HandAction, type HandConfig, type HandEvent } from '@felt/engine';
import type { ChipMove, Settlement } from '../storage/types.js';
import { memoryAllInCounter } from './allin.js';
import { resolveTable, type ResolvedTable } from './config.js';
import { buildRecap, historyPhh } from './history.js';
import { planButtonHand, planStudHand, type HandPlan, type SeatPicture } from './seating.js';
import {
  TableErrorCode,
  type AccountId,
  type AllInCounter,
  type BlindRequestView,
  type CommandResult,
  type HandRecap,
  type PlayerAction,
  type PlayerRef,
  type TableCommand,
  type TableConfig,
  type TableDeps,
  type TableMessage,
  type TableSink,
  type TableSummary,
  type TableView,
  type Table,
  type TableTimer,
} from './types.js';
import {
  recapFor,
  sameForEveryViewer,
  viewFor,
  type FullMessage,
  type HandState,
  type SeatState,
  type TableState,
} from './view.js';

const OK: CommandResult = { ok: true };
const refuse = (code: TableErrorCode, message: string): CommandResult => ({
  ok: false,
  error: { code, message },
});

interface Subscriber {
  readonly viewer: AccountId | null;
  readonly sink: TableSink;
}

/** Per-hand bookkeeping beyond the view state. */
interface HandExtra {
  readonly plan: HandPlan;
  readonly blinds: readonly number[];
  readonly deadBlinds: readonly number[];
  /** Next `recordAction` sequence number. */
  seq: number;
  /** Events already announced. */
  announced: number;
  /** When the actor started using his time bank (clock ms), or null. */
  bankFrom: number | null;
}

const STATS_HANDS = 50;
const HOUR_MS = 3_600_000;

export function createTable(config: TableConfig, deps: TableDeps): Table {
  return new TableActor(config, deps);
}

class TableActor implements Table {
  readonly id: string;
  readonly config: TableConfig;
  private readonly table: ResolvedTable;
  private readonly deps: TableDeps;
  private readonly allIns: AllInCounter;
  private chain: Promise<unknown> = Promise.resolve();
  private pendingJobs = 0;
  private closed = false;
  private readonly seats: (SeatState | null)[];
  private readonly presence = new Map<AccountId, number>();
  private readonly subscribers = new Set<Subscriber>();
  private button: number | null = null;
  private hand: HandState | null = null;
  private extra: HandExtra | null = null;
  private handNumber = 0;
  private readonly nextHandTimer: TableTimer;
  /** The actor's clock: his action time, then his time bank; for hand `clockHand`, player `clockPlayer`. */
  private readonly decisionTimer: TableTimer;
  private clockHand = 0;
  private clockPlayer = 0;
  /** Between hands: the blind the table waits for a player without auto-post to post, and his clock. */
  private blindRequest: BlindRequestView | null = null;
  private readonly blindTimer: TableTimer;
  /** Seats that agreed to post their blind in the hand being planned (cleared when it starts or cannot). */
  private readonly consented = new Set<number>();
  private recap: HandRecap | null = null;
  private readonly pots: number[] = [];
  /** Start times of the hands of the last hour, oldest first (the lobby's hands per hour). */
  private readonly handTimes: number[] = [];
  private potSum = 0;

  constructor(config: TableConfig, deps: TableDeps) {
    this.id = config.id;
    this.config = config;
    this.table = resolveTable(config);
    this.deps = deps;
    this.allIns = deps.allIns ?? memoryAllInCounter(this.table.allInsPerDay);
    this.seats = Array.from({ length: this.table.seatCount }, () => null);
    this.nextHandTimer = deps.clock.timer(() => {
      void this.enqueue(() => this.startHand(), undefined);
    });
    this.decisionTimer = deps.clock.timer(() => {
      const handId = this.clockHand;
      const p = this.clockPlayer;
      void this.enqueue(() => this.onClock(handId, p), undefined);
    });
    this.blindTimer = deps.clock.timer(() => {
      const request = this.blindRequest;
      void this.enqueue(() => this.onBlindClock(request), undefined);
    });
  }

  // ------------------------------------------------------------------ mailbox

  private enqueue<T>(job: () => Promise<T> | T, fallback: T): Promise<T> {
    this.pendingJobs++;
    const run = this.chain.then(async () => {
      try {
        return await job();
      } catch (error) {
        this.fail(error);
        return fallback;
      } finally {
        this.pendingJobs--;
      }
    });
    this.chain = run;
    return run;
  }

  /** A bug or a storage failure: the table stops (crash rule: storage refunds the hand on restart). */
  private fail(error: unknown): void {
    this.closed = true;
    this.clearTimers();
    if (this.deps.onError) this.deps.onError(error);
    else console.error(`table ${this.id}:`, error);
  }

  async idle(): Promise<void> {
    while (this.pendingJobs > 0) await this.chain;
  }

  async dispose(): Promise<void> {
    this.closed = true;
    this.clearTimers();
    await this.idle();
    this.subscribers.clear();
  }

  private clearTimers(): void {
    this.nextHandTimer.stop();
    this.decisionTimer.stop();
    this.blindTimer.stop();
  }

  // ------------------------------------------------------------------ public API

  handle(player: PlayerRef, command: TableCommand): Promise<CommandResult> {
    if (this.closed) return Promise.resolve(refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed'));
    return this.enqueue(
      () =>
        this.closed ? refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed') : this.run(player, command),
      refuse(TableErrorCode.INTERNAL, 'the table failed'),
    );
  }

  subscribe(viewer: AccountId | null, sink: TableSink): () => void {
    const subscriber: Subscriber = { viewer, sink };
    this.subscribers.add(subscriber);
    if (viewer !== null) this.presence.set(viewer, (this.presence.get(viewer) ?? 0) + 1);
    void this.enqueue(() => {
      if (!this.subscribers.has(subscriber)) return;
      // A seated player (re)connecting: everybody learns it; he gets the full view either way.
      if (viewer !== null && this.seatOf(viewer) !== null) this.broadcast({ type: 'table-snapshot' });
      else this.deliver(subscriber, { type: 'table-snapshot' });
      const hand = this.hand;
      if (hand?.clock) {
        const seat = hand.clock.seat;
        const legal = hand.hand.legalActions();
        this.deliver(subscriber, this.clockMessage(hand, seat));
        if (legal) this.deliver(subscriber, { type: 'legal-actions', hand, seat, legal });
      }
      this.scheduleHand();
    }, undefined);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.subscribers.delete(subscriber);
      if (viewer === null) return;
      const left = (this.presence.get(viewer) ?? 1) - 1;
      if (left > 0) this.presence.set(viewer, left);
      else this.presence.delete(viewer);
      if (left <= 0 && this.seatOf(viewer) !== null && !this.closed)
        void this.enqueue(() => {
          this.broadcast({ type: 'table-snapshot' });
        }, undefined);
    };
  }

  summary(): TableSummary {
    const seated = this.seats.filter((s) => s !== null).length;
    const now = this.deps.clock.now();
    const ready = this.seats.filter((s) => s !== null && this.isReady(s)).length;
    return {
      id: this.id,
      name: this.config.name,
      game: this.config.game,
      structure: this.config.structure,
      stakes: this.config.stakes,
      currency: this.config.currency,
      seatCount: this.table.seatCount,
      seated,
      free: this.table.seatCount - seated,
      minBuyIn: this.table.minBuyIn,
      maxBuyIn: this.table.maxBuyIn,
      averagePot: this.pots.length === 0 ? 0 : Math.round(this.potSum / this.pots.length),
      handsPerHour: this.handsWithin(now),
      playing: this.hand !== null || ready >= 2,
    };
  }

  /** Hands started within the hour before `now` (forgetting older ones: the lobby asks every second). */
  private handsWithin(now: number): number {
    while (this.handTimes.length > 0 && now - this.handTimes[0]! >= HOUR_MS) this.handTimes.shift();
    return this.handTimes.length;
  }

  view(viewer: AccountId | null): TableView {
    const message = viewFor(this.state(), viewer === null ? null : this.seatOf(viewer));
    if (message?.type !== 'table-snapshot') throw new Error('unreachable');
    return message.view;
  }

  lastSummary(viewer: AccountId | null): HandRecap | null {
    if (this.recap === null) return null;
    const position = viewer === null ? -1 : this.recap.players.findIndex((p) => p.account === viewer);
    return recapFor(this.recap, position < 0 ? null : this.recap.players[position]!.seat, true);
  }

  // ------------------------------------------------------------------ state and output

  private state(): TableState {
    return {
      id: this.id,
      table: this.table,
      clocks: this.table.clocks,
      button: this.button,
      seats: this.seats,
      connected: (account) => this.isConnected(account),
      hand: this.hand,
      blindRequest: this.blindRequest,
    };
  }

  private isConnected(account: AccountId): boolean {
    return (this.presence.get(account) ?? 0) > 0;
  }

  private seatOf(account: AccountId): number | null {
    const seat = this.seats.find((s) => s !== null && s.account === account);
    return seat ? seat.seat : null;
  }

  private seatState(account: AccountId): SeatState | null {
    return this.seats.find((s): s is SeatState => s !== null && s.account === account) ?? null;
  }

  /** The seat a viewer sees from: his seat, or his seat in the hand in progress (left but still in it). */
  private viewerSeat(viewer: AccountId | null): number | null {
    if (viewer === null) return null;
    const seat = this.seatOf(viewer);
    if (seat !== null) return seat;
    const p = this.hand?.accounts.indexOf(viewer) ?? -1;
    return p >= 0 ? (this.hand!.order[p] ?? null) : null;
  }

  private deliver(subscriber: Subscriber, message: FullMessage, state = this.state()): void {
    const out = viewFor(state, this.viewerSeat(subscriber.viewer), message);
    if (out === null) return;
    try {
      subscriber.sink(out);
    } catch {
      // a sink must not break the table
    }
  }

  /**
   * Sends a message to every subscriber, filtered for each by `viewFor`; one view per distinct seat, or
   * one for all when the view is the same for every seat (the transport serialises each view once).
   */
  private broadcast(message: FullMessage): void {
    const state = this.state();
    const cache = new Map<number | null, TableMessage | null>();
    const shared = sameForEveryViewer(message);
    for (const subscriber of [...this.subscribers]) {
      const seat = shared ? null : this.viewerSeat(subscriber.viewer);
      if (!cache.has(seat)) cache.set(seat, viewFor(state, seat, message));
      const out = cache.get(seat) ?? null;
      if (out === null) continue;
      try {
        subscriber.sink(out);
      } catch {
        // a sink must not break the table
      }
    }
  }

  private clockMessage(hand: HandState, seat: number): FullMessage {
    const s = this.seats[seat];
    return {
      type: 'clock',
      hand,
      seat,
      deadline: hand.clock?.deadline ?? this.deps.clock.now(),
      timeBankMs: s?.timeBankMs ?? 0,
    };
  }

  // ------------------------------------------------------------------ commands

  private async run(player: PlayerRef, command: TableCommand): Promise<CommandResult> {
    switch (command.type) {
      case 'sit':
        return this.sit(player, command);
      case 'leave':
        return this.leave(player.account);
      case 'sit-out': {
        const seat = this.seatState(player.account);
        if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
        seat.sittingOut = true;
        this.broadcast({ type: 'table-snapshot' });
        await this.planAgainIfAsked(seat.seat);
        return OK;
      }
      case 'sit-in': {
        const seat = this.seatState(player.account);
        if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
        if (seat.leaving) return refuse(TableErrorCode.WRONG_STATE, 'leaving the table');
        seat.sittingOut = false;
        seat.postChoice = command.post ?? 'wait';
        this.broadcast({ type: 'table-snapshot' });
        this.scheduleHand();
        return OK;
      }
      case 'auto-post':
      case 'muck-losing': {
        const seat = this.seatState(player.account);
        if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
        if (command.type === 'auto-post') seat.autoPost = command.on;
        else seat.muckLosing = command.on;
        this.broadcast({ type: 'table-snapshot' });
        // Auto-post switched on while the table asks him: that is his answer.
        if (seat.autoPost) await this.planAgainIfAsked(seat.seat);
        return OK;
      }
      case 'post-blind':
        return this.answerBlind(player.account, command.post);
      case 'top-up':
        return this.topUp(player.account, command.amount);
      case 'act':
        return this.act(player.account, command.action, command.handId);
    }
  }

  private async sit(
    player: PlayerRef,
    command: Extract<TableCommand, { type: 'sit' }>,
  ): Promise<CommandResult> {
    const { seat, buyIn } = command;
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.table.seatCount)
      return refuse(TableErrorCode.SEAT_TAKEN, `no seat ${seat} at this table`);
    if (this.seatOf(player.account) !== null || this.hand?.accounts.includes(player.account) === true)
      return refuse(TableErrorCode.ALREADY_SEATED, 'one seat per account per table');
    if (this.seats[seat] !== null) return refuse(TableErrorCode.SEAT_TAKEN, `seat ${seat} is taken`);
    if (
      !Number.isSafeInteger(buyIn) ||
      buyIn < this.table.minBuyIn ||
      (this.table.maxBuyIn !== null && buyIn > this.table.maxBuyIn)
    )
      return refuse(
        TableErrorCode.BAD_BUY_IN,
        `buy-in from ${this.table.minBuyIn} to ${this.table.maxBuyIn ?? 'any amount'}`,
      );
    const paid = await this.deps.storage.buyIn(this.id, player.account, this.config.currency, buyIn);
    if (!paid.ok)
      return refuse(
        paid.error.code === 'INSUFFICIENT_FUNDS'
          ? TableErrorCode.INSUFFICIENT_FUNDS
          : TableErrorCode.BAD_BUY_IN,
        paid.error.message,
      );
    const stud = this.table.variant.forced === 'bring-in';
    this.seats[seat] = {
      seat,
      account: player.account,
      name: player.name,
      stack: buyIn,
      sittingOut: false,
      leaving: false,
      paid: stud,
      missedSmall: false,
      missedBig: false,
      postChoice: command.post ?? 'wait',
      autoPost: command.autoPost ?? true,
      muckLosing: command.muckLosing ?? true,
      timeBankMs: this.table.clocks.timeBankMs,
    };
    this.broadcast({ type: 'table-snapshot' });
    this.scheduleHand();
    return OK;
  }

  private async leave(account: AccountId): Promise<CommandResult> {
    const seat = this.seatState(account);
    if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
    const hand = this.hand;
    const p = hand ? hand.accounts.indexOf(account) : -1;
    if (hand && p >= 0) {
      const player = hand.hand.snapshot().players[p]!;
      if (!player.folded && !hand.hand.isDone) {
        // In the hand: his hand is folded when his turn comes; he leaves when the hand is over.
        seat.leaving = true;
        seat.sittingOut = true;
        this.broadcast({ type: 'table-snapshot' });
        if (hand.hand.actor === p) await this.forcedMove(p, 'leave');
        return OK;
      }
    }
    await this.cashOut(seat);
    await this.planAgainIfAsked(seat.seat);
    return OK;
  }

  private async cashOut(seat: SeatState): Promise<void> {
    const result = await this.deps.storage.cashOut(this.id, seat.account, this.config.currency);
    if (!result.ok) throw new Error(`cash-out refused: ${result.error.message}`);
    this.seats[seat.seat] = null;
    this.broadcast({ type: 'table-snapshot' });
  }

  private async topUp(account: AccountId, amount: number): Promise<CommandResult> {
    const seat = this.seatState(account);
    if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
    if (this.hand?.accounts.includes(account) === true)
      return refuse(TableErrorCode.WRONG_STATE, 'chips are added between hands (table stakes)');
    if (
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      (this.table.maxBuyIn !== null && seat.stack + amount > this.table.maxBuyIn)
    )
      return refuse(TableErrorCode.BAD_BUY_IN, 'top-up beyond the maximum buy-in');
    const paid = await this.deps.storage.buyIn(this.id, account, this.config.currency, amount);
    if (!paid.ok)
      return refuse(
        paid.error.code === 'INSUFFICIENT_FUNDS'
          ? TableErrorCode.INSUFFICIENT_FUNDS
          : TableErrorCode.BAD_BUY_IN,
        paid.error.message,
      );
    seat.stack += amount;
    this.broadcast({ type: 'table-snapshot' });
    this.scheduleHand();
    return OK;
  }

  private async act(
    account: AccountId,
    action: PlayerAction,
    handId: number | undefined,
  ): Promise<CommandResult> {
    const hand = this.hand;
    if (!hand || hand.hand.isDone) return refuse(TableErrorCode.NO_SUCH_HAND, 'no hand in progress');
    if (handId !== undefined && handId !== hand.id)
      return refuse(TableErrorCode.NO_SUCH_HAND, 'not the hand in progress');
    const p = hand.accounts.indexOf(account);
    if (p < 0) return refuse(TableErrorCode.NOT_SEATED, 'not in this hand');
    if (hand.hand.actor !== p) return refuse(TableErrorCode.NOT_YOUR_TURN, 'not your turn');
    const legal = hand.hand.legalActions();
    let engineAction: HandAction;
    switch (action.type) {
      case 'fold':
        engineAction = { type: 'fold', player: p };
        break;
      case 'check':
        if (legal?.check !== true) return refuse(TableErrorCode.ILLEGAL_ACTION, 'cannot check facing a bet');
        engineAction = { type: 'check-call', player: p };
        break;
      case 'call':
        engineAction = { type: 'check-call', player: p };
        break;
      case 'bet-raise':
        engineAction = { type: 'bet-raise', player: p, to: action.to };
        break;
      case 'bring-in':
        engineAction = { type: 'bring-in', player: p };
        break;
      case 'split':
        engineAction = { type: 'split', player: p, accept: action.accept };
        break;
      case 'discard': {
        const cards: Card[] = [];
        for (const t of action.cards) {
          const parsed = parseCard(t);
          if (!parsed.ok) return refuse(TableErrorCode.BAD_CARDS, `not a card: ${JSON.stringify(t)}`);
          cards.push(parsed.value);
        }
        engineAction = { type: 'discard', player: p, cards };
        break;
      }
    }
    const verdict = hand.hand.verify(engineAction);
    if (!verdict.ok) {
      const code =
        verdict.error.code === 'BAD_AMOUNT'
          ? TableErrorCode.BAD_AMOUNT
          : verdict.error.code === 'BAD_CARDS'
            ? TableErrorCode.BAD_CARDS
            : verdict.error.code === 'NOT_YOUR_TURN'
              ? TableErrorCode.NOT_YOUR_TURN
              : TableErrorCode.ILLEGAL_ACTION;
      return refuse(code, verdict.error.message);
    }
    this.stopClock(true);
    await this.commit(engineAction, account);
    return OK;
  }

  // ------------------------------------------------------------------ hands

  private isReady(seat: SeatState): boolean {
    return !seat.sittingOut && !seat.leaving && seat.stack > 0 && this.isConnected(seat.account);
  }

  /** Starts the next hand after the pause between hands, unless one runs, is due or waits for a blind. */
  private scheduleHand(): void {
    if (this.closed || this.hand !== null || this.blindRequest !== null || this.nextHandTimer.running) return;
    this.nextHandTimer.start(this.table.clocks.betweenHandsMs);
  }

  private async startHand(): Promise<void> {
    if (this.closed || this.hand !== null) return;
    const pictures: SeatPicture[] = [];
    for (const s of this.seats) {
      if (s === null) continue;
      pictures.push({
        seat: s.seat,
        ready: this.isReady(s),
        paid: s.paid,
        missedSmall: s.missedSmall,
        missedBig: s.missedBig,
        wantsToPost: s.postChoice === 'post',
      });
    }
    const stud = this.table.variant.forced === 'bring-in';
    const plan = stud
      ? planStudHand(pictures, this.table.seatCount, this.button)
      : planButtonHand(
          pictures,
          this.table.seatCount,
          this.button,
          this.table.smallBlind,
          this.table.bigBlind,
        );
    if (!plan) {
      this.consented.clear();
      return; // a seat change or a reconnection schedules the next try
    }
    if (!stud) {
      const request = this.blindToAsk(plan);
      if (request !== null) {
        this.askBlind(request);
        return;
      }
    }
    this.consented.clear();
    for (const seat of plan.missedSmall) this.seats[seat]!.missedSmall = true;
    for (const seat of plan.missedBig) this.seats[seat]!.missedBig = true;
    for (const seat of plan.nowPaid) {
      const s = this.seats[seat]!;
      s.paid = true;
      s.missedSmall = false;
      s.missedBig = false;
    }
    this.button = plan.button;
    const seatsInHand = plan.order.map((seat) => this.seats[seat]!);
    const config: HandConfig = {
      ...this.table.engine,
      stacks: seatsInHand.map((s) => s.stack),
      ...(stud
        ? { antes: this.table.ante }
        : {
            blinds: plan.blinds,
            ...(plan.deadBlinds.some((d) => d > 0) ? { deadBlinds: plan.deadBlinds } : {}),
          }),
    };
    const created = Hand.create(config, this.deps.random);
    if (!created.ok) throw new Error(`hand refused by the engine: ${created.error.message}`);
    const engineHand = created.value;
    const posts = this.moves(
      engineHand.events,
      seatsInHand.map((s) => s.account),
    );
    const description = `${this.table.variant.name} ${this.config.structure} ${this.config.stakes.small}/${this.config.stakes.big}`;
    const started = await this.deps.storage.startHand({
      tableId: this.id,
      currency: this.config.currency,
      description,
      participants: plan.order.map((seat, position) => ({
        userId: this.seats[seat]!.account,
        seat,
        position,
      })),
      posts,
    });
    if (!started.ok) throw new Error(`storage refused the hand: ${started.error.message}`);
    this.handNumber++;
    this.hand = {
      id: started.value,
      number: this.handNumber,
      hand: engineHand,
      order: plan.order,
      accounts: seatsInHand.map((s) => s.account),
      names: seatsInHand.map((s) => s.name),
      startedAt: this.deps.clock.now(),
      clock: null,
    };
    this.extra = {
      plan,
      blinds: plan.blinds,
      deadBlinds: plan.deadBlinds,
      seq: 0,
      announced: 0,
      bankFrom: null,
    };
    this.handTimes.push(this.deps.clock.now());
    this.broadcast({ type: 'table-snapshot' });
    // The posts are durable with the hand; deal what the hand waits for, then the first decision.
    await this.commit(null, null);
  }

  // ------------------------------------------------------------------ blinds without auto-post

  /**
   * The first blind of `plan` its player must be asked for: he has auto-post off and has not agreed to
   * post it yet (a new or returning player who chose to post has agreed when he chose).
   */
  private blindToAsk(plan: HandPlan): Omit<BlindRequestView, 'deadline'> | null {
    for (const [position, seatNumber] of plan.order.entries()) {
      const blind = plan.blinds[position] ?? 0;
      const dead = plan.deadBlinds[position] ?? 0;
      if (blind + dead === 0) continue;
      const seat = this.seats[seatNumber]!;
      const owes = !seat.paid || seat.missedSmall || seat.missedBig;
      if (seat.autoPost || this.consented.has(seatNumber) || (owes && seat.postChoice === 'post')) continue;
      return { seat: seatNumber, blind, dead };
    }
    return null;
  }

  /** Waits for the player's answer, for as long as a betting decision may take. */
  private askBlind(request: Omit<BlindRequestView, 'deadline'>): void {
    const ms = this.table.clocks.actionMs;
    this.blindRequest = { ...request, deadline: this.deps.clock.now() + ms };
    this.blindTimer.start(ms);
    this.broadcast({ type: 'table-snapshot' });
  }

  private endBlindRequest(): void {
    this.blindTimer.stop();
    this.blindRequest = null;
  }

  private async answerBlind(account: AccountId, post: boolean): Promise<CommandResult> {
    const seat = this.seatState(account);
    if (!seat) return refuse(TableErrorCode.NOT_SEATED, 'not seated here');
    if (this.blindRequest?.seat !== seat.seat)
      return refuse(TableErrorCode.WRONG_STATE, 'no blind of yours is awaited');
    await this.settleBlind(seat, post);
    return OK;
  }

  /** No answer in time: he declines (the request ends when he leaves, so his seat is still there). */
  private async onBlindClock(request: BlindRequestView | null): Promise<void> {
    if (this.closed || request === null || this.blindRequest !== request) return;
    await this.settleBlind(this.seats[request.seat]!, false);
  }

  /**
   * Post: he is not asked again for this hand; decline: he sits out (and is marked for the blind he
   * misses). Either way the hand is planned anew.
   */
  private async settleBlind(seat: SeatState, post: boolean): Promise<void> {
    this.endBlindRequest();
    if (post) this.consented.add(seat.seat);
    else seat.sittingOut = true;
    this.broadcast({ type: 'table-snapshot' });
    await this.startHand();
  }

  /** The table was waiting for this seat's blind and he went (left, sat out) or agreed: plan again now. */
  private async planAgainIfAsked(seat: number): Promise<void> {
    if (this.blindRequest?.seat !== seat) return;
    this.endBlindRequest();
    await this.startHand();
  }

  /** Chip moves (seat → pot positive, returns negative) of these events, per account. */
  private moves(events: readonly HandEvent[], accounts: readonly AccountId[]): ChipMove[] {
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
   * (recordAction, with the settlement when the hand ends), THEN announces it, then starts the next clock or
   * finishes the hand. Players to act who are leaving fold at once.
   */
  private async commit(action: HandAction | null, account: AccountId | null): Promise<void> {
    const state = this.hand!;
    const extra = this.extra!;
    const hand = state.hand;
    const from = extra.announced;
    if (action !== null) {
      const applied = hand.apply(action);
      if (!applied.ok) throw new Error(`engine refused a verified action: ${applied.error.message}`);
    }
    // What the hand waits for from the table: the deals (all-in: the hands turned up first), and at the
    // showdown each hand shown or mucked.
    for (let phase = hand.phase; phase === 'deal' || phase === 'showdown'; phase = hand.phase) {
      const move =
        phase === 'deal'
          ? (this.allInExposure(state) ?? ({ type: 'deal' } as const))
          : this.showdownMove(state);
      const applied = hand.apply(move);
      if (!applied.ok) throw new Error(`${move.type} refused: ${applied.error.message}`);
    }
    const fresh = hand.events.slice(from);
    // The action that ends the hand is recorded and settled in one transaction: one commit.
    const settlement = hand.isDone ? this.settlement() : undefined;
    const recorded = await this.deps.storage.recordAction({
      handId: state.id,
      seq: extra.seq++,
      action: JSON.stringify({ by: account, action, events: fresh.length }),
      moves: this.moves(
        fresh.filter((e) => from > 0 || e.type !== 'post'),
        state.accounts,
      ),
      ...(settlement === undefined ? {} : { settlement }),
    });
    if (!recorded.ok) throw new Error(`storage refused an action: ${recorded.error.message}`);
    // Durable: announce.
    for (let i = from; i < hand.events.length; i++) {
      this.broadcast({ type: 'table-event', hand: state, seq: i + 1, event: hand.events[i]! });
    }
    extra.announced = hand.events.length;
    if (hand.isDone) {
      await this.afterHand();
      return;
    }
    await this.nextDecision();
  }

  /**
   * The next hand at the showdown (in showdown order) is shown, or mucked when a shown hand already
   * beats it and its player mucks losing hands (a player who left is taken to). The last player in a
   * pot always shows: he wins it.
   */
  private showdownMove(state: HandState): HandAction {
    const hand = state.hand;
    const p = hand.showdownPending()[0]!;
    const seat = this.seats[state.order[p]!];
    const mucksLosing =
      seat === null || seat === undefined || seat.account !== state.accounts[p] || seat.muckLosing;
    const muck: HandAction = { type: 'muck', player: p };
    return mucksLosing && !hand.canWinShowdown(p) && hand.can(muck) ? muck : { type: 'show', player: p };
  }

  /**
   * All-in with no betting left (and no draw to come): as in the big rooms, every hand still in is
   * turned face up before the rest of the cards are dealt (PHH's convention too). The next one to show
   * in showdown order, or null while betting can still happen.
   */
  private allInExposure(state: HandState): HandAction | null {
    for (const p of state.hand.showdownOrder()) {
      const show: HandAction = { type: 'show', player: p };
      if (state.hand.can(show)) return show;
    }
    return null;
  }

  /** The hand waits for a player: fold for a leaver, else start his clock. */
  private async nextDecision(): Promise<void> {
    const state = this.hand!;
    const p = state.hand.actor;
    if (p === null) throw new Error(`hand stuck in phase ${state.hand.phase}`);
    const seat = this.seats[state.order[p]!];
    if (seat === null || seat === undefined || seat.account !== state.accounts[p] || seat.leaving) {
      await this.forcedMove(p, 'leave');
      return;
    }
    this.startClock();
  }

  private startClock(): void {
    const state = this.hand!;
    const extra = this.extra!;
    const p = state.hand.actor!;
    const seat = state.order[p]!;
    const ms = state.hand.phase === 'draw' ? this.table.clocks.drawMs : this.table.clocks.actionMs;
    const deadline = this.deps.clock.now() + ms;
    state.clock = { seat, deadline, bank: false };
    extra.bankFrom = null;
    this.startDecisionTimer(state.id, p, ms);
    this.broadcast(this.clockMessage(state, seat));
    const legal = state.hand.legalActions();
    if (legal) this.broadcast({ type: 'legal-actions', hand: state, seat, legal });
  }

  private startDecisionTimer(handId: number, p: number, ms: number): void {
    this.clockHand = handId;
    this.clockPlayer = p;
    this.decisionTimer.start(ms);
  }

  /** Stops the actor's clock; `charge`: take the time-bank time he used. */
  private stopClock(charge: boolean): void {
    const state = this.hand;
    const extra = this.extra;
    if (!state || !extra) return;
    this.decisionTimer.stop();
    if (charge && state.clock && extra.bankFrom !== null) {
      const seat = this.seats[state.clock.seat];
      if (seat) seat.timeBankMs = Math.max(0, seat.timeBankMs - (this.deps.clock.now() - extra.bankFrom));
    }
    extra.bankFrom = null;
    state.clock = null;
  }

  private async onClock(handId: number, p: number): Promise<void> {
    const state = this.hand;
    const extra = this.extra;
    if (this.closed || !state || !extra || state.id !== handId || state.hand.actor !== p || !state.clock)
      return;
    const seat = this.seats[state.clock.seat];
    const connected = seat !== null && seat !== undefined && this.isConnected(seat.account);
    if (!state.clock.bank && connected && seat.timeBankMs > 0) {
      // The action clock ran out: the time bank starts.
      const now = this.deps.clock.now();
      state.clock = { seat: state.clock.seat, deadline: now + seat.timeBankMs, bank: true };
      extra.bankFrom = now;
      this.startDecisionTimer(handId, p, seat.timeBankMs);
      this.broadcast(this.clockMessage(state, state.clock.seat));
      return;
    }
    if (seat && state.clock.bank) seat.timeBankMs = 0;
    this.stopClock(false);
    await this.forcedMove(p, connected ? 'timeout' : 'disconnected');
  }

  /**
   * A move the table makes for player `p`: time-out (check if free, else fold; draw: stand pat,
   * timed out; split: decline; bring-in: posted), disconnected (the same, or an artificial all-in in
   * fixed/spread limit real-money games with chips in the pot and allowance left), leave (fold).
   */
  private async forcedMove(p: number, why: 'timeout' | 'disconnected' | 'leave'): Promise<void> {
    const state = this.hand!;
    const hand = state.hand;
    this.stopClock(false);
    const legal = hand.legalActions();
    if (!legal) throw new Error('forced move without a decision');
    let action: HandAction;
    if (hand.phase === 'draw') action = { type: 'discard', player: p, cards: [], timedOut: why !== 'leave' };
    else if (hand.phase === 'split') action = { type: 'split', player: p, accept: false };
    else if (legal.bringIn !== null) action = { type: 'bring-in', player: p };
    else if (why === 'leave') action = { type: 'fold', player: p };
    else {
      const committed = hand.snapshot().players[p]!.committed;
      const artificial =
        why === 'disconnected' &&
        this.table.limitGame &&
        this.config.currency === 'real' &&
        committed > 0 &&
        (await this.allIns.take(state.accounts[p]!, this.deps.clock.now()));
      if (artificial || !(this.table.limitGame && committed > 0)) action = { type: 'timeout', player: p };
      else action = { type: 'check-call', player: p };
      if (action.type === 'check-call' && !legal.check) action = { type: 'fold', player: p };
    }
    await this.commit(action, null);
  }

  /** The finished hand's settlement: awards, rake, history (full and per participant). */
  private settlement(): Settlement {
    const state = this.hand!;
    const extra = this.extra!;
    const hand = state.hand;
    const awards = new Map<AccountId, number>();
    let rake = 0;
    for (const event of hand.events) {
      if (event.type === 'award') {
        const account = state.accounts[event.player]!;
        awards.set(account, (awards.get(account) ?? 0) + event.amount);
      } else if (event.type === 'rake') rake += event.amount;
    }
    const phh = (viewer: number | 'all'): string =>
      historyPhh(state, this.table, extra.blinds, extra.deadBlinds, viewer);
    return {
      awards: [...awards].map(([userId, amount]) => ({ userId, amount })),
      rake,
      history: { phh: phh('all'), views: state.accounts.map((userId, p) => ({ userId, phh: phh(p) })) },
    };
  }

  /** After the settlement: stacks, time banks, the recap, leavers cashed out, the next hand scheduled. */
  private async afterHand(): Promise<void> {
    const state = this.hand!;
    const finishing = state.hand.finishingStacks() ?? [];
    const snap = state.hand.snapshot();
    let pot = 0;
    for (const event of snap.events) if (event.type === 'award' || event.type === 'rake') pot += event.amount;
    this.pots.push(pot);
    this.potSum += pot;
    if (this.pots.length > STATS_HANDS) this.potSum -= this.pots.shift()!;
    const leavers: SeatState[] = [];
    state.accounts.forEach((account, p) => {
      const seat = this.seatState(account);
      if (!seat) return;
      seat.stack = finishing[p] ?? seat.stack;
      seat.timeBankMs = Math.min(
        this.table.clocks.timeBankMs,
        seat.timeBankMs + this.table.clocks.timeBankRefillMs,
      );
      if (seat.leaving) leavers.push(seat);
    });
    this.recap = buildRecap(state, this.table);
    this.hand = null;
    this.extra = null;
    this.broadcast({ type: 'hand-summary', recap: this.recap, seats: state.order });
    for (const seat of leavers) await this.cashOut(seat);
    this.broadcast({ type: 'table-snapshot' });
    this.scheduleHand();
  }
}
