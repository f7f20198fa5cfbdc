/**
 * One process of a room on several processes (`felt serve --db postgres://… --bus nats://…`): a member
 * of the cluster (./registry.ts) that
 *
 * - beats and renews its tables' leases every tick, on connections of their own (a busy pool must not
 *   starve them); a table whose lease it lost is dropped at once (its late writes would be refused by
 *   the database anyway, ./fence.ts); a member that missed its heartbeat holds nothing and joins again,
 *   its watchers subscribing again to the others' tables (the owners ended what they saw dead);
 * - looks at the leases every tick: a table another live member owns is proxied to it (./cluster-table.ts),
 *   and a table nobody owns — never owned, or its owner's lease ran out — is taken while this member runs
 *   fewer than its target (./balance.ts), and recovered by `openTable` (./takeover.ts) before anyone is
 *   served;
 * - hands tables over while it runs more than its target and another member fewer (a new member takes
 *   its share so): a few at a time, each between two hands — no new hand starts there, and once the one
 *   in play has ended the table is let go and its lease released, so that the taker finds no hand to
 *   cancel;
 * - answers the other members' requests for the tables it runs, and publishes their summaries (and
 *   settings: a table another lobby opened is listed by every process).
 */
import type { Logger } from '../log.js';
import type { Table, TableConfig, TableMessage } from '../table/types.js';
import { loadOf } from './balance.js';
import type { Bus, BusPush } from './bus.js';
import { ClusterTable, type TableMember } from './cluster-table.js';
import { pushSubjectPrefix, RemoteWatchers } from './watchers.js';
import type { LiveMembers } from './peers.js';
import type { Fence } from './fence.js';
import {
  OWNED_TABLES_SUBJECT,
  type OwnedTables,
  type OwnerReply,
  type OwnerRequest,
} from './owner-protocol.js';
import type { ClusterStatusView } from '@felt/protocol';
import type { ClusterRegistry, ClusterView, Lease, MemberId } from './registry.js';

export interface ClusterMemberOptions {
  readonly registry: ClusterRegistry;
  readonly bus: Bus;
  /** The live members the bus accepts messages from: each look at the leases tells it who is live. */
  readonly members: LiveMembers;
  /** The `--node` name: a label only (each start is a new member). */
  readonly label: string;
  /** How often it beats, renews and looks at the leases; default 1,000 ms. */
  readonly tickMs?: number;
  /** Recovers a table just taken through `fence` and starts its actor. */
  readonly openTable: (config: TableConfig, fence: Fence) => Promise<Table>;
  /** Told when this member stops running a table (its lease lost): its actor is gone. */
  readonly dropped?: (tableId: string) => void;
  /**
   * Told of a table another member runs that this one does not know (a lobby there opened it, all of
   * its kind being full): this process's lobby should list it too, so that every process has the same
   * tables (and the members the same targets).
   */
  readonly discovered?: (config: TableConfig) => void;
  /** Told of a table the staff closed through another process: this process's lobby lets it go too. */
  readonly closed?: (tableId: string) => void;
  readonly logger: Logger;
}

/** Tables one member hands over at once: enough to even out a new member soon, few enough to stay smooth. */
const HANDOVERS_AT_ONCE = 2;
/**
 * How long a table being handed over waits for its hand in play to end. Meanwhile the hand goes on as
 * usual; one that outlasts this (a slow player) keeps its table here, and another table is tried later.
 */
const HANDOVER_WAIT_MS = 30_000;

export class ClusterMember implements TableMember {
  #id: MemberId = 0;
  readonly #tables = new Map<string, ClusterTable>();
  readonly #watchers: RemoteWatchers;
  #subjects = 0;
  #stopServing: () => void = () => undefined;
  #stopListening: () => void = () => undefined;
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopped = false;
  /** Stopping: it takes no table any more. */
  #leaving = false;
  #address = '';
  /** The tables being handed over now (waiting for their hand in play to end). */
  readonly #handingOver = new Set<string>();
  /** The highest member id the looks at the leases have seen (ids grow: a higher one is newer). */
  #newestMember: MemberId = 0;
  /** The members and leases at the last look (at most a tick old). */
  #view: ClusterView = { members: [], leases: [], runs: [] };

  constructor(private readonly options: ClusterMemberOptions) {
    this.#watchers = new RemoteWatchers(options.bus);
  }

  get id(): MemberId {
    return this.#id;
  }

  /** A table of the room (the lobby's, as it opens them). */
  table(config: TableConfig): ClusterTable {
    const table = new ClusterTable(config, this);
    this.#tables.set(config.id, table);
    return table;
  }

  /**
   * The staff closed the table (its lobby here has let it go, its actor disposed): no process takes it
   * again, and the others take it out of their lobbies at their next look.
   */
  async close(tableId: string): Promise<void> {
    await this.options.registry.close(tableId);
    const table = this.#tables.get(tableId);
    if (table === undefined) return;
    this.#tables.delete(tableId);
    this.#drop(table);
  }

  /** This member runs the table now. */
  runs(tableId: string): boolean {
    return this.#tables.get(tableId)?.local != null;
  }

  /** The tables this member runs now. */
  owned(): string[] {
    return [...this.#tables.values()].filter((table) => table.local !== null).map((table) => table.id);
  }

  /**
   * What `/health` shows of the cluster: this member, the tables it runs, and the members and leases
   * (with their ages by the database's clock) as its last look saw them.
   */
  health(): ClusterStatusView {
    return { member: this.#id, label: this.options.label, tables: this.owned(), ...this.#view };
  }

  /** Joins (`address`: where players reach this process, for the cluster view) and starts the loops. */
  async start(address: string): Promise<void> {
    this.#address = address;
    await this.#join();
    this.#stopListening = this.options.bus.subscribe(OWNED_TABLES_SUBJECT, (value, from) => {
      const news = value as OwnedTables;
      // A member speaks only for itself: news naming another member is not its to give.
      if (news.member !== from) return;
      for (const state of news.tables) {
        if (!this.#tables.has(state.tableId)) this.options.discovered?.(state.config);
        const table = this.#tables.get(state.tableId);
        if (news.member === this.#id || table === undefined) continue;
        // A newer owner's news moves the watchers at once, not at this member's next look at the leases.
        table.announced(news.member, state.epoch);
        table.learn(news.member, state.epoch, state.summary, state.view);
      }
    });
    this.#every(() => this.#keepLeases());
    this.#every(() => this.#lookAtLeases());
  }

  async #join(): Promise<void> {
    this.#stopServing();
    const { bus, registry } = this.options;
    const joined = await registry.join(this.options.label, this.#address, bus.publicKeys);
    bus.setClockOffset(joined.now - Date.now());
    bus.identify(joined.id);
    this.#id = joined.id;
    this.#stopServing = bus.serveMember(this.#id, (body, from) => this.#answer(body as OwnerRequest, from));
    this.options.logger.info({ member: this.#id, label: this.options.label }, 'cluster member joined');
  }

  /** Runs `work` every tick, one run at a time; a failure is logged and the next tick tries again. */
  #every(work: () => Promise<void>): void {
    const tickMs = this.options.tickMs ?? 1000;
    const run = async () => {
      if (this.#stopped) return;
      try {
        await work();
      } catch (error) {
        this.options.logger.error({ err: error }, 'cluster tick failed');
      }
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void run();
      }, tickMs);
      this.#timers.add(timer);
    };
    void run();
  }

  async #keepLeases(): Promise<void> {
    const { registry } = this.options;
    const beat = await registry.heartbeat(this.#id);
    if (beat !== null) this.options.bus.setClockOffset(beat - Date.now());
    if (beat === null) {
      this.options.logger.warn(
        { member: this.#id },
        'cluster heartbeat missed: its tables are gone, joining again',
      );
      for (const table of this.#tables.values()) if (table.local !== null) this.#drop(table);
      await this.#join();
      // The others ended its subscriptions to their tables when they saw it dead (and end any made
      // since under its old id): its watchers there wait for the next look at the leases, which
      // subscribes them again as the new member.
      for (const table of this.#tables.values()) if (table.local === null) table.useNone();
      return;
    }
    // Only tables run before the renewal asked: one taken meanwhile is not in its answer.
    const before = [...this.#tables.values()].filter((table) => table.localEpoch !== null);
    const held = new Map((await registry.renew(this.#id)).map((lease) => [lease.tableId, lease.epoch]));
    for (const table of before) {
      const epoch = table.localEpoch;
      if (epoch !== null && held.get(table.id) !== epoch) {
        this.options.logger.warn({ tableId: table.id, epoch }, 'table lease lost');
        this.#drop(table);
      }
    }
  }

  #drop(table: ClusterTable): void {
    this.#watchers.dropTable(table.id);
    table.useNone();
    this.options.dropped?.(table.id);
  }

  async #lookAtLeases(): Promise<void> {
    const { registry } = this.options;
    const view = await registry.view();
    const closed = await registry.closedTables();
    for (const tableId of closed) if (this.#tables.has(tableId)) this.options.closed?.(tableId);
    const live = new Set(view.members.filter((member) => member.live).map((member) => member.id));
    this.options.members.saw(live);
    this.#view = view;
    const leases = new Map(view.leases.map((lease) => [lease.tableId, lease]));
    const free: ClusterTable[] = [];
    for (const table of this.#tables.values()) {
      if (table.local !== null || closed.has(table.id)) continue;
      const lease = leases.get(table.id);
      if (lease !== undefined && lease.expiresInMs > 0 && lease.memberId !== this.#id) {
        table.useRemote(lease.memberId, lease.epoch);
      } else {
        table.useNone(lease?.epoch ?? 0);
        if (lease === undefined || lease.expiresInMs <= 0) free.push(table);
      }
    }
    const load = loadOf(view, this.#id, this.#tables.size);
    // A table free for over a lease period was left by members whose targets missed it (they disagree on
    // the tables, say): it is taken by anyone under the old rule, an even share rounded up.
    const share = Math.ceil(this.#tables.size / Math.max(1, live.size));
    let running = this.owned().length;
    // The tables taken are recovered together: after a member dies its tables deal again sooner.
    const taking: Promise<void>[] = [];
    for (const table of free) {
      if (this.#leaving) break;
      const freeMs = -(leases.get(table.id)?.expiresInMs ?? 0);
      const room = freeMs > registry.leaseMs ? share : load.target;
      if (running >= room) continue;
      const lease = await registry.acquire(this.#id, table.id);
      if (lease === null) continue;
      running++;
      taking.push(this.#take(table, { ...lease, memberId: this.#id }));
    }
    await Promise.all(taking);
    this.#handOver(load.surplus - this.#handingOver.size);
    // A member no look has seen yet joined since this one's view was read: live, its subscriptions kept.
    this.#newestMember = Math.max(this.#newestMember, ...view.members.map((member) => member.id));
    this.#watchers.endMembers((member) => !live.has(member) && member <= this.#newestMember);
    this.#publishOwned();
  }

  /**
   * Starts handing `count` tables over (at most {@link HANDOVERS_AT_ONCE} in flight): tables between
   * hands first, none a member of the staff paused (the pause would not travel with it).
   */
  #handOver(count: number): void {
    if (this.#leaving) return;
    const room = Math.min(count, HANDOVERS_AT_ONCE - this.#handingOver.size);
    const candidates = [...this.#tables.values()]
      .filter((table) => {
        const local = table.local;
        return local !== null && !this.#handingOver.has(table.id) && !local.summary().paused;
      })
      .sort((a, b) => Number(a.local!.view(null).hand !== null) - Number(b.local!.view(null).hand !== null));
    for (const table of candidates.slice(0, Math.max(0, room))) {
      this.#handingOver.add(table.id);
      void this.#letGo(table)
        .catch((error: unknown) => {
          this.options.logger.error({ tableId: table.id, err: error }, 'table handover failed');
        })
        .finally(() => this.#handingOver.delete(table.id));
    }
  }

  /**
   * Hands one table over between two hands: no new hand starts, and once the one in play ends (within
   * {@link HANDOVER_WAIT_MS}) the actor is stopped and the lease released for the member under its target.
   */
  async #letGo(table: ClusterTable): Promise<void> {
    const local = table.local;
    const epoch = table.localEpoch;
    if (local === null || epoch === null) return;
    await local.control({ type: 'pause', paused: true });
    const until = Date.now() + HANDOVER_WAIT_MS;
    const stillMine = () => table.local === local && !this.#stopped;
    while (stillMine() && local.view(null).hand !== null && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!stillMine() || this.#leaving) return;
    if (local.view(null).hand !== null) {
      await local.control({ type: 'pause', paused: false });
      return;
    }
    // Commands arriving from now on wait for the next owner (./cluster-table.ts); the actor finishes
    // what it was doing before the lease goes, so its last write is not refused.
    this.#drop(table);
    await local.dispose();
    await this.options.registry.release(this.#id, { tableId: table.id, epoch });
    this.options.logger.info({ tableId: table.id, epoch }, 'table handed over');
  }

  async #take(table: ClusterTable, fence: Fence): Promise<void> {
    try {
      table.useLocal(await this.options.openTable(table.config, fence), fence.epoch);
      this.#publishOwned([table]);
    } catch (error) {
      this.options.logger.error({ tableId: table.id, err: error }, 'table takeover failed');
      await this.options.registry.release(this.#id, fence);
    }
  }

  /** Publishes the state of `which` tables it runs (every one by default). */
  #publishOwned(which: Iterable<ClusterTable> = this.#tables.values()): void {
    const tables: OwnedTables['tables'][number][] = [];
    for (const table of which) {
      const local = table.local;
      const epoch = table.localEpoch;
      if (local === null || epoch === null) continue;
      tables.push({
        tableId: table.id,
        config: table.config,
        epoch,
        summary: local.summary(),
        view: local.view(null),
      });
    }
    const news: OwnedTables = { member: this.#id, tables };
    this.options.bus.publish(OWNED_TABLES_SUBJECT, news);
  }

  async #answer(body: OwnerRequest, from: MemberId): Promise<OwnerReply> {
    const table = this.#tables.get(body.tableId);
    const local = table?.local ?? null;
    const epoch = table?.localEpoch ?? null;
    if (local === null || epoch === null) return { owner: false };
    return this.#watchers.answer(local, epoch, body, from);
  }

  ask(owner: MemberId, requestId: string, body: OwnerRequest, timeoutMs: number): Promise<OwnerReply> {
    return this.options.bus.request<OwnerRequest, OwnerReply>(owner, { requestId, body }, timeoutMs);
  }

  pushSubject(): string {
    return `${pushSubjectPrefix(this.#id)}${++this.#subjects}`;
  }

  listen(subject: string, onPush: (push: BusPush<TableMessage>) => void): () => void {
    return this.options.bus.subscribeSealed(subject, (value) => {
      onPush(value as BusPush<TableMessage>);
    });
  }

  /**
   * Before leaving (SIGTERM): no new hand starts at the tables this member runs, and it waits up to
   * `ms` for the hands in play there to end, still answering the other members meanwhile, so that
   * the members taking its tables find no hand to cancel. A table whose hand still runs then is
   * handed over in play when another member is live: its actor stopped (nothing more written), its
   * lease released so marked, and the member taking it goes on with the hand from the journal. The
   * last member (no other live member that is not stopping too) keeps the rule of one process: it hands nothing over and returns the
   * leases it holds, for its tables to be closed by the crash rule (./room.ts `closeAsLast`); else [].
   */
  async finishHands(ms: number): Promise<readonly Lease[]> {
    this.#leaving = true;
    await this.options.registry.markLeaving(this.#id);
    const running = [...this.#tables.values()].filter((table) => table.local !== null);
    await Promise.all(
      running.flatMap((table) =>
        table.local === null ? [] : [table.local.control({ type: 'pause', paused: true })],
      ),
    );
    const inPlay = () =>
      running.filter((table) => table.local !== null && table.local.view(null).hand !== null);
    const until = Date.now() + ms;
    while (Date.now() < until && inPlay().length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Members stopping too take nothing: when all that are live are stopping, each is the last.
    const others = (await this.options.registry.liveMembers(true)).filter((id) => id !== this.#id);
    if (others.length === 0) {
      return running.flatMap((table) =>
        table.localEpoch === null ? [] : [{ tableId: table.id, epoch: table.localEpoch }],
      );
    }
    await Promise.all(inPlay().map((table) => this.#handOverInPlay(table)));
    return [];
  }

  /** Stops the table's actor, then releases its lease as handed over in play (./takeover.ts resumes it). */
  async #handOverInPlay(table: ClusterTable): Promise<void> {
    const local = table.local;
    const epoch = table.localEpoch;
    if (local === null || epoch === null) return;
    this.#drop(table);
    await local.dispose();
    await this.options.registry.release(this.#id, { tableId: table.id, epoch }, true);
    this.options.logger.info({ tableId: table.id, epoch }, 'table handed over in play');
  }

  /**
   * Leaves the cluster: the loops stop, the tables it ran are disposed (their hands stay in storage)
   * and its leases run out now, so that the others take them at once (the crash rule, table by table).
   */
  async stop(): Promise<void> {
    this.#leaving = true;
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#watchers.clear();
    this.#stopServing();
    this.#stopListening();
    await Promise.all([...this.#tables.values()].map((table) => table.dispose()));
    await this.options.registry.leave(this.#id);
  }
}
