/**
 * The tournaments of a room on several processes. One member at a time directs all of them: the one
 * holding the room's tournaments lease (a row of `table_leases` of kind `tournaments`, ./registry.ts),
 * renewed with its tables' leases, run out when it dies or leaves, and taken by another live member
 * then. Whoever takes it opens the room's `TournamentRoom` on storage fenced by that lease (./fence.ts:
 * every checkpoint, entry, refund and prize is refused once the lease is another's) and starts it, which
 * resumes every run stored in play from its checkpoint exactly as a one-process restart does, and opens
 * the runs due — once for the whole room, since only the lease holder opens any.
 *
 * The tables of the tournaments are run by the director's process. Every process (the director's too)
 * shows each of them as a `ClusterTable`: the actor where it runs, elsewhere a proxy of the director
 * over the bus, whose watchers follow the tables from director to director (a takeover resumes them
 * under the same ids). The director publishes every second which tables it runs (settings, summary,
 * who sits where), and each notice to an entrant (`tournament-seat`, `-out`, `-end`) as it happens:
 * every process tells the entrant's connections there. The players' requests (`tournament-list`,
 * `-get`, `-register`, …) go to the director with a request id, retried with the same id while the
 * tournaments change hands, and answered once.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@felt/protocol';
import type { Logger } from '../log.js';
import { sqlStorage } from '../storage/sql-storage.js';
import type { SqlDriver } from '../storage/sql.js';
import type { Table, TableConfig, TableSummary, TableView } from '../table/types.js';
import {
  answerFrom,
  type DeskAnswer,
  type DeskAnswerTo,
  type DeskRequest,
  type TournamentService,
} from '../tournament/desk.js';
import type { TournamentNotice, TournamentRoom, TournamentRoomOptions } from '../tournament/room.js';
import { BusUnavailable, DEDUP_MS, type Bus } from './bus.js';
import { ClusterTable, type TableMember } from './cluster-table.js';
import { fencedDriver, type Fence } from './fence.js';
import type { ClusterMember } from './member.js';
import type { OwnerReply, OwnerRequest } from './owner-protocol.js';
import type { ClusterRegistry, MemberId } from './registry.js';
import { RemoteWatchers } from './watchers.js';

/** The lease's name: no table's id (those are letters, digits and `-_.`). */
export const TOURNAMENTS_LEASE = '#tournaments';
/** The director's tables, every second. */
const TABLES_SUBJECT = 'tournament-tables';
/** The director's notices to entrants, as they happen. */
const NOTICES_SUBJECT = 'tournament-notices';
/** How long a request waits for a director (a takeover takes a lease period and the resumption). */
const FORWARD_MS = 20_000;
const TRY_MS = 5_000;
const RETRY_GAP_MS = 250;

/** What members ask the director: a player's request, or one about a tournament table. */
type DirectorRequest =
  | { readonly kind: 'desk'; readonly request: DeskRequest }
  | { readonly kind: 'table'; readonly request: OwnerRequest };

type DirectorReply =
  { readonly owner: false } | { readonly owner: true; readonly answer: DeskAnswer<unknown> } | OwnerReply;

/** One tournament table as the director publishes it. */
interface TableNews {
  readonly config: TableConfig;
  readonly summary: TableSummary;
  /** The spectator's view (who sits where). */
  readonly view: TableView;
}

interface TablesNews {
  readonly member: MemberId;
  readonly epoch: number;
  readonly tables: readonly TableNews[];
}

interface NoticeNews {
  readonly member: MemberId;
  readonly epoch: number;
  readonly account: number;
  readonly notice: TournamentNotice;
  /** The table a `tournament-seat` names. */
  readonly table: TableNews | null;
}

export interface ClusterTournamentsOptions {
  readonly driver: SqlDriver;
  readonly registry: ClusterRegistry;
  readonly bus: Bus;
  readonly member: ClusterMember;
  /** The room's tournaments on `storage` (fenced by the lease), not started. */
  readonly open: (storage: TournamentRoomOptions['storage']) => TournamentRoom;
  /** Whether there is anything to direct: tournaments in the table file, or runs stored in play. */
  readonly wanted: () => Promise<boolean>;
  readonly logger: Logger;
  /** How often the lease is looked at; default 1,000 ms. */
  readonly tickMs?: number;
}

/** The tournaments this process directs now. */
interface Directing {
  readonly room: TournamentRoom;
  readonly fence: Fence;
  readonly stopServing: () => void;
  /** The actors of its tables, as last shown by their `ClusterTable`s. */
  readonly shown: Map<string, Table>;
}

/** Who directs the tournaments, as the last look saw it. */
type Director =
  | { readonly kind: 'here'; readonly directing: Directing }
  | { readonly kind: 'remote'; readonly member: MemberId; readonly epoch: number }
  /** Its lease ran out lately: another member is taking it. */
  | { readonly kind: 'moving' }
  /** Nobody directs any (the room has no tournaments). */
  | { readonly kind: 'none' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The actor under a `ClusterTable` that does not dispose it: the director closes its own tables. */
function undisposed(table: Table): Table {
  return {
    id: table.id,
    config: table.config,
    handle: (player, command) => table.handle(player, command),
    control: (command) => table.control(command),
    audience: () => table.audience(),
    subscribe: (viewer, sink) => table.subscribe(viewer, sink),
    summary: () => table.summary(),
    view: (viewer) => table.view(viewer),
    lastSummary: (viewer) => table.lastSummary(viewer),
    idle: () => table.idle(),
    dispose: () => Promise.resolve(),
  };
}

/** The answer of a room without tournaments. */
function nothing(request: DeskRequest): DeskAnswer<unknown> {
  if (request.kind === 'list') return { ok: true, value: [] };
  return { ok: false, code: ErrorCode.NO_SUCH_TOURNAMENT, message: `no tournament ${request.id}` };
}

const newsOf = (table: Table): TableNews => ({
  config: table.config,
  summary: table.summary(),
  view: table.view(null),
});

export class ClusterTournaments implements TournamentService {
  readonly #options: ClusterTournamentsOptions;
  #director: Director = { kind: 'none' };
  readonly #tables = new Map<string, ClusterTable>();
  readonly #watchers: RemoteWatchers;
  readonly #tableMember: TableMember;
  #sink: (account: number, notice: TournamentNotice) => void = () => undefined;
  #stopListening: (() => void)[] = [];
  /**
   * The notices of the runs being resumed, held until the room has them all: a table named in one is
   * found (`TournamentRoom.table`) only once its run is resumed.
   */
  #resuming: { readonly account: number; readonly notice: TournamentNotice }[] | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: ClusterTournamentsOptions) {
    this.#options = options;
    this.#watchers = new RemoteWatchers(options.bus);
    const { bus, member } = options;
    this.#tableMember = {
      get id() {
        return member.id;
      },
      ask: (owner, requestId, body, timeoutMs) =>
        bus.request<DirectorRequest, OwnerReply>(
          owner,
          { requestId, body: { kind: 'table', request: body } },
          timeoutMs,
          'tournaments',
        ),
      pushSubject: () => member.pushSubject(),
      listen: (subject, onPush) => member.listen(subject, onPush),
    };
  }

  /** This process directs the tournaments now (tests, `/health`). */
  get directing(): boolean {
    return this.#director.kind === 'here';
  }

  onNotice(sink: (account: number, notice: TournamentNotice) => void): void {
    this.#sink = sink;
  }

  /** Starts looking at the lease (after the member has joined): directing them once it holds it. */
  start(): Promise<void> {
    const { bus } = this.#options;
    this.#stopListening = [
      bus.subscribe(TABLES_SUBJECT, (value) => {
        this.#learnTables(value as TablesNews);
      }),
      bus.subscribe(NOTICES_SUBJECT, (value) => {
        this.#relay(value as NoticeNews);
      }),
    ];
    void this.#tick();
    return Promise.resolve();
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#look();
    } catch (error) {
      this.#options.logger.error({ err: error }, 'tournaments: the lease not looked at');
    }
    // Closed meanwhile: the next tick ends at once.
    this.#timer = setTimeout(() => void this.#tick(), this.#options.tickMs ?? 1000);
  }

  async #look(): Promise<void> {
    const { registry, member } = this.#options;
    const held = await registry.holder(TOURNAMENTS_LEASE);
    const director = this.#director;
    if (director.kind === 'here') {
      const { fence } = director.directing;
      const mine =
        held !== null &&
        held.memberId === fence.memberId &&
        held.epoch === fence.epoch &&
        held.expiresInMs > 0;
      if (mine) {
        this.#publishTables(director.directing);
        return;
      }
      this.#options.logger.warn({ epoch: fence.epoch }, 'tournaments lease lost');
      await this.#stopDirecting();
    }
    if (held !== null && held.expiresInMs > 0) {
      this.#director = { kind: 'remote', member: held.memberId, epoch: held.epoch };
      return;
    }
    // Ran out lately: someone is taking it (or nobody wants it any more, after two lease periods).
    const moving = held !== null && -held.expiresInMs < 2 * registry.leaseMs;
    this.#director = moving ? { kind: 'moving' } : { kind: 'none' };
    for (const table of this.#tables.values()) table.useNone();
    if (this.#stopped || member.id === 0 || !(await this.#options.wanted())) return;
    const lease = await registry.acquire(member.id, TOURNAMENTS_LEASE, 'tournaments');
    if (lease !== null) await this.#direct({ ...lease, memberId: member.id });
  }

  /** Directs the tournaments through `fence`: those in play resumed, those due opened. */
  async #direct(fence: Fence): Promise<void> {
    const { driver, bus, logger } = this.#options;
    const room = this.#options.open(sqlStorage(fencedDriver(driver, fence)));
    room.onNotice((account, notice) => {
      this.#notice(account, notice);
    });
    const directing: Directing = {
      room,
      fence,
      shown: new Map(),
      stopServing: () => undefined,
    };
    this.#director = { kind: 'here', directing };
    this.#resuming = [];
    try {
      await room.start();
    } catch (error) {
      this.#resuming = null;
      logger.error({ err: error, epoch: fence.epoch }, 'tournaments not taken');
      await this.#stopDirecting();
      await this.#options.registry.release(fence.memberId, fence);
      return;
    }
    const held = this.#resuming;
    this.#resuming = null;
    const stopServing = bus.serveMember(
      fence.memberId,
      (body) => this.#answer(body as DirectorRequest),
      DEDUP_MS,
      'tournaments',
    );
    this.#director = { kind: 'here', directing: { ...directing, stopServing } };
    this.#publishTables(this.#director.directing);
    for (const { account, notice } of held) this.#notice(account, notice);
    logger.info({ epoch: fence.epoch, runs: room.all().length }, 'tournaments taken');
  }

  async #stopDirecting(): Promise<void> {
    const director = this.#director;
    if (director.kind !== 'here') return;
    this.#director = { kind: 'moving' };
    director.directing.stopServing();
    this.#watchers.clear();
    for (const table of this.#tables.values()) table.useNone();
    await director.directing.room.close();
  }

  /** The running tables of the tournaments directed here, each shown by its `ClusterTable`. */
  #localTables(directing: Directing): Map<string, Table> {
    const tables = new Map<string, Table>();
    for (const director of directing.room.all()) {
      if (director.phase !== 'running') continue;
      for (const table of director.tables()) tables.set(table.id, table);
    }
    return tables;
  }

  /** The `ClusterTable` of a table the director runs here: its actor shown. */
  #showLocal(directing: Directing, actor: Table): ClusterTable {
    const table = this.#tableFor(actor.config);
    if (directing.shown.get(actor.id) !== actor || table.local === null) {
      directing.shown.set(actor.id, actor);
      table.useLocal(undisposed(actor), directing.fence.epoch);
    }
    return table;
  }

  #tableFor(config: TableConfig): ClusterTable {
    let table = this.#tables.get(config.id);
    if (table === undefined) {
      table = new ClusterTable(config, this.#tableMember);
      this.#tables.set(config.id, table);
    }
    return table;
  }

  /** Publishes the tables run here (and forgets those closed since). */
  #publishTables(directing: Directing): void {
    const running = this.#localTables(directing);
    for (const actor of running.values()) this.#showLocal(directing, actor);
    this.#forgetTablesBut(new Set(running.keys()));
    this.#watchers.keepTables(new Set(running.keys()));
    for (const id of [...directing.shown.keys()]) if (!running.has(id)) directing.shown.delete(id);
    const news: TablesNews = {
      member: directing.fence.memberId,
      epoch: directing.fence.epoch,
      tables: [...running.values()].map(newsOf),
    };
    this.#options.bus.publish(TABLES_SUBJECT, news);
  }

  #forgetTablesBut(keep: ReadonlySet<string>): void {
    for (const [id, table] of this.#tables) {
      if (keep.has(id)) continue;
      void table.dispose();
      this.#tables.delete(id);
    }
  }

  /** Another member's tables: proxies of them, at that member. */
  #learnTables(news: TablesNews): void {
    if (news.member === this.#options.member.id || this.#director.kind === 'here') return;
    for (const table of news.tables) this.#learnTable(news.member, news.epoch, table);
    this.#forgetTablesBut(new Set(news.tables.map((table) => table.config.id)));
  }

  #learnTable(member: MemberId, epoch: number, news: TableNews): void {
    const table = this.#tableFor(news.config);
    table.useRemote(member, epoch);
    table.learn(member, epoch, news.summary, news.view);
  }

  /** A notice of the tournaments directed here: to this process's connections and to every other. */
  #notice(account: number, notice: TournamentNotice): void {
    if (this.#resuming !== null) {
      this.#resuming.push({ account, notice });
      return;
    }
    const director = this.#director;
    let table: TableNews | null = null;
    if (director.kind === 'here' && notice.op === 'tournament-seat') {
      const actor = director.directing.room.table(notice.tableId);
      if (actor !== undefined) {
        this.#showLocal(director.directing, actor);
        table = newsOf(actor);
      }
    }
    this.#sink(account, notice);
    if (director.kind !== 'here') return;
    const { memberId, epoch } = director.directing.fence;
    const news: NoticeNews = { member: memberId, epoch, account, notice, table };
    this.#options.bus.publish(NOTICES_SUBJECT, news);
  }

  #relay(news: NoticeNews): void {
    if (news.member === this.#options.member.id || this.#director.kind === 'here') return;
    if (news.table !== null) this.#learnTable(news.member, news.epoch, news.table);
    this.#sink(news.account, news.notice);
  }

  async #answer(body: DirectorRequest): Promise<DirectorReply> {
    const director = this.#director;
    if (director.kind !== 'here') return { owner: false };
    const { room, fence } = director.directing;
    if (body.kind === 'desk') return { owner: true, answer: await answerFrom(room, body.request) };
    const actor = room.table(body.request.tableId);
    if (actor === undefined) return { owner: false };
    return this.#watchers.answer(actor, fence.epoch, body.request);
  }

  async ask<R extends DeskRequest>(request: R): Promise<DeskAnswerTo<R>> {
    const requestId = randomUUID();
    const until = Date.now() + FORWARD_MS;
    for (;;) {
      const director = this.#director;
      // Directing, once every run is resumed (until then, like waiting for a director elsewhere).
      if (director.kind === 'here' && this.#resuming === null)
        return (await answerFrom(director.directing.room, request)) as DeskAnswerTo<R>;
      if (director.kind === 'none') return nothing(request) as DeskAnswerTo<R>;
      if (director.kind === 'remote') {
        const reply = await this.#askDirector(director.member, requestId, request);
        if (reply !== null) return reply as DeskAnswerTo<R>;
      }
      if (Date.now() > until)
        return {
          ok: false,
          code: ErrorCode.SHUTTING_DOWN,
          message: 'the tournaments are moving to another server',
        };
      await sleep(RETRY_GAP_MS);
    }
  }

  /** The director's answer, or null when it does not answer as the director (any more). */
  async #askDirector(member: MemberId, requestId: string, request: DeskRequest) {
    try {
      const reply = await this.#options.bus.request<DirectorRequest, DirectorReply>(
        member,
        { requestId, body: { kind: 'desk', request } },
        TRY_MS,
        'tournaments',
      );
      return reply.owner && 'answer' in reply ? reply.answer : null;
    } catch (error) {
      if (error instanceof BusUnavailable) return null;
      throw error;
    }
  }

  table(tableId: string): Table | undefined {
    const director = this.#director;
    if (director.kind === 'here') {
      const actor = director.directing.room.table(tableId);
      return actor === undefined ? undefined : this.#showLocal(director.directing, actor);
    }
    return this.#tables.get(tableId);
  }

  /** Stops directing (its runs go on from their checkpoints wherever the lease goes next) and looking. */
  async close(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const stop of this.#stopListening) stop();
    await this.#stopDirecting();
    this.#forgetTablesBut(new Set());
  }
}
