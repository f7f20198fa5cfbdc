/**
 * The house bots of one practice table. While a person sits at or watches the table (its audience has
 * an account that is not a house bot's, or an anonymous viewer), bots keep `houseBots` seats filled,
 * less one for each person seated, and never the last free seats; a bot that must go stands up when it
 * is not in a hand (else after it), as does a bot short of chips (another takes its place with a fresh
 * buy-in). With nobody there, they finish their hand and leave, and the table costs nothing.
 *
 * The controller acts on a poke — from the room's poll, or from one of its bots when seats or hands
 * change — and makes one pass at a time over the table's own view.
 */
import type { Roll } from '../bots/strategy.js';
import type { Table, TableClock, TableTimer, TableView } from '../table/types.js';
import { SEATS_KEPT_FREE } from './config.js';
import { HouseBot } from './house-bot.js';
import type { HouseBotAccount, Roster } from './roster.js';

export interface PracticeDeps {
  readonly roster: Roster;
  readonly clock: TableClock;
  readonly thinkMs: number;
  readonly roll: Roll;
  readonly onError: (error: unknown) => void;
}

export class PracticeTable {
  readonly table: Table;
  readonly #houseBots: number;
  readonly #deps: PracticeDeps;
  /** Seated bots (and one being seated) by account. */
  readonly #bots = new Map<number, HouseBot>();
  readonly #poke: TableTimer;
  #busy = false;
  /** Passes asked for: one asked during a pass makes another. */
  #asked = 0;
  #stopped = false;

  constructor(table: Table, houseBots: number, deps: PracticeDeps) {
    this.table = table;
    this.#houseBots = houseBots;
    this.#deps = deps;
    // A poke from a bot's message is answered once the table's current command is over.
    this.#poke = deps.clock.timer(() => {
      void this.#reconcile();
    });
  }

  /** Bots at the table now. */
  get botCount(): number {
    return this.#bots.size;
  }

  /** Whether a person sits at or watches the table. */
  personPresent(): boolean {
    const audience = this.table.audience();
    return audience.anonymous > 0 || audience.accounts.some((account) => !this.#deps.roster.isBot(account));
  }

  /** Asks for a pass (soon, outside the table's command in progress). */
  poke(): void {
    if (!this.#stopped && !this.#poke.running) this.#poke.start(0);
  }

  /**
   * Plays a bot already in `seat` (its seat restored when this process took the table over), as if
   * it had sat down here.
   */
  adopt(who: HouseBotAccount, seat: number): void {
    this.#deps.roster.adopt(who);
    this.#bot(who).play(seat);
  }

  /**
   * The room is stopping, or another process runs the table now: the bots stop acting; their seats
   * are cashed out with everyone's, or kept for that process's bots.
   */
  stop(): void {
    this.#stopped = true;
    this.#poke.stop();
    for (const bot of this.#bots.values()) bot.stop();
  }

  async #reconcile(): Promise<void> {
    this.#asked++;
    if (this.#busy) return;
    this.#busy = true;
    try {
      let done: number;
      do {
        done = this.#asked;
        if (!this.#stopped) await this.#pass();
      } while (done !== this.#asked);
    } catch (error) {
      this.#deps.onError(error);
    } finally {
      this.#busy = false;
    }
  }

  async #pass(): Promise<void> {
    const view = this.table.view(null);
    const seated = view.seats.filter((seat) => seat !== null);
    const people = seated.filter((seat) => !this.#bots.has(seat.account)).length;
    const wanted = this.personPresent() ? Math.max(0, this.#houseBots - people) : 0;
    const playing = new Set((view.hand?.players ?? []).filter((p) => !p.folded).map((p) => p.seat));
    // Leave: first those short of chips, then as many as are too many, each only when out of the hand.
    let excess = this.#bots.size - wanted;
    for (const bot of [...this.#bots.values()]) {
      const seat = bot.seat === null ? null : view.seats[bot.seat];
      if (seat === null || seat === undefined || playing.has(seat.seat)) continue;
      if (excess > 0 || seat.stack < view.minBuyIn / 2) {
        excess--;
        await this.#leave(bot);
      }
    }
    const free = view.seats.flatMap((seat, index) => (seat === null ? [index] : []));
    const joining = Math.min(wanted - this.#bots.size, free.length - SEATS_KEPT_FREE);
    for (let i = 0; i < joining; i++) await this.#join(free[i]!, view);
  }

  async #leave(bot: HouseBot): Promise<void> {
    await bot.leave();
    this.#bots.delete(bot.who.account);
    this.#deps.roster.giveBack(bot.who);
  }

  /** A bot of this table's, playing as `who`. */
  #bot(who: HouseBotAccount): HouseBot {
    const { clock, thinkMs, roll } = this.#deps;
    const bot = new HouseBot(this.table, who, clock, { thinkMs, roll }, () => {
      this.poke();
    });
    this.#bots.set(who.account, bot);
    return bot;
  }

  async #join(seat: number, view: TableView): Promise<void> {
    const { roster } = this.#deps;
    const who = await roster.lend();
    const buyIn = view.maxBuyIn ?? 4 * view.minBuyIn;
    await roster.fund(who.account, buyIn);
    const bot = this.#bot(who);
    if (await bot.sit(seat, buyIn)) return;
    // The seat went to someone else meanwhile: look again.
    this.#bots.delete(who.account);
    roster.giveBack(who);
    this.#asked++;
  }
}
