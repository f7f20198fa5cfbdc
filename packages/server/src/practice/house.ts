/**
 * The room's house bots: one controller per practice table (a table whose configuration has
 * `houseBots`, ./config.ts), one roster of bot accounts for all, and a light poll of the practice
 * tables' audiences (every `pollMs`) that wakes a table's bots when a person comes to watch and sends
 * them away when nobody is left. No sockets: the bots drive their tables in process.
 */
import type { Roll } from '../bots/strategy.js';
import type { Table, TableClock, TableTimer } from '../table/types.js';
import { houseBotsOf } from './config.js';
import { PracticeTable } from './practice-table.js';
import { Roster, type RosterStorage } from './roster.js';

export interface HouseBotsOptions {
  readonly storage: RosterStorage;
  readonly clock: TableClock;
  /** Average think before each action, ms; default 900. */
  readonly thinkMs?: number;
  /** How often the practice tables' audiences are looked at, ms; default 1,000. */
  readonly pollMs?: number;
  readonly roll?: Roll;
  readonly onError?: (error: unknown) => void;
  /** Other processes' house bots use the same accounts (a room on several processes). */
  readonly shared?: boolean;
}

export class HouseBots {
  readonly #tables = new Map<string, PracticeTable>();
  readonly #roster: Roster;
  readonly #clock: TableClock;
  readonly #pollMs: number;
  readonly #poll: TableTimer;
  readonly #thinkMs: number;
  readonly #roll: Roll;
  readonly #onError: (error: unknown) => void;

  constructor(options: HouseBotsOptions) {
    this.#roster = new Roster(options.storage, options.shared);
    this.#clock = options.clock;
    this.#pollMs = options.pollMs ?? 1000;
    this.#thinkMs = options.thinkMs ?? 900;
    this.#roll = options.roll ?? Math.random;
    this.#onError =
      options.onError ??
      ((error) => {
        console.error('house bots:', error);
      });
    this.#poll = options.clock.timer(() => {
      this.#look();
      this.#poll.start(this.#pollMs);
    });
  }

  /**
   * Takes care of `table` if it is a practice table, playing on with the house bots it finds seated
   * there (a table taken over from another process, its seats restored).
   */
  add(table: Table): void {
    const houseBots = houseBotsOf(table.config);
    if (houseBots <= 0) return;
    const practice = new PracticeTable(table, houseBots, {
      roster: this.#roster,
      clock: this.#clock,
      thinkMs: this.#thinkMs,
      roll: this.#roll,
      onError: this.#onError,
    });
    this.#tables.set(table.id, practice);
    for (const seat of table.view(null).seats) {
      if (seat?.bot === true) practice.adopt({ account: seat.account, name: seat.name }, seat.seat);
    }
  }

  /** Another process runs the table now: its bots here stop (their seats stay, for that process's). */
  remove(tableId: string): void {
    this.#tables.get(tableId)?.stop();
    this.#tables.delete(tableId);
  }

  /** The practice table's controller (tests, figures). */
  practiceTable(tableId: string): PracticeTable | undefined {
    return this.#tables.get(tableId);
  }

  start(): void {
    if (!this.#poll.running) this.#poll.start(this.#pollMs);
  }

  /** Stops the poll and every bot (their seats are cashed out by the stop's crash rule like anyone's). */
  stop(): void {
    this.#poll.stop();
    for (const table of this.#tables.values()) table.stop();
  }

  /** Wakes the tables with a person and no bots yet, and those with bots (which may have to go). */
  #look(): void {
    for (const table of this.#tables.values()) if (table.botCount > 0 || table.personPresent()) table.poke();
  }
}
