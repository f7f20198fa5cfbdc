/**
 * Bots playing a tournament in process (tests, `felt bench`): a `SeatFollower` that puts a house bot
 * (../practice/house-bot.ts, the strategy of `felt bots`) on each seat the controller gives a bot
 * player, and takes it away when the player is moved or out; and a count of the decisions the tables'
 * action clocks took from them (none, when every bot is told of its decisions wherever it is moved).
 */
import type { Roll } from '../bots/strategy.js';
import { HouseBot } from '../practice/house-bot.js';
import type { AccountId, PlayerRef, Table, TableClock } from '../table/types.js';
import type { SeatFollower } from './director.js';

export interface TournamentBotPace {
  /** Average think before each action, ms. */
  readonly thinkMs: number;
  readonly roll: Roll;
  /** Told how long each action took, sent to acknowledged, in ms (the bench's latency). */
  readonly acted?: (ms: number) => void;
}

export class TournamentBots implements SeatFollower {
  readonly #clock: TableClock;
  readonly #pace: TournamentBotPace;
  /** The bot playing each seated player, by account and table. */
  readonly #playing = new Map<AccountId, { bot: HouseBot; table: Table }>();

  constructor(clock: TableClock, pace: TournamentBotPace) {
    this.#clock = clock;
    this.#pace = pace;
  }

  seated(player: PlayerRef, table: Table, seat: number): void {
    this.#playing.get(player.account)?.bot.stop();
    const bot = new HouseBot(
      table,
      { account: player.account, name: player.name },
      this.#clock,
      this.#pace,
      () => undefined,
    );
    bot.play(seat);
    this.#playing.set(player.account, { bot, table });
  }

  unseated(account: AccountId, table: Table): void {
    const playing = this.#playing.get(account);
    if (playing === undefined || playing.table !== table) return;
    playing.bot.stop();
    this.#playing.delete(account);
  }

  /** Bots still at a table. */
  get seatedCount(): number {
    return this.#playing.size;
  }

  stop(): void {
    for (const { bot } of this.#playing.values()) bot.stop();
    this.#playing.clear();
  }
}

/** `follower`, calling `watch` once for each table before its first player sits there (so before any hand). */
export function watchingTables(follower: SeatFollower, watch: (table: Table) => void): SeatFollower {
  const watched = new Set<Table>();
  return {
    seated: (player, table, seat) => {
      if (!watched.has(table)) {
        watched.add(table);
        watch(table);
      }
      follower.seated(player, table, seat);
    },
    unseated: (account, table) => {
      follower.unseated(account, table);
    },
  };
}

/**
 * `follower`, counting the decisions its tables' action clocks took: a decision whose answer (the
 * table's next event) comes at or after the deadline the table gave it.
 */
export function countingClockDecisions(
  follower: SeatFollower,
  clock: TableClock,
): { readonly follower: SeatFollower; taken(): number } {
  let taken = 0;
  const counting = watchingTables(follower, (table) => {
    let deadline: number | null = null;
    table.subscribe(null, (message) => {
      if (message.type === 'clock') deadline = message.deadline;
      else if (message.type === 'table-event' && deadline !== null) {
        if (clock.now() >= deadline) taken++;
        deadline = null;
      }
    });
  });
  return { follower: counting, taken: () => taken };
}
