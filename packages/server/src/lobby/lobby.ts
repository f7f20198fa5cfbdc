/**
 * The lobby: the room's tables, their summaries for the table list, the waiting lists, and the rule
 * that any number of players can find a seat — when every table of a kind (game, structure, currency,
 * stakes) is full, the lobby opens another of the same kind.
 *
 * The lobby owns no table state: it creates tables through the injected `open` factory, reads their
 * synchronous `summary()`, and routes nothing but the table list. Changes reach lobby subscribers by a
 * light poll of the summaries (every `pollMs`), which keeps the tables free of lobby callbacks.
 */
import type {
  LobbyTableMessage,
  LobbyTableRemovedMessage,
  TableSummary as WireTableSummary,
} from '@felt/protocol';
import type { AccountId, Table, TableConfig } from '../table/types.js';
import { houseBotsOf } from '../practice/config.js';
import { ledgerCurrency } from '../table/config.js';
import { MemoryWaitingLists, type SeatOfferSink, type WaitingLists } from './waiting-lists.js';

export interface LobbyOptions {
  readonly tables: readonly TableConfig[];
  /** Creates (and starts) a table actor. */
  readonly open: (config: TableConfig) => Table;
  /** How often the summaries are compared for changes; default 1,000 ms. */
  readonly pollMs?: number;
  /** Most tables the room will run (a bound against runaway growth); default 5,000. */
  readonly maxTables?: number;
  /** The waiting lists: in memory by default, in PostgreSQL for a room of several processes. */
  readonly waitingLists?: WaitingLists;
  /**
   * A table was taken out of the room (the staff closed it, its actor disposed): in a room of several
   * processes, every process lets it go and none takes it again.
   */
  readonly removed?: (tableId: string) => Promise<void>;
  /** The waiting lists could not be read or changed (the database is away): the next refresh tries again. */
  readonly onError?: (error: unknown) => void;
}

export interface LobbyFilter {
  readonly game?: string;
  readonly structure?: string;
  readonly currency?: string;
}

type LobbySink = (message: LobbyTableMessage | LobbyTableRemovedMessage) => void;

/**
 * How long a seat offered to the head of a waiting list is his alone to hear of: the next in line is
 * offered it only if it is still free then (one player at a time, not the whole list within seconds).
 */
export const SEAT_OFFER_MS = 30_000;

interface StandingOffer {
  readonly account: AccountId;
  readonly until: number;
}

/** The kind of a table: tables of one kind are interchangeable (a practice table is not an ordinary one). */
export function kindOf(config: TableConfig): string {
  const s = config.stakes;
  return [
    config.game,
    config.structure,
    config.currency,
    s.small,
    s.big,
    s.ante ?? '',
    s.bringIn ?? '',
    houseBotsOf(config),
  ].join('|');
}

export class Lobby {
  readonly #open: (config: TableConfig) => Table;
  readonly #maxTables: number;
  readonly #pollMs: number;
  readonly #tables = new Map<string, Table>();
  readonly #kinds = new Map<string, { readonly base: TableConfig; readonly tables: Table[] }>();
  readonly #waiting: WaitingLists;
  readonly #onError: (error: unknown) => void;
  readonly #removed: (tableId: string) => Promise<void>;
  /** The offers of the last refresh still being made (one round at a time). */
  #offering: Promise<void> | null = null;
  /** Each table's offers still standing (made by this process). */
  readonly #offers = new Map<string, StandingOffer[]>();
  readonly #lastSent = new Map<string, string>();
  readonly #subscribers = new Set<LobbySink>();
  #timer: NodeJS.Timeout | null = null;

  constructor(options: LobbyOptions) {
    this.#open = options.open;
    this.#maxTables = options.maxTables ?? 5000;
    this.#pollMs = options.pollMs ?? 1000;
    this.#waiting = options.waitingLists ?? new MemoryWaitingLists();
    this.#onError = options.onError ?? (() => undefined);
    this.#removed = options.removed ?? (() => Promise.resolve());
    for (const config of options.tables) this.#add(config, config);
  }

  /** Starts the periodic refresh (lobby pushes, waiting lists, extra tables). */
  start(): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => {
      void this.refresh();
    }, this.#pollMs);
    this.#timer.unref();
  }

  /** Where waiting-list seat offers go (the transport sends them to the account's connections). */
  onSeatOffer(sink: SeatOfferSink): void {
    this.#waiting.onOffer(sink);
  }

  table(id: string): Table | undefined {
    return this.#tables.get(id);
  }

  allTables(): Table[] {
    return [...this.#tables.values()];
  }

  list(filter: LobbyFilter = {}): WireTableSummary[] {
    const out: WireTableSummary[] = [];
    for (const table of this.#tables.values()) {
      const c = table.config;
      if (filter.game !== undefined && c.game !== filter.game) continue;
      if (filter.structure !== undefined && c.structure !== filter.structure) continue;
      if (filter.currency !== undefined && c.currency !== filter.currency) continue;
      out.push(this.summaryOf(table));
    }
    return out;
  }

  summaryOf(table: Table): WireTableSummary {
    const s = table.summary();
    return {
      tableId: s.id,
      name: s.name,
      game: s.game as WireTableSummary['game'],
      structure: s.structure,
      currency: ledgerCurrency(s.currency),
      stakes: s.stakes,
      stakesText: s.stakesText,
      seats: s.seatCount,
      taken: s.seated,
      free: s.free,
      waiting: this.#waiting.count(s.id),
      minBuyIn: s.minBuyIn,
      maxBuyIn: s.maxBuyIn,
      averagePot: s.averagePot,
      handsPerHour: s.handsPerHour,
      paused: s.paused,
    };
  }

  /** Changes from now on go to `sink` (which gets the whole list otherwise: `list()`). */
  subscribe(sink: LobbySink): () => void {
    if (this.#subscribers.size === 0) this.#pushChanges(false);
    this.#subscribers.add(sink);
    return () => this.#subscribers.delete(sink);
  }

  /** Joins the waiting list of a table; returns the position (1 = next). */
  waitlistJoin(tableId: string, account: AccountId): Promise<number> {
    return this.#waiting.join(tableId, account);
  }

  /** Leaves the table's waiting list; an offer made to him there ends (he took the seat, or not). */
  waitlistLeave(tableId: string, account: AccountId): Promise<void> {
    const offers = this.#offers.get(tableId)?.filter((offer) => offer.account !== account);
    if (offers !== undefined) this.#offers.set(tableId, offers);
    return this.#waiting.leave(tableId, account);
  }

  /**
   * Brings the lobby up to date: opens another table of each kind whose tables are all full, pushes
   * changed summaries to subscribers, and offers free seats to the heads of the waiting lists (done when
   * the promise resolves). Called by the poll and right after seat changes.
   */
  refresh(): Promise<void> {
    for (const kind of this.#kinds.values()) this.#openIfFull(kind);
    // Nobody to tell: the first subscriber gets the whole list, and the lobby remembers it then.
    if (this.#subscribers.size > 0) this.#pushChanges(true);
    this.#offering ??= this.#offerSeats()
      .catch(this.#onError)
      .finally(() => {
        this.#offering = null;
      });
    return this.#offering;
  }

  /** Offers each table's free seats not on offer already to the heads of its waiting list. */
  async #offerSeats(): Promise<void> {
    await this.#waiting.reload();
    const now = Date.now();
    for (const table of this.#tables.values()) {
      const standing = (this.#offers.get(table.id) ?? []).filter((offer) => offer.until > now);
      this.#offers.set(table.id, standing);
      if (this.#waiting.count(table.id) === 0) continue;
      const free = table.view(null).seats.flatMap((taken, seat) => (taken === null ? [seat] : []));
      const seat = free[standing.length];
      if (seat === undefined) continue;
      const account = await this.#waiting.takeHead(table.id);
      if (account === null) continue;
      standing.push({ account, until: now + SEAT_OFFER_MS });
      this.#waiting.offer(account, { op: 'waitlist-seat', tableId: table.id, seat });
    }
  }

  /** Pushes (or, `push` false, only remembers) each table summary that changed since last time. */
  #pushChanges(push: boolean): void {
    for (const table of this.#tables.values()) {
      const summary = this.summaryOf(table);
      const text = JSON.stringify(summary);
      if (this.#lastSent.get(table.id) === text) continue;
      this.#lastSent.set(table.id, text);
      if (!push) continue;
      const message: LobbyTableMessage = { op: 'lobby-table', table: summary };
      for (const sink of this.#subscribers) sink(message);
    }
  }

  /**
   * A seat was taken or freed at a table: when that makes every table of its kind full, another of the
   * kind opens at once (not at the next poll), so the next player always finds a seat.
   */
  seatsChanged(tableId: string): void {
    const table = this.#tables.get(tableId);
    if (!table) return;
    const kind = this.#kinds.get(kindOf(table.config));
    if (kind) this.#openIfFull(kind);
  }

  /** A table the staff open: its own kind, or one more of an existing kind. Throws naming what is wrong. */
  open(config: TableConfig): Table {
    if (this.#tables.has(config.id)) throw new Error(`a table ${config.id} is in the room already`);
    if (this.#tables.size >= this.#maxTables)
      throw new Error(`the room runs ${this.#maxTables} tables at most`);
    this.#add(config, config);
    if (this.#subscribers.size > 0) this.#pushChanges(true);
    return this.#tables.get(config.id)!;
  }

  /**
   * Takes a table out of the room (its players have left): off the list, its waiting list dropped,
   * subscribers told, the table disposed. A kind left without tables is forgotten, so that the lobby
   * does not open it again.
   */
  async remove(tableId: string): Promise<void> {
    const table = this.#tables.get(tableId);
    if (!table) return;
    this.#tables.delete(tableId);
    this.#waiting.drop(tableId).catch(this.#onError);
    this.#offers.delete(tableId);
    this.#lastSent.delete(tableId);
    for (const [key, kind] of this.#kinds) {
      const left = kind.tables.filter((other) => other !== table);
      if (left.length === kind.tables.length) continue;
      if (left.length === 0) this.#kinds.delete(key);
      else this.#kinds.set(key, { base: kind.base, tables: left });
    }
    const message: LobbyTableRemovedMessage = { op: 'lobby-table-removed', tableId };
    for (const sink of this.#subscribers) sink(message);
    await table.dispose();
    await this.#removed(tableId);
  }

  /** Stops the poll and disposes every table (each leaves its hand to the crash rule). */
  async dispose(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#subscribers.clear();
    await Promise.all([...this.#tables.values()].map((table) => table.dispose()));
  }

  #openIfFull(kind: { readonly base: TableConfig; readonly tables: Table[] }): void {
    if (this.#tables.size >= this.#maxTables) return;
    // Newest first: the table most likely to have a free seat is the one opened last.
    for (let i = kind.tables.length - 1; i >= 0; i--) if (kind.tables[i]!.summary().free > 0) return;
    const n = kind.tables.length + 1;
    let id = `${kind.base.id}-${n}`;
    for (let k = n + 1; this.#tables.has(id); k++) id = `${kind.base.id}-${k}`;
    this.#add({ ...kind.base, id, name: `${kind.base.name} #${n}` }, kind.base);
  }

  #add(config: TableConfig, base: TableConfig): void {
    const table = this.#open(config);
    this.#tables.set(config.id, table);
    const key = kindOf(base);
    const kind = this.#kinds.get(key);
    if (kind) kind.tables.push(table);
    else this.#kinds.set(key, { base, tables: [table] });
  }
}
