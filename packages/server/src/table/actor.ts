/**
 * The table actor: a mailbox (a promise chain: one command at a time, also across `await`) around the
 * table machine (./machine.ts). It steps the machine with each command, then runs the effects in
 * order: each persist is awaited before anything after it (durable, then announced); a storage
 * failure or a bug stops the table (the crash rule refunds the hand on restart). It also keeps what
 * the machine must not: the subscribers' sinks, the timers, the ports.
 */
import { ledgerCurrency, resolveTable } from './config.js';
import type { Effect, TimerName, Write } from './effects.js';
import { check, createMachineState, step, type MachineCommand } from './machine.js';
import { CASH_GAME } from './policies.js';
import { handsWithin, isReady } from './hand-flow.js';
import { seatOf, type MachineState } from './state.js';
import {
  TableErrorCode,
  type AccountId,
  type AllInCounter,
  type CommandResult,
  type ControllerCommand,
  type HandRecap,
  type PlayerRef,
  type Table,
  type TableCommand,
  type TableConfig,
  type TableDeps,
  type TableSink,
  type TableSummary,
  type TableTimer,
  type TableView,
} from './types.js';
import { memoryAllInCounter } from './allin.js';
import { recapFor, renderedFor, tableViewFor } from './visibility.js';

const refuse = (code: TableErrorCode, message: string): CommandResult => ({
  ok: false,
  error: { code, message },
});
const OK: CommandResult = { ok: true };
const CLOSED = refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed');
const FAILED = refuse(TableErrorCode.INTERNAL, 'the table failed');

interface Subscriber {
  readonly id: number;
  readonly viewer: AccountId | null;
  readonly sink: TableSink;
}

export function createTable(config: TableConfig, deps: TableDeps): Table {
  return new TableActor(config, deps);
}

class TableActor implements Table {
  readonly id: string;
  readonly config: TableConfig;
  private readonly state: MachineState;
  private readonly deps: TableDeps;
  private readonly allIns: AllInCounter;
  private chain: Promise<unknown> = Promise.resolve();
  private pendingJobs = 0;
  private readonly subscribers = new Map<number, Subscriber>();
  private nextSubscriber = 1;
  private readonly timers: Record<TimerName, TableTimer>;

  constructor(config: TableConfig, deps: TableDeps) {
    this.id = config.id;
    this.config = config;
    this.deps = deps;
    this.allIns = deps.allIns ?? memoryAllInCounter();
    this.state = createMachineState(resolveTable(config), deps.policies ?? CASH_GAME, deps.random);
    const clock = deps.clock;
    this.timers = {
      'next-hand': clock.timer(() => {
        this.later((now) => ({ type: 'next-hand-due', now }));
      }),
      decision: clock.timer(() => {
        // What the clock was armed for, and the player's allowance, as they are when it fires.
        const armed = this.state.decisionFor;
        const account = armed === null ? undefined : this.state.hand?.accounts[armed.player];
        const allInLeft =
          account !== undefined &&
          this.allIns.left(account, clock.now(), this.state.settings.allInsPerDay) > 0;
        this.later((now) => ({ type: 'decision-time-up', now, armed, allInLeft }));
      }),
      blind: clock.timer(() => {
        const request = this.state.blindRequest;
        this.later((now) => ({ type: 'blind-time-up', now, request }));
      }),
      'run-twice': clock.timer(() => {
        const offer = this.state.hand?.runTwice ?? null;
        this.later((now) => ({ type: 'run-twice-time-up', now, offer }));
      }),
    };
    // The first job: the fair-dealing chain as storage holds it (no hand starts without it).
    void this.enqueue(async () => {
      const link = await deps.storage.fairLink(this.id);
      return this.stepAndRun({ type: 'fair-chain', now: this.deps.clock.now(), link });
    });
  }

  // ------------------------------------------------------------------ mailbox

  private enqueue(job: () => Promise<CommandResult>): Promise<CommandResult> {
    this.pendingJobs++;
    const run = this.chain.then(async () => {
      try {
        return await job();
      } catch (error) {
        this.fail(error);
        return FAILED;
      } finally {
        this.pendingJobs--;
      }
    });
    this.chain = run;
    return run;
  }

  /** Queues a machine command, made with the time when it runs. */
  private later(make: (now: number) => MachineCommand): void {
    void this.enqueue(() => this.stepAndRun(make(this.deps.clock.now())));
  }

  private async stepAndRun(command: MachineCommand): Promise<CommandResult> {
    if (this.state.closed) return CLOSED;
    const { effects, result } = step(this.state, command);
    await this.runEffects(effects);
    return result;
  }

  private async runEffects(effects: readonly Effect[]): Promise<void> {
    for (const effect of effects) {
      switch (effect.type) {
        case 'persist':
          await this.persist(effect.write);
          break;
        case 'broadcast':
          for (const subscriber of this.subscribers.values()) {
            const out = renderedFor(effect.message, subscriber.viewer);
            if (out !== null) send(subscriber, out);
          }
          break;
        case 'deliver': {
          const subscriber = this.subscribers.get(effect.to);
          if (subscriber) send(subscriber, effect.message);
          break;
        }
        case 'timer':
          if (effect.ms === null) this.timers[effect.timer].stop();
          else this.timers[effect.timer].start(effect.ms);
          break;
        case 'tell':
          this.deps.controller?.(effect.news);
          break;
      }
    }
  }

  private async persist(write: Write): Promise<void> {
    const { storage } = this.deps;
    switch (write.kind) {
      case 'cash-out': {
        const result = await storage.cashOut(this.id, write.account, ledgerCurrency(this.config.currency));
        if (!result.ok) throw new Error(`cash-out refused: ${result.error.message}`);
        return;
      }
      case 'stack-in':
        await this.deps.stacks?.handIn(this.id, write.account, write.stack);
        return;
      case 'stack-out':
        await this.deps.stacks?.handOut(this.id, write.account, write.stack);
        return;
      case 'start-hand': {
        const started = await storage.startHand(write.hand);
        if (!started.ok) throw new Error(`storage refused the hand: ${started.error.message}`);
        const next = step(this.state, {
          type: 'hand-stored',
          now: this.deps.clock.now(),
          handId: started.value,
        });
        await this.runEffects(next.effects);
        return;
      }
      case 'record-action': {
        const recorded = await storage.recordAction(write.record);
        if (!recorded.ok) throw new Error(`storage refused an action: ${recorded.error.message}`);
        return;
      }
      case 'fair-link': {
        const saved = await storage.saveFairLink(this.id, write.link);
        if (!saved.ok) throw new Error(`storage refused the fair chain: ${saved.error.message}`);
        return;
      }
      case 'all-in':
        this.allIns.take(write.account, this.deps.clock.now(), this.state.settings.allInsPerDay);
        return;
    }
  }

  /** A bug or a storage failure: the table stops (crash rule: storage refunds the hand on restart). */
  private fail(error: unknown): void {
    this.state.closed = true;
    this.clearTimers();
    if (this.deps.onError) this.deps.onError(error);
    else console.error(`table ${this.id}:`, error);
  }

  private clearTimers(): void {
    for (const timer of Object.values(this.timers)) timer.stop();
  }

  async idle(): Promise<void> {
    while (this.pendingJobs > 0) await this.chain;
  }

  async dispose(): Promise<void> {
    this.state.closed = true;
    this.clearTimers();
    await this.idle();
    this.subscribers.clear();
  }

  // ------------------------------------------------------------------ public API

  handle(player: PlayerRef, command: TableCommand): Promise<CommandResult> {
    if (this.state.closed) return Promise.resolve(CLOSED);
    return this.enqueue(async () => {
      const checked = check(this.state, player, command);
      if (!checked.ok) return checked;
      if ((command.type === 'sit' || command.type === 'top-up') && this.state.policies.chips === 'ledger') {
        const amount = command.type === 'sit' ? command.buyIn : command.amount;
        const paid = await this.deps.storage.buyIn(
          this.id,
          player.account,
          ledgerCurrency(this.config.currency),
          amount,
        );
        if (!paid.ok) {
          // The ledger's words name its internal accounts: the player gets plain ones, the log the detail.
          this.deps.logger?.info(
            { account: player.account, amount, code: paid.error.code, error: paid.error.message },
            'buy-in refused',
          );
          if (paid.error.code === 'STAFF_ACCOUNT') {
            return refuse(TableErrorCode.STAFF_ACCOUNT, 'a staff account does not play for real money');
          }
          return paid.error.code === 'INSUFFICIENT_FUNDS'
            ? refuse(TableErrorCode.INSUFFICIENT_FUNDS, 'not enough money in your balance')
            : refuse(TableErrorCode.BAD_BUY_IN, 'the buy-in was refused');
        }
      }
      return this.stepAndRun({ type: 'player', now: this.deps.clock.now(), player, command });
    });
  }

  control(command: ControllerCommand): Promise<CommandResult> {
    if (this.state.closed) return Promise.resolve(CLOSED);
    return this.enqueue(() => this.stepAndRun({ type: 'controller', now: this.deps.clock.now(), command }));
  }

  subscribe(viewer: AccountId | null, sink: TableSink): () => void {
    const subscriber: Subscriber = { id: this.nextSubscriber++, viewer, sink };
    this.subscribers.set(subscriber.id, subscriber);
    const presence = this.state.presence;
    if (viewer !== null) presence.set(viewer, (presence.get(viewer) ?? 0) + 1);
    void this.enqueue(() =>
      this.subscribers.has(subscriber.id)
        ? this.stepAndRun({
            type: 'subscribed',
            now: this.deps.clock.now(),
            subscriber: subscriber.id,
            viewer,
          })
        : Promise.resolve(OK),
    );
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.subscribers.delete(subscriber.id);
      if (viewer === null) return;
      const left = (presence.get(viewer) ?? 1) - 1;
      if (left > 0) presence.set(viewer, left);
      else presence.delete(viewer);
      if (left <= 0 && seatOf(this.state, viewer) !== null && !this.state.closed)
        this.later((now) => ({ type: 'disconnected', now, account: viewer }));
    };
  }

  audience(): { readonly accounts: readonly AccountId[]; readonly anonymous: number } {
    let anonymous = 0;
    for (const subscriber of this.subscribers.values()) if (subscriber.viewer === null) anonymous++;
    return { accounts: [...this.state.presence.keys()], anonymous };
  }

  summary(): TableSummary {
    return summaryOf(this.state, this.config, this.deps.clock.now());
  }

  view(viewer: AccountId | null): TableView {
    return tableViewFor(this.state, viewer);
  }

  lastSummary(viewer: AccountId | null): Promise<HandRecap | null> {
    const recap = this.state.recap;
    return Promise.resolve(recap === null ? null : recapFor(recap, viewer, true));
  }
}

function send(subscriber: Subscriber, message: Parameters<TableSink>[0]): void {
  try {
    subscriber.sink(message);
  } catch {
    // a sink must not break the table
  }
}

/** The lobby's summary of a table in `state` at time `now`. */
export function summaryOf(s: MachineState, config: TableConfig, now: number): TableSummary {
  const settings = s.settings;
  let seated = 0;
  let ready = 0;
  for (const seat of s.seats) {
    if (seat === null) continue;
    seated++;
    if (isReady(s, seat)) ready++;
  }
  return {
    id: config.id,
    name: config.name,
    game: config.game,
    structure: config.structure,
    stakes: settings.config.stakes,
    stakesText: settings.stakesText,
    currency: config.currency,
    seatCount: settings.seatCount,
    seated,
    free: settings.seatCount - seated,
    minBuyIn: settings.minBuyIn,
    maxBuyIn: settings.maxBuyIn,
    averagePot: s.pots.length === 0 ? 0 : Math.round(s.potSum / s.pots.length),
    handsPerHour: handsWithin(s, now),
    playing: s.hand !== null || ready >= 2,
    paused: s.paused,
  };
}
