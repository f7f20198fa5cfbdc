/**
 * Bots playing a tournament in process (tests, `felt bench`): a `SeatFollower` that puts a house bot
 * (../practice/house-bot.ts, the strategy of `felt bots`) on each seat the controller gives a bot
 * player, and takes it away when the player is moved or out.
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
