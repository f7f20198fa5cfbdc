/**
 * Finds the bots of one run their seats: tables of the chosen kind (game, structure, play money), the
 * fullest table with a free seat first, so that tables fill up and play; each bot chooses a free seat
 * from the table's own view, never one another bot of the run is taking. When every known table is
 * full, it waits for the seat requests in flight (the lobby opens another table of the kind when the
 * last seat of the kind is taken) and reads the lobby again.
 */
import type { StructureName, TableSummary } from '@felt/protocol';
import type { Bot } from './bot.js';
import type { ProtocolClient } from './client.js';

export interface SeaterOptions {
  readonly game: string;
  /** Null: no-limit when the lobby has it for the game, else the structure of its first table. */
  readonly structure: StructureName | null;
  /** How long a bot keeps looking for a seat before it gives up (ms); default 60,000. */
  readonly patienceMs?: number;
}

/** The lobby has no table of the kind asked for: no bot can sit down. */
export class NoTableError extends Error {}

interface KnownTable {
  readonly tableId: string;
  /** Free seats as far as this run knows (the lobby's count minus the seats this run took since). */
  free: number;
  /** Seats a bot of this run is taking or holds. */
  readonly claimed: Set<number>;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export class Seater {
  readonly #game: string;
  #structure: StructureName | null;
  readonly #patienceMs: number;
  readonly #tables = new Map<string, KnownTable>();
  /** Bot → where it sits (to release the claim when it loses the seat). */
  readonly #holding = new Map<Bot, { tableId: string; seat: number }>();
  #inFlight = 0;
  #idle: (() => void)[] = [];
  #refreshing: Promise<void> | null = null;
  #listed = false;
  stopped = false;

  constructor(options: SeaterOptions) {
    this.#game = options.game;
    this.#structure = options.structure;
    this.#patienceMs = options.patienceMs ?? 60_000;
  }

  get structure(): StructureName | null {
    return this.#structure;
  }

  /** Tables this run seats bots at. */
  get tableCount(): number {
    return [...this.#tables.values()].filter((table) => table.claimed.size > 0).length;
  }

  /** Seats `bot` (connected and logged in); false when it found no seat in time. */
  async seat(bot: Bot): Promise<boolean> {
    const until = Date.now() + this.#patienceMs;
    let emptyLists = 0;
    while (!this.stopped && Date.now() < until) {
      const client = bot.client;
      if (client === null || client.closed) return false;
      const table = this.#pick();
      if (table === undefined) {
        const before = this.#tables.size;
        await this.#refresh(client, emptyLists);
        if (this.#pick() === undefined && this.#tables.size === before) emptyLists++;
        continue;
      }
      table.free--;
      this.#inFlight++;
      const hold: { seat: number | null } = { seat: null };
      try {
        const outcome = await bot.trySeat(
          table.tableId,
          (free) => {
            hold.seat = free.find((seat) => !table.claimed.has(seat)) ?? null;
            if (hold.seat !== null) table.claimed.add(hold.seat);
            return hold.seat;
          },
          (seat) => {
            table.claimed.delete(seat);
            hold.seat = null;
          },
        );
        if (outcome === 'seated') {
          if (hold.seat !== null) this.#holding.set(bot, { tableId: table.tableId, seat: hold.seat });
          return true;
        }
        if (outcome === 'closed') return false;
        if (outcome === 'full') table.free = 0;
        else {
          // Somebody else took the seat, or the table is gone: read the lobby again before long.
          table.free = 0;
          await sleep(50);
        }
      } finally {
        this.#inFlight--;
        if (this.#inFlight === 0) for (const wake of this.#idle.splice(0)) wake();
      }
    }
    return false;
  }

  /** The bot lost its seat (the server restarted): its seat is free for the next one. */
  lost(bot: Bot): void {
    const held = this.#holding.get(bot);
    if (!held) return;
    this.#holding.delete(bot);
    this.#tables.get(held.tableId)?.claimed.delete(held.seat);
    // The lobby may look quite different now: read it again.
    for (const table of this.#tables.values()) table.free = 0;
  }

  /** The fullest known table that still has a free seat. */
  #pick(): KnownTable | undefined {
    let best: KnownTable | undefined;
    for (const table of this.#tables.values()) {
      if (table.free <= 0) continue;
      if (best === undefined || table.free < best.free) best = table;
    }
    return best;
  }

  /** Reads the lobby again, once for all the bots waiting, after the seat requests in flight. */
  #refresh(client: ProtocolClient, attempt: number): Promise<void> {
    this.#refreshing ??= (async () => {
      if (this.#inFlight > 0) {
        await Promise.race([new Promise<void>((resolve) => this.#idle.push(resolve)), sleep(5000)]);
      }
      if (attempt > 0) await sleep(Math.min(1000, 50 * 2 ** attempt));
      const answer = await client.request(
        'lobby-list',
        {
          game: this.#game,
          currency: 'play',
          ...(this.#structure !== null ? { structure: this.#structure } : {}),
        },
        30_000,
      );
      if (!answer.ok) return;
      let tables: readonly TableSummary[] = answer.data.tables;
      if (this.#structure === null && tables.length > 0) {
        this.#structure = tables.some((t) => t.structure === 'no-limit') ? 'no-limit' : tables[0]!.structure;
        const structure = this.#structure;
        tables = tables.filter((t) => t.structure === structure);
      }
      if (!this.#listed && tables.length === 0)
        throw new NoTableError(
          `the lobby has no play-money table of ${this.#game}${this.#structure === null ? '' : ` ${this.#structure}`}`,
        );
      this.#listed = true;
      for (const summary of tables) {
        const known = this.#tables.get(summary.tableId);
        if (known) known.free = summary.free;
        else
          this.#tables.set(summary.tableId, {
            tableId: summary.tableId,
            free: summary.free,
            claimed: new Set(),
          });
      }
    })().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }
}
