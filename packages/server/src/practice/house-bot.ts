/**
 * One house bot in its seat: it watches the table through its own subscription (which also makes it
 * connected, so the table deals it in) and answers each decision offered to its seat after thinking a
 * moment, by the strategy of `felt bots` (../bots/strategy.ts). It tells its table's controller of every
 * change of seats or hands, and acts through `table.handle` like any player, marked as a bot.
 */
import type { LegalView, WireHandAction } from '@felt/protocol';
import { chooseAction, runTwiceToAgree, safeAction, thinkTime, type Roll } from '../bots/strategy.js';
import type { PlayerRef, Table, TableClock, TableMessage } from '../table/types.js';
import type { HouseBotAccount } from './roster.js';

export interface HouseBotPace {
  /** Average think before each action (ms). */
  readonly thinkMs: number;
  readonly roll: Roll;
  /** Told how long each action took, sent to acknowledged (durable and announced), in ms. */
  readonly acted?: (ms: number) => void;
}

interface Decision {
  readonly handId: number;
  readonly action: WireHandAction;
  readonly safe: WireHandAction;
}

export class HouseBot {
  readonly who: HouseBotAccount;
  readonly #table: Table;
  readonly #player: PlayerRef;
  readonly #pace: HouseBotPace;
  readonly #changed: () => void;
  readonly #thinking;
  #decision: Decision | null = null;
  #seat: number | null = null;
  /** The hand whose run-it-twice offer it agreed to (once a hand). */
  #agreedIn: number | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(
    table: Table,
    who: HouseBotAccount,
    clock: TableClock,
    pace: HouseBotPace,
    changed: () => void,
  ) {
    this.who = who;
    this.#table = table;
    this.#player = { account: who.account, name: who.name, bot: true };
    this.#pace = pace;
    this.#changed = changed;
    this.#thinking = clock.timer(() => {
      this.#thought();
    });
  }

  get seat(): number | null {
    return this.#seat;
  }

  /** Watches the table and takes `seat` with `buyIn` chips (already in its balance); false when refused. */
  async sit(seat: number, buyIn: number): Promise<boolean> {
    this.#watch();
    const sat = await this.#table.handle(this.#player, {
      type: 'sit',
      seat,
      buyIn,
      post: 'post',
      autoPost: true,
      muckLosing: true,
    });
    if (!sat.ok) {
      this.#stopWatching();
      return false;
    }
    this.#seat = seat;
    return true;
  }

  /**
   * Plays `seat`, where a controller seats it (a tournament table): watching first, so that it is
   * connected, and so dealt in, from the moment it sits.
   */
  play(seat: number): void {
    this.#watch();
    this.#seat = seat;
  }

  /** Stands up (chips back to its balance) and stops watching. */
  async leave(): Promise<void> {
    this.#forget();
    await this.#table.handle(this.#player, { type: 'leave' });
    this.#seat = null;
    this.#stopWatching();
  }

  /** Stops thinking and watching without a word to the table (the room is stopping). */
  stop(): void {
    this.#forget();
    this.#stopWatching();
  }

  #onMessage(message: TableMessage): void {
    switch (message.type) {
      case 'legal-actions':
        if (message.legal.seat === this.#seat) this.#decide(message.handId, message.legal);
        break;
      case 'table-snapshot':
        if (runTwiceToAgree(message.view.hand, this.#seat) && this.#agreedIn !== message.view.hand?.handId) {
          this.#agreedIn = message.view.hand?.handId ?? null;
          void this.#table.handle(this.#player, { type: 'run-twice', accept: true });
        }
        this.#changed();
        break;
      case 'hand-summary':
        this.#changed();
        break;
      default:
        break;
    }
  }

  #decide(handId: number, legal: LegalView): void {
    const roll = this.#pace.roll;
    // Its own cards matter only to a discard: read them then, not followed event by event.
    const cards =
      legal.discard === null
        ? []
        : (this.#table.view(this.who.account).hand?.players.find((p) => p.seat === this.#seat)?.cards ?? []);
    this.#decision = { handId, action: chooseAction(legal, cards, roll), safe: safeAction(legal) };
    this.#thinking.start(thinkTime(this.#pace.thinkMs, 0.5, roll));
  }

  #thought(): void {
    const decision = this.#decision;
    this.#decision = null;
    if (decision !== null) void this.#act(decision.handId, decision.action, decision.safe);
  }

  /** Sends `action`; refused (it should not be), `safe` instead, once. */
  async #act(handId: number, action: WireHandAction, safe: WireHandAction | null): Promise<void> {
    const sent = performance.now();
    const result = await this.#table.handle(this.#player, { type: 'act', action, handId });
    this.#pace.acted?.(performance.now() - sent);
    if (
      !result.ok &&
      safe !== null &&
      result.error.code !== 'NO_SUCH_HAND' &&
      result.error.code !== 'NOT_YOUR_TURN'
    )
      await this.#act(handId, safe, null);
  }

  #watch(): void {
    this.#unsubscribe = this.#table.subscribe(this.who.account, (message) => {
      this.#onMessage(message);
    });
  }

  #forget(): void {
    this.#thinking.stop();
    this.#decision = null;
  }

  #stopWatching(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
