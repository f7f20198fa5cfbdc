/**
 * A table of a room on several processes, as one process's lobby and connections see it: the table's
 * actor when this process owns it, else a proxy of its owner over the bus. Commands go to the owner with
 * a client request id (retried with the same id until an owner answers, so never applied twice); each
 * watcher is one subscription at the owner whose pushes carry the owner's epoch and a sequence number —
 * an older epoch is dropped, a gap or a new owner makes the subscription again, which starts with the full
 * view. When the owner changes (a takeover) every watcher moves to the new one by itself.
 */
import { randomUUID } from 'node:crypto';
import { checkStacks } from '../ledger/live-stacks.js';
import { summaryOf } from '../table/actor.js';
import { resolveTable } from '../table/config.js';
import { createMachineState } from '../table/machine.js';
import { CASH_GAME } from '../table/policies.js';
import { cryptoRandomSource } from '../table/random.js';
import { tableViewFor } from '../table/visibility.js';
import {
  TableErrorCode,
  type AccountId,
  type CommandResult,
  type ControllerCommand,
  type HandRecap,
  type PlayerRef,
  type Table,
  type TableCommand,
  type TableConfig,
  type TableMessage,
  type TableSink,
  type TableSummary,
  type TableView,
} from '../table/types.js';
import { BusUnavailable, PushOrder, type BusPush } from './bus.js';
import type { OwnerReply, OwnerRequest } from './owner-protocol.js';
import type { MemberId } from './registry.js';

/** How long a command waits for an owner (a takeover takes one lease period and a recovery). */
const FORWARD_MS = 20_000;
/** One try's wait for the owner's answer. */
const TRY_MS = 5_000;
/** Before trying again: the owner may be changing. */
const RETRY_GAP_MS = 250;

/** What a cluster table needs of its member. */
export interface TableMember {
  readonly id: MemberId;
  ask(owner: MemberId, requestId: string, body: OwnerRequest, timeoutMs: number): Promise<OwnerReply>;
  /** A fresh subject for one subscription's pushes. */
  pushSubject(): string;
  listen(subject: string, onPush: (push: BusPush<TableMessage>) => void): () => void;
}

type Owner =
  | { readonly kind: 'local'; readonly table: Table; readonly epoch: number }
  | { readonly kind: 'remote'; readonly member: MemberId; readonly epoch: number }
  | { readonly kind: 'none' };

interface Watcher {
  readonly viewer: AccountId | null;
  readonly sink: TableSink;
  detach: (() => void) | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ClusterTable implements Table {
  readonly id: string;
  #owner: Owner = { kind: 'none' };
  /** The newest lease epoch this process has seen for the table (an older owner's news is stale). */
  #latestEpoch = 0;
  /** The owner's last published summary and spectator's view (a table of this kind, empty, until then). */
  #summary: TableSummary;
  #view: TableView;
  readonly #watchers = new Set<Watcher>();
  #disposed = false;

  constructor(
    readonly config: TableConfig,
    private readonly member: TableMember,
  ) {
    this.id = config.id;
    const empty = createMachineState(resolveTable(config), CASH_GAME, cryptoRandomSource());
    this.#summary = summaryOf(empty, config, Date.now());
    this.#view = tableViewFor(empty, null);
  }

  /** The epoch of the lease through which this process runs the table, or null. */
  get localEpoch(): number | null {
    return this.#owner.kind === 'local' ? this.#owner.epoch : null;
  }

  /** The actor, when this process runs the table. */
  get local(): Table | null {
    return this.#owner.kind === 'local' ? this.#owner.table : null;
  }

  get ownerMember(): MemberId | null {
    const owner = this.#owner;
    return owner.kind === 'local' ? this.member.id : owner.kind === 'remote' ? owner.member : null;
  }

  /** This process runs the table now (it took its lease and recovered it). */
  useLocal(table: Table, epoch: number): void {
    this.#switch({ kind: 'local', table, epoch });
  }

  /** Another member owns the table through lease `epoch`. */
  useRemote(member: MemberId, epoch: number): void {
    const owner = this.#owner;
    if (owner.kind === 'remote' && owner.member === member && owner.epoch === epoch) return;
    // A look at the leases read before a newer owner's news: that news stands.
    if (epoch < this.#latestEpoch) return;
    this.#switch({ kind: 'remote', member, epoch });
  }

  /**
   * A member says it runs the table through lease `epoch` (its news): followed when the epoch is newer
   * than any this process has seen, so watchers move to a new owner as soon as it has recovered the table.
   */
  announced(member: MemberId, epoch: number): void {
    if (this.#owner.kind !== 'local' && epoch > this.#latestEpoch) this.useRemote(member, epoch);
  }

  /**
   * Nobody owns the table (its owner's lease, of epoch `leaseEpoch`, ran out): watchers wait for the
   * next one — unless a newer owner has announced itself since that lease was read.
   */
  useNone(leaseEpoch = Number.POSITIVE_INFINITY): void {
    if (leaseEpoch < this.#latestEpoch) return;
    if (this.#owner.kind !== 'none') this.#switch({ kind: 'none' });
  }

  /** The owner's published state of the table. */
  learn(member: MemberId, epoch: number, summary: TableSummary, view: TableView): void {
    const owner = this.#owner;
    if (owner.kind !== 'remote' || owner.member !== member || owner.epoch !== epoch) return;
    this.#summary = summary;
    this.#view = view;
  }

  #switch(next: Owner): void {
    const previous = this.#owner;
    if (next.kind !== 'none') this.#latestEpoch = Math.max(this.#latestEpoch, next.epoch);
    for (const watcher of this.#watchers) this.#detach(watcher);
    this.#owner = next;
    if (previous.kind === 'local') void previous.table.dispose();
    for (const watcher of this.#watchers) this.#attach(watcher);
  }

  #detach(watcher: Watcher): void {
    const detach = watcher.detach;
    watcher.detach = null;
    detach?.();
  }

  #attach(watcher: Watcher): void {
    const owner = this.#owner;
    if (this.#disposed || owner.kind === 'none') return;
    if (owner.kind === 'local') {
      watcher.detach = owner.table.subscribe(watcher.viewer, watcher.sink);
      return;
    }
    const subject = this.member.pushSubject();
    const order = new PushOrder(owner.epoch);
    let attached = true;
    const stopListening = this.member.listen(subject, (push) => {
      if (!attached) return;
      const verdict = order.judge(push);
      if (verdict === 'apply') watcher.sink(push.message);
      else if (verdict === 'gap') this.#reattach(watcher, detach);
    });
    const detach = () => {
      attached = false;
      stopListening();
      this.#tell(owner.member, { kind: 'unsubscribe', tableId: this.id, subject });
    };
    watcher.detach = detach;
    const request: OwnerRequest = {
      kind: 'subscribe',
      tableId: this.id,
      viewer: watcher.viewer,
      subject,
      member: this.member.id,
    };
    void this.#askUntil(owner, randomUUID(), request).then((reply) => {
      // Not answered or not the owner any more: the member's next look at the leases moves the watcher.
      if (reply === null || !reply.owner) this.#reattach(watcher, detach, RETRY_GAP_MS * 4);
    });
  }

  /** Makes the watcher's subscription again (a lost push, or no answer), if it is still that one. */
  #reattach(watcher: Watcher, detach: () => void, afterMs = 0): void {
    if (watcher.detach !== detach) return;
    this.#detach(watcher);
    setTimeout(() => {
      if (watcher.detach === null && this.#watchers.has(watcher)) this.#attach(watcher);
    }, afterMs).unref();
  }

  /** Asks `owner` while it stays this table's owner, up to one try's time; null when unanswered. */
  async #askUntil(owner: Owner & { kind: 'remote' }, requestId: string, body: OwnerRequest) {
    try {
      return await this.member.ask(owner.member, requestId, body, TRY_MS);
    } catch (error) {
      if (error instanceof BusUnavailable) return null;
      throw error;
    }
  }

  #tell(member: MemberId, body: OwnerRequest): void {
    this.member.ask(member, randomUUID(), body, TRY_MS).catch(() => undefined);
  }

  /**
   * Runs a command where the table is: here, or at its owner with one request id however many tries it
   * takes (a time-out, nobody answering, an owner that just lost the table), until {@link FORWARD_MS}.
   */
  async #run(body: OwnerRequest, here: (table: Table) => Promise<CommandResult>): Promise<CommandResult> {
    const requestId = randomUUID();
    const until = Date.now() + FORWARD_MS;
    while (!this.#disposed) {
      const owner = this.#owner;
      if (owner.kind === 'local') {
        const result = await here(owner.table);
        // Refused because this process lost the table meanwhile (nothing was applied): to its new owner.
        const moved =
          !result.ok && result.error.code === TableErrorCode.SHUTTING_DOWN && this.#owner !== owner;
        if (!moved) return result;
        continue;
      }
      if (owner.kind === 'remote') {
        const reply = await this.#askUntil(owner, requestId, body);
        if (reply !== null && reply.owner && 'result' in reply) return reply.result;
      }
      if (Date.now() > until) break;
      await sleep(RETRY_GAP_MS);
    }
    return {
      ok: false,
      error: { code: TableErrorCode.SHUTTING_DOWN, message: 'the table is moving to another server' },
    };
  }

  handle(player: PlayerRef, command: TableCommand): Promise<CommandResult> {
    return this.#run({ kind: 'handle', tableId: this.id, player, command }, (table) =>
      table.handle(player, command),
    );
  }

  control(command: ControllerCommand): Promise<CommandResult> {
    return this.#run({ kind: 'control', tableId: this.id, command }, (table) => table.control(command));
  }

  subscribe(viewer: AccountId | null, sink: TableSink): () => void {
    const watcher: Watcher = { viewer, sink, detach: null };
    this.#watchers.add(watcher);
    this.#attach(watcher);
    return () => {
      this.#watchers.delete(watcher);
      this.#detach(watcher);
    };
  }

  audience(): { readonly accounts: readonly AccountId[]; readonly anonymous: number } {
    return this.local?.audience() ?? { accounts: [], anonymous: 0 };
  }

  summary(): TableSummary {
    return this.local?.summary() ?? this.#summary;
  }

  view(viewer: AccountId | null): TableView {
    const local = this.local;
    if (local !== null) return local.view(viewer);
    const you = viewer === null ? -1 : this.#view.seats.findIndex((seat) => seat?.account === viewer);
    return { ...this.#view, you: you < 0 ? null : you };
  }

  /** The last hand's recap, kept by the owner alone: asked of it once when it runs elsewhere. */
  async lastSummary(viewer: AccountId | null): Promise<HandRecap | null> {
    const owner = this.#owner;
    if (owner.kind === 'local') return owner.table.lastSummary(viewer);
    if (owner.kind === 'none') return null;
    const request: OwnerRequest = { kind: 'last-summary', tableId: this.id, viewer };
    const reply = await this.#askUntil(owner, randomUUID(), request);
    return reply !== null && reply.owner && 'recap' in reply ? reply.recap : null;
  }

  /**
   * The audit's check of the table's seats against the ledger, made where the table runs (the owner alone
   * knows when its memory and the ledger agree); null when nobody answered or it was never still enough.
   */
  async checkStacks(): Promise<readonly string[] | null> {
    const owner = this.#owner;
    if (owner.kind === 'local') return checkStacks(owner.table);
    if (owner.kind === 'none') return null;
    const reply = await this.#askUntil(owner, randomUUID(), { kind: 'check-stacks', tableId: this.id });
    return reply !== null && reply.owner && 'stackProblems' in reply ? reply.stackProblems : null;
  }

  idle(): Promise<void> {
    return this.local?.idle() ?? Promise.resolve();
  }

  /** Stops watching and, if this process runs the table, disposes its actor (the hand stays in storage). */
  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const watcher of this.#watchers) this.#detach(watcher);
    this.#watchers.clear();
    const local = this.local;
    this.#owner = { kind: 'none' };
    await local?.dispose();
  }
}
