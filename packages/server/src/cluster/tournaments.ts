/**
 * The tournaments of a room on several processes, each run leased like a table: a row of `table_leases`
 * of kind `tournament` named `#t:<run id>` (./registry.ts), renewed with the member's other leases, run
 * out when it dies or leaves. The runs stored in play are spread over the live members by load as the
 * tables are (./balance.ts, the runs counted apart from the tables): a member under its target takes
 * a run nobody holds, and resumes that one run from its checkpoint on storage fenced by the run's lease
 * (./fence.ts: its checkpoints, entries, refunds and prizes are refused once the lease is another's),
 * exactly as a one-process restart does — hands in progress cancelled by the crash rule, the level's
 * time kept. A member that loses a run's lease stops that run only. One over its target hands over
 * runs still registering (no table, no hand: nothing is cancelled); a run playing stays where it is.
 *
 * Opening the runs due happens once for the whole room: the member holding the small schedule lease
 * (`#tournaments`, kind `tournaments`, taken only when the table file has tournaments) stores them
 * (./tournament-schedule.ts) for the members to take.
 *
 * A run's tables are run by the process directing it (its hand-for-hand rounds and its balancing wait
 * for every table's hand end). Every process shows each of them as a `ClusterTable`: the actor where it
 * runs, elsewhere a proxy of the director over the bus. Each member publishes every second the tables
 * of the runs it directs (settings, summary, who sits where, its run's epoch), and each notice to an
 * entrant (`tournament-seat`, `-out`, `-end`) as it happens: every process tells the entrant's
 * connections there. A player's request about a run (`tournament-get`, `-register`, …) goes to the
 * run's holder with a request id, retried with the same id while the run changes hands, and answered
 * once; one about a run no longer in play is answered from the store. `tournament-list` asks every
 * member directing runs for them, and adds the last ended runs as the store has them, whoever directed
 * them.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, type TournamentSummary } from '@felt/protocol';
import type { Logger } from '../log.js';
import { sqlStorage } from '../storage/sql-storage.js';
import type { SqlDriver } from '../storage/sql.js';
import type { Table, TableClock, TableConfig, TableSummary, TableView } from '../table/types.js';
import { stillInPlay, storedCheckpoint } from '../tournament/checkpoint.js';
import {
  answerFrom,
  type DeskAnswer,
  type DeskAnswerTo,
  type DeskRequest,
  type TournamentService,
} from '../tournament/desk.js';
import { ClosedError, TournamentDirector } from '../tournament/director.js';
import {
  ENDED_RUNS_KEPT,
  type TournamentNotice,
  type TournamentRoom,
  type TournamentRoomOptions,
} from '../tournament/room.js';
import type { TournamentFile } from '../tournament/table-file.js';
import { summaryOf } from '../tournament/views.js';
import { cryptoRandomSource } from '../table/random.js';
import { loadOf } from './balance.js';
import { BusUnavailable, DEDUP_MS, type Bus } from './bus.js';
import { ClusterTable, type TableMember } from './cluster-table.js';
import { fencedDriver, type Fence } from './fence.js';
import type { ClusterMember } from './member.js';
import type { OwnerReply, OwnerRequest } from './owner-protocol.js';
import { runLease, type ClusterRegistry, type MemberId } from './registry.js';
import { openRunsDue } from './tournament-schedule.js';
import { RemoteWatchers } from './watchers.js';

/** The schedule's lease: no table's id (those are letters, digits and `-_.`). */
export const TOURNAMENTS_LEASE = '#tournaments';
/** Each member's tournament tables, every second. */
const TABLES_SUBJECT = 'tournament-tables';
/** The notices to entrants, as they happen. */
const NOTICES_SUBJECT = 'tournament-notices';
/** How long a request waits for a run's director (a takeover takes a lease period and the resumption). */
const FORWARD_MS = 20_000;
/** How long a list waits for every run in play to have a director, before answering without the others. */
const LIST_WAIT_MS = 5_000;
const TRY_MS = 5_000;
const RETRY_GAP_MS = 250;

/** What members ask a run's director: a player's request, or one about a tournament table. */
type DirectorRequest =
  | { readonly kind: 'desk'; readonly request: DeskRequest }
  | { readonly kind: 'table'; readonly request: OwnerRequest };

type DirectorReply =
  { readonly owner: false } | { readonly owner: true; readonly answer: DeskAnswer<unknown> } | OwnerReply;

/** One tournament table as its director publishes it. */
interface TableNews {
  readonly config: TableConfig;
  /** The epoch of its run's lease. */
  readonly epoch: number;
  readonly summary: TableSummary;
  /** The spectator's view (who sits where). */
  readonly view: TableView;
}

interface TablesNews {
  readonly member: MemberId;
  readonly tables: readonly TableNews[];
}

interface NoticeNews {
  readonly member: MemberId;
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
  /**
   * A room of the tournaments on `storage`, not started: playing the one run `run` (storage fenced by
   * its lease); without `run`, a room never started that reads the ended runs back from the store.
   */
  readonly open: (storage: TournamentRoomOptions['storage'], run?: string) => TournamentRoom;
  /** The table file's tournaments (read again at every poll of the schedule). */
  readonly file: () => Promise<TournamentFile>;
  readonly clock: TableClock;
  readonly logger: Logger;
  /** How often the leases are looked at; default 1,000 ms. */
  readonly tickMs?: number;
  /** How often the schedule's holder reads the table file; default 10 s. */
  readonly pollMs?: number;
}

/** A run this process directs. */
interface Directing {
  readonly id: string;
  readonly room: TournamentRoom;
  readonly fence: Fence;
  /** The actors of its tables, as last shown by their `ClusterTable`s. */
  readonly shown: Map<string, Table>;
}

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

const newsOf = (table: Table, epoch: number): TableNews => ({
  config: table.config,
  epoch,
  summary: table.summary(),
  view: table.view(null),
});

/** Whether `lease`, as the registry shows it now, is still the one `fence` was taken with. */
const holds = (
  fence: Fence,
  lease: { readonly memberId: MemberId; readonly epoch: number; readonly expiresInMs: number } | undefined,
): boolean =>
  lease !== undefined &&
  lease.memberId === fence.memberId &&
  lease.epoch === fence.epoch &&
  lease.expiresInMs > 0;

const over = (director: TournamentDirector | undefined) =>
  director === undefined || director.phase === 'finished' || director.phase === 'cancelled';

export class ClusterTournaments implements TournamentService {
  readonly #options: ClusterTournamentsOptions;
  /** The runs directed here, by id (each once resumed). */
  readonly #runs = new Map<string, Directing>();
  /** The schedule's lease, when held here. */
  #schedule: Fence | null = null;
  /** The table file as last read, and when. */
  #file: TournamentFile | null = null;
  #fileReadAt = 0;
  readonly #store: ReturnType<typeof sqlStorage>;
  /** Answers about the runs no longer in play, from the store. */
  readonly #archive: TournamentRoom;
  /** The last ended runs read back, by id (an ended run does not change). */
  #ended = new Map<string, TournamentDirector>();
  readonly #tables = new Map<string, ClusterTable>();
  /** Who runs each table in `#tables`: a member, or nobody while its run (`moving`) changes hands. */
  readonly #whose = new Map<string, MemberId | { readonly moving: string }>();
  /** Who directs each run, as the last look saw the leases. */
  #holders = new Map<string, MemberId>();
  readonly #watchers: RemoteWatchers;
  readonly #tableMember: TableMember;
  #sink: (account: number, notice: TournamentNotice) => void = () => undefined;
  #stopListening: (() => void)[] = [];
  #servedAs: MemberId = 0;
  #stopServing: () => void = () => undefined;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: ClusterTournamentsOptions) {
    this.#options = options;
    this.#store = sqlStorage(options.driver);
    this.#archive = options.open(this.#store);
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

  /** The runs this process directs now (tests). */
  directing(): string[] {
    return [...this.#runs.keys()];
  }

  onNotice(sink: (account: number, notice: TournamentNotice) => void): void {
    this.#sink = sink;
  }

  /** Starts looking at the leases (after the member has joined). */
  start(): Promise<void> {
    const { bus } = this.#options;
    this.#stopListening = [
      // A member speaks only for itself: news naming another member is not its to give.
      bus.subscribe(TABLES_SUBJECT, (value, from) => {
        const news = value as TablesNews;
        if (news.member === from) this.#learnTables(news);
      }),
      bus.subscribe(NOTICES_SUBJECT, (value, from) => {
        const news = value as NoticeNews;
        if (news.member === from) this.#relay(news);
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
      this.#options.logger.error({ err: error }, 'tournaments: the leases not looked at');
    }
    // Closed meanwhile: the next tick ends at once.
    this.#timer = setTimeout(() => void this.#tick(), this.#options.tickMs ?? 1000);
  }

  async #look(): Promise<void> {
    const { registry, member } = this.#options;
    if (member.id === 0) return;
    this.#serve(member.id);
    const view = await registry.view();
    const leases = new Map(view.runs.map((lease) => [lease.tournamentId, lease]));
    this.#holders = new Map(
      view.runs.filter((lease) => lease.expiresInMs > 0).map((lease) => [lease.tournamentId, lease.memberId]),
    );
    for (const directing of [...this.#runs.values()]) {
      const { fence } = directing;
      const lease = leases.get(directing.id);
      if (!holds(fence, lease)) {
        this.#options.logger.warn(
          { tournamentId: directing.id, epoch: fence.epoch },
          'tournament lease lost',
        );
        await this.#stopDirecting(directing, false);
      } else if (over(directing.room.get(directing.id))) {
        // Its last checkpoint is stored (closing waits for it): the store lists it from now on.
        await this.#stopDirecting(directing, true);
      }
    }
    await this.#lookAtSchedule();
    // Only the ids: a run's checkpoint is read by the member taking it (`#take`), not by every look.
    const inPlay = await this.#store.tournamentIdsInPlay();
    const load = loadOf({ members: view.members, leases: view.runs }, member.id, inPlay.length);
    let running = this.#runs.size;
    // The runs taken are resumed together: after a member dies its runs deal again sooner.
    const taking: Promise<void>[] = [];
    for (const id of inPlay) {
      if (this.#stopped || running >= load.target) break;
      const lease = leases.get(id);
      if (this.#runs.has(id) || (lease !== undefined && lease.expiresInMs > 0)) continue;
      const taken = await registry.acquire(member.id, runLease(id), 'tournament');
      if (taken === null) continue;
      running++;
      taking.push(this.#take(id, { ...taken, memberId: member.id }));
    }
    await Promise.all(taking);
    await this.#handOver(load.surplus);
    this.#forgetMoved(new Set(inPlay));
    this.#publishTables();
  }

  /** Answers the other members' requests for the runs directed here (under this member's id of now). */
  #serve(memberId: MemberId): void {
    if (memberId === this.#servedAs) return;
    this.#stopServing();
    this.#servedAs = memberId;
    this.#stopServing = this.#options.bus.serveMember(
      memberId,
      (body, from) => this.#answer(body as DirectorRequest, from),
      DEDUP_MS,
      'tournaments',
    );
  }

  /**
   * Holds the schedule's lease when nobody else does and the table file has tournaments, and opens the
   * runs due while it holds it.
   */
  async #lookAtSchedule(): Promise<void> {
    const { registry, member, driver, logger } = this.#options;
    const held = await registry.holder(TOURNAMENTS_LEASE);
    const schedule = this.#schedule;
    if (schedule !== null) {
      if (!holds(schedule, held ?? undefined)) {
        logger.warn({ epoch: schedule.epoch }, 'tournament schedule lease lost');
        this.#schedule = null;
      }
    }
    if (this.#schedule === null && (this.#stopped || (held !== null && held.expiresInMs > 0))) return;
    const file = await this.#readFile();
    if (file === null) return;
    if (this.#schedule === null) {
      if (file.entries.length === 0) return;
      const lease = await registry.acquire(member.id, TOURNAMENTS_LEASE, 'tournaments');
      if (lease === null) return;
      this.#schedule = { ...lease, memberId: member.id };
      logger.info({ epoch: lease.epoch }, 'tournament schedule taken');
    }
    const fenced = sqlStorage(fencedDriver(driver, this.#schedule));
    for (const id of await openRunsDue(fenced, file, this.#options.clock))
      logger.info({ tournamentId: id }, 'tournament open for registration');
  }

  /** The table file's tournaments, read again every poll (a broken file is logged, the last good one kept). */
  async #readFile(): Promise<TournamentFile | null> {
    if (Date.now() - this.#fileReadAt >= (this.#options.pollMs ?? 10_000)) {
      this.#fileReadAt = Date.now();
      try {
        this.#file = await this.#options.file();
      } catch (error) {
        this.#options.logger.error({ err: error }, 'tournaments: the table file cannot be read');
      }
    }
    return this.#file;
  }

  /** Directs run `id` through `fence`: resumed from its checkpoint. */
  async #take(id: string, fence: Fence): Promise<void> {
    const { driver, registry, logger } = this.#options;
    const room = this.#options.open(sqlStorage(fencedDriver(driver, fence)), id);
    const directing: Directing = { id, room, fence, shown: new Map() };
    // Held until the run is resumed: a table named in one is found (`room.table`) only then.
    let resuming: { readonly account: number; readonly notice: TournamentNotice }[] | null = [];
    room.onNotice((account, notice) => {
      if (resuming !== null) resuming.push({ account, notice });
      else this.#notice(directing, account, notice);
    });
    try {
      await room.start();
    } catch (error) {
      logger.error({ err: error, tournamentId: id, epoch: fence.epoch }, 'tournament not taken');
      await room.close();
      await registry.release(fence.memberId, fence);
      return;
    }
    this.#runs.set(id, directing);
    const held = resuming;
    resuming = null;
    for (const { account, notice } of held) this.#notice(directing, account, notice);
    logger.info({ tournamentId: id, epoch: fence.epoch }, 'tournament taken');
  }

  /**
   * Stops directing a run: its tables closed here (they wait for the next director), its room closed
   * once its last step is stored; `release`: its lease runs out now, for another member to take it.
   */
  async #stopDirecting(directing: Directing, release: boolean): Promise<void> {
    this.#runs.delete(directing.id);
    for (const tableId of directing.shown.keys()) {
      this.#watchers.dropTable(tableId);
      this.#tables.get(tableId)?.useNone();
      this.#whose.set(tableId, { moving: directing.id });
    }
    await directing.room.close();
    if (release) await this.#options.registry.release(directing.fence.memberId, directing.fence);
  }

  /**
   * Hands over up to `count` runs still registering (nothing of them plays yet) for a member under its
   * target: those with the fewest entrants first (the fewest registrations to wait for the new director).
   */
  async #handOver(count: number): Promise<void> {
    const entrants = (directing: Directing) => directing.room.get(directing.id)?.entrants ?? 0;
    const registering = [...this.#runs.values()]
      .filter((directing) => directing.room.get(directing.id)?.phase === 'registering')
      .sort((a, b) => entrants(a) - entrants(b));
    for (const directing of registering.slice(0, Math.max(0, count))) {
      await this.#stopDirecting(directing, true);
      this.#options.logger.info(
        { tournamentId: directing.id, epoch: directing.fence.epoch },
        'tournament handed over',
      );
    }
  }

  /** The running tables of a run directed here. */
  #localTables(directing: Directing): Table[] {
    const director = directing.room.get(directing.id);
    return director?.phase === 'running' ? director.tables() : [];
  }

  /** The `ClusterTable` of a table a run directed here runs: its actor shown. */
  #showLocal(directing: Directing, actor: Table): ClusterTable {
    const table = this.#tableFor(actor.config);
    this.#whose.set(actor.id, directing.fence.memberId);
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

  #forget(tableId: string): void {
    void this.#tables.get(tableId)?.dispose();
    this.#tables.delete(tableId);
    this.#whose.delete(tableId);
  }

  /** Publishes the tables run here (and forgets those closed since). */
  #publishTables(): void {
    const me = this.#options.member.id;
    const tables: TableNews[] = [];
    for (const directing of this.#runs.values()) {
      const running = this.#localTables(directing);
      for (const actor of running) {
        this.#showLocal(directing, actor);
        tables.push(newsOf(actor, directing.fence.epoch));
      }
      const ids = new Set(running.map((actor) => actor.id));
      for (const id of [...directing.shown.keys()]) if (!ids.has(id)) directing.shown.delete(id);
    }
    const ids = new Set(tables.map((news) => news.config.id));
    for (const [id, whose] of [...this.#whose]) if (whose === me && !ids.has(id)) this.#forget(id);
    this.#watchers.keepTables(ids);
    const news: TablesNews = { member: me, tables };
    this.#options.bus.publish(TABLES_SUBJECT, news);
  }

  /** Forgets the tables of runs that changed hands (resumed elsewhere under new ids) or ended. */
  #forgetMoved(inPlay: ReadonlySet<string>): void {
    for (const [id, whose] of [...this.#whose]) {
      if (typeof whose !== 'object') continue;
      if (!inPlay.has(whose.moving) || this.#holders.has(whose.moving)) this.#forget(id);
    }
  }

  /** Another member's tables: proxies of them, at that member. */
  #learnTables(news: TablesNews): void {
    if (news.member === this.#options.member.id) return;
    for (const table of news.tables) this.#learnTable(news.member, table);
    const ids = new Set(news.tables.map((table) => table.config.id));
    for (const [id, whose] of [...this.#whose]) if (whose === news.member && !ids.has(id)) this.#forget(id);
  }

  #learnTable(member: MemberId, news: TableNews): void {
    // A table run here is not another's until its run is lost here (the next look).
    if (this.#whose.get(news.config.id) === this.#options.member.id) return;
    const table = this.#tableFor(news.config);
    this.#whose.set(news.config.id, member);
    table.useRemote(member, news.epoch);
    table.learn(member, news.epoch, news.summary, news.view);
  }

  /** A notice of a run directed here: to this process's connections and to every other. */
  #notice(directing: Directing, account: number, notice: TournamentNotice): void {
    let table: TableNews | null = null;
    if (notice.op === 'tournament-seat') {
      const actor = directing.room.table(notice.tableId);
      if (actor !== undefined) {
        this.#showLocal(directing, actor);
        table = newsOf(actor, directing.fence.epoch);
      }
    }
    this.#sink(account, notice);
    const news: NoticeNews = { member: directing.fence.memberId, account, notice, table };
    this.#options.bus.publish(NOTICES_SUBJECT, news);
  }

  #relay(news: NoticeNews): void {
    if (news.member === this.#options.member.id) return;
    if (news.table !== null) this.#learnTable(news.member, news.table);
    this.#sink(news.account, news.notice);
  }

  /** The runs directed here, as `list` shows them to `account`. */
  #listHere(account: number): TournamentSummary[] {
    return [...this.#runs.values()].flatMap((directing) =>
      directing.room.all().map((director) => summaryOf(director, account)),
    );
  }

  async #answer(body: DirectorRequest, from: MemberId): Promise<DirectorReply> {
    if (body.kind === 'table') {
      for (const directing of this.#runs.values()) {
        const actor = directing.room.table(body.request.tableId);
        if (actor !== undefined) {
          return this.#watchers.answer(actor, directing.fence.epoch, body.request, from);
        }
      }
      return { owner: false };
    }
    const request = body.request;
    if (request.kind === 'list')
      return { owner: true, answer: { ok: true, value: this.#listHere(request.account) } };
    const answer = await this.#answerHere(request);
    return answer === null ? { owner: false } : { owner: true, answer };
  }

  /** The answer of the run's director here; null when it is not directed here (any more). */
  async #answerHere(request: Exclude<DeskRequest, { kind: 'list' }>): Promise<DeskAnswer<unknown> | null> {
    const directing = this.#runs.get(request.id);
    if (directing === undefined) return null;
    try {
      return await answerFrom(directing.room, request);
    } catch (error) {
      // Stopped meanwhile (its lease lost, handed over): its next director answers.
      if (error instanceof ClosedError) return null;
      throw error;
    }
  }

  async ask<R extends DeskRequest>(request: R): Promise<DeskAnswerTo<R>> {
    const asked: DeskRequest = request;
    const answer = asked.kind === 'list' ? await this.#list(asked.account) : await this.#askRun(asked);
    return answer as DeskAnswerTo<R>;
  }

  /** The answer of the run's director, wherever it is, or of the store once nobody directs the run. */
  async #askRun(request: Exclude<DeskRequest, { kind: 'list' }>): Promise<DeskAnswer<unknown>> {
    const requestId = randomUUID();
    const until = Date.now() + FORWARD_MS;
    for (;;) {
      const here = await this.#answerHere(request);
      if (here !== null) return here;
      const holder = await this.#options.registry.holder(runLease(request.id));
      if (holder !== null && holder.expiresInMs > 0) {
        if (holder.memberId !== this.#options.member.id) {
          const reply = await this.#askDirector(holder.memberId, requestId, request);
          if (reply !== null) return reply;
        }
      } else if (!(await this.#inPlay(request.id))) {
        // Nobody directs it and nobody will: ended (or no such run), answered from the store.
        return answerFrom(this.#archive, request);
      }
      if (Date.now() > until)
        return {
          ok: false,
          code: ErrorCode.SHUTTING_DOWN,
          message: 'the tournament is moving to another server',
        };
      await sleep(RETRY_GAP_MS);
    }
  }

  async #inPlay(id: string): Promise<boolean> {
    const stored = await this.#store.storedTournament(id);
    return stored !== null && stillInPlay(storedCheckpoint(stored));
  }

  /**
   * Every run of the room: those in play from the members directing them (waiting a little for those
   * changing hands), then the last ended, read back from the store.
   */
  async #list(account: number): Promise<DeskAnswer<TournamentSummary[]>> {
    const until = Date.now() + LIST_WAIT_MS;
    const listed = new Map<string, TournamentSummary>();
    for (;;) {
      listed.clear();
      for (const summary of this.#listHere(account)) listed.set(summary.tournamentId, summary);
      const me = this.#options.member.id;
      const members = new Set([...this.#holders.values()].filter((member) => member !== me));
      const lists = await Promise.all(
        [...members].map((member) => this.#askDirector(member, randomUUID(), { kind: 'list', account })),
      );
      for (const list of lists)
        if (list?.ok === true)
          for (const summary of list.value as TournamentSummary[]) listed.set(summary.tournamentId, summary);
      const inPlay = await this.#store.tournamentIdsInPlay();
      if (inPlay.every((id) => listed.has(id)) || Date.now() > until) break;
      await sleep(RETRY_GAP_MS);
    }
    const ended = await this.#endedRuns();
    const runs = [...listed.values()].sort((a, b) => a.tournamentId.localeCompare(b.tournamentId));
    for (const director of ended) if (!listed.has(director.id)) runs.push(summaryOf(director, account));
    return { ok: true, value: runs };
  }

  /** The last ended runs, the last ended first, read back from the store (each checkpoint once). */
  async #endedRuns(): Promise<TournamentDirector[]> {
    const kept = new Map<string, TournamentDirector>();
    for (const id of await this.#store.endedTournamentIds(ENDED_RUNS_KEPT)) {
      const director = this.#ended.get(id) ?? (await this.#readEnded(id));
      if (director !== null) kept.set(id, director);
    }
    this.#ended = kept;
    return [...kept.values()];
  }

  /** An ended run as its last checkpoint left it (its results, for the list). */
  async #readEnded(id: string): Promise<TournamentDirector | null> {
    const stored = await this.#store.storedTournament(id);
    if (stored === null) return null;
    return TournamentDirector.resume(storedCheckpoint(stored), {
      clock: this.#options.clock,
      random: cryptoRandomSource(),
      tableRandom: cryptoRandomSource,
    });
  }

  /** The director's answer, or null when it does not answer as the run's director (any more). */
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
    for (const directing of this.#runs.values()) {
      const actor = directing.room.table(tableId);
      if (actor !== undefined) return this.#showLocal(directing, actor);
    }
    return this.#tables.get(tableId);
  }

  /**
   * Stops directing and looking: each run directed here is closed (it goes on from its checkpoint) and
   * its lease released, as the schedule's, so that the other members take them at once.
   */
  async close(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const stop of this.#stopListening) stop();
    this.#stopServing();
    this.#watchers.clear();
    await Promise.all([...this.#runs.values()].map((directing) => this.#stopDirecting(directing, true)));
    const schedule = this.#schedule;
    this.#schedule = null;
    if (schedule !== null) await this.#options.registry.release(schedule.memberId, schedule);
    for (const id of [...this.#tables.keys()]) this.#forget(id);
  }
}
