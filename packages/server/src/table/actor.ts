/**
 * The table actor: a mailbox (a promise chain: one command at a time, also across `await`) around the
 * table machine (./machine.ts). It steps the machine with each command, then runs the effects in
 * order: each persist is awaited before anything after it (durable, then announced). A write storage
 * refuses for want of space or reach makes a ledger table wait: it refuses every command with
 * STORAGE_UNAVAILABLE, tries again with a growing pause, and once storage takes writes it cancels the
 * hand by the crash rule and goes on with the seats' stored chips (./reconcile.ts). Any other failure
 * (a bug, a lease lost) stops the table; the crash rule refunds the hand on restart. It also keeps what
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
import { isStorageUnavailable } from '../storage/unavailable.js';
import { reconcileWithStorage } from './reconcile.js';

const refuse = (code: TableErrorCode, message: string): CommandResult => ({
  ok: false,
  error: { code, message },
});
const OK: CommandResult = { ok: true };
const CLOSED = refuse(TableErrorCode.SHUTTING_DOWN, 'the table is closed');
const FAILED = refuse(TableErrorCode.INTERNAL, 'the table failed');
const UNAVAILABLE = refuse(
  TableErrorCode.STORAGE_UNAVAILABLE,
  'the room cannot write its records now: nothing was changed, try again shortly',
);
/** The command whose write storage refused: what was written stands, the rest is undone by the crash rule. */
const NOT_WRITTEN = refuse(
  TableErrorCode.STORAGE_UNAVAILABLE,
  'the room could not write this: the table waits for its storage, then goes on with every chip where storage has it',
);

/** The pause before the next try to go on: doubling from 100 ms to 5 s, so a long outage costs little. */
const retryMs = (tries: number): number => Math.min(5000, 100 * 2 ** Math.min(tries, 6));

/** Commands a waiting table still steps: they only show the table, nothing is written. */
const SHOWS_ONLY: ReadonlySet<MachineCommand['type']> = new Set(['subscribed', 'disconnected']);

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
  /** Storage refused a write: how many tries to go on have failed since; null while it takes them. */
  private waiting: { tries: number } | null = null;
  /** Players whose cash-out failed or never ran after a refused write: cashed out when storage is back. */
  private readonly owed = new Set<AccountId>();
  private readonly retry: TableTimer;

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
    this.retry = clock.timer(() => {
      void this.enqueue(() => this.goOn());
    });
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
        return this.failed(error);
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
    if (this.waiting !== null && !SHOWS_ONLY.has(command.type)) return UNAVAILABLE;
    const { effects, result } = step(this.state, command);
    await this.runEffects(effects);
    return result;
  }

  private async runEffects(effects: readonly Effect[]): Promise<void> {
    for (const [at, effect] of effects.entries()) {
      switch (effect.type) {
        case 'persist':
          try {
            await this.persist(effect.write);
          } catch (error) {
            // The machine let these players go already: their chips must still reach their balances.
            for (const skipped of effects.slice(at))
              if (skipped.type === 'persist' && skipped.write.kind === 'cash-out')
                this.owed.add(skipped.write.account);
            throw error;
          }
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

  /** A job failed: a ledger table waits for storage to take writes again; anything else stops it. */
  private failed(error: unknown): CommandResult {
    const canWait =
      this.deps.recovery !== undefined && this.state.policies.chips === 'ledger' && !this.state.closed;
    if (canWait && isStorageUnavailable(error)) {
      this.wait(error);
      return NOT_WRITTEN;
    }
    this.fail(error);
    return FAILED;
  }

  private wait(error: unknown): void {
    const tries = this.waiting === null ? 0 : this.waiting.tries + 1;
    if (this.waiting === null) {
      this.deps.storageWaits?.failed(this.id, error);
      this.deps.logger?.warn({ err: error }, 'table waits for storage');
    }
    this.waiting = { tries };
    this.clearTimers();
    this.retry.start(retryMs(tries));
  }

  /**
   * One try to go on: the table set right with storage by the crash rule (./reconcile.ts), then the
   * machine told what storage holds. A try that fails waits again (through `failed`).
   */
  private async goOn(): Promise<CommandResult> {
    const recovery = this.deps.recovery;
    if (this.waiting === null || this.state.closed || recovery === undefined) return OK;
    const seated: AccountId[] = [];
    for (const seat of this.state.seats) if (seat !== null) seated.push(seat.account);
    const stored = await reconcileWithStorage(
      this.deps.storage,
      recovery,
      this.id,
      ledgerCurrency(this.config.currency),
      seated,
      this.owed,
    );
    this.owed.clear();
    this.waiting = null;
    const { effects } = step(this.state, {
      type: 'storage-back',
      now: this.deps.clock.now(),
      link: stored.link,
      stacks: stored.stacks,
    });
    await this.runEffects(effects);
    this.deps.storageWaits?.recovered(this.id);
    this.deps.logger?.info('table goes on: storage takes writes again');
    return OK;
  }

  /** A bug or a lease lost: the table stops (crash rule: storage refunds the hand on restart). */
  private fail(error: unknown): void {
    this.state.closed = true;
    this.clearTimers();
    this.retry.stop();
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
    this.retry.stop();
    await this.idle();
    this.subscribers.clear();
  }

  // ------------------------------------------------------------------ public API

  handle(player: PlayerRef, command: TableCommand): Promise<CommandResult> {
    if (this.state.closed) return Promise.resolve(CLOSED);
    if (this.waiting !== null) return Promise.resolve(UNAVAILABLE);
    return this.enqueue(async () => {
      if (this.waiting !== null) return UNAVAILABLE;
      const checked = check(this.state, player, command);
      if (!checked.ok) return checked;
      if ((command.type === 'sit' || command.type === 'top-up') && this.state.policies.chips === 'ledger') {
        const amount = command.type === 'sit' ? command.buyIn : command.amount;
        // Refused before the machine changed: the table itself need not wait, only this player.
        const paid = await this.deps.storage
          .buyIn(this.id, player.account, ledgerCurrency(this.config.currency), amount)
          .catch((error: unknown) => {
            if (isStorageUnavailable(error)) return null;
            throw error;
          });
        if (paid === null) return UNAVAILABLE;
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
    if (this.waiting !== null) return Promise.resolve(UNAVAILABLE);
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
