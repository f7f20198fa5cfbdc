/**
 * One bot: a protocol client that signs up, takes a seat the {@link Seater} finds it, and plays every
 * decision the server offers it (`legal-actions`) after thinking about `thinkMs` (± `thinkSpread`), by
 * the simple strategy of ./strategy.ts. It follows its own cards from the table's messages (for
 * discards), rebuys when it runs low, and, when its connection drops, reconnects with its session
 * token (`resume`) — to the next of the room's addresses when it has several (processes of one room:
 * the one it was on may be dead) — back in the same seat, or seated afresh when the server lost the
 * seat (a crash of a one-process room returns every chip). Seated, it contributes 32 random bytes (node:crypto) to each hand's deal, as
 * every player may (docs/fairness.md §4).
 *
 * In a tournament (`context.tournament`) it registers instead of taking a seat, and follows the room:
 * each `tournament-seat` names its table and seat (at the start, when moved), which it opens and plays;
 * it neither rebuys nor leaves there, and `finished` resolves with the tournament's end.
 */
import { randomBytes } from 'node:crypto';
import type { LegalView, TableView, WireHandAction } from '@felt/protocol';
import { realClock } from '../table/clock.js';
import { ProtocolClient, type Answer, type Push } from './client.js';
import type { Seater } from './seater.js';
import { BotStats } from './stats.js';
import { chooseAction, runTwiceToAgree, safeAction, thinkTime, type Roll } from './strategy.js';

export interface BotContext {
  /** The room's addresses (`ws://HOST:PORT`): one, or one per process of a room on several. */
  readonly urls: readonly string[];
  readonly thinkMs: number;
  /** Each think lasts thinkMs ± this fraction of it (see {@link thinkTime}). */
  readonly thinkSpread: number;
  readonly roll: Roll;
  readonly stats: BotStats;
  readonly seater: Seater;
  /** How long to keep retrying a connection (ms). */
  readonly connectForMs: number;
  /** Aborted when the run ends (stops reconnection attempts). */
  readonly signal: AbortSignal;
  /** A tournament to register for and play through, instead of cash tables. */
  readonly tournament?: string;
}

/** A seat request's outcome. */
export type SeatOutcome = 'seated' | 'full' | 'retry' | 'closed';

const CARD = /^[2-9TJQKA][cdhs]$/;

/**
 * Every bot's think timer in one heap (as the tables' clocks, ../table/clock.ts): a decision makes no
 * `Timeout` of its own, and keeps only what it will do, not the message that asked for it — what lives
 * through the think would fill the old generation of the bots' process, whose collections delay every
 * answer it measures.
 */
const timers = realClock();

/** What a bot thinks about doing, and the safest legal action should the server refuse it. */
interface Decision {
  readonly tableId: string;
  readonly handId: number;
  readonly action: WireHandAction;
  readonly safe: WireHandAction;
}

const CLOCK = Buffer.from('{"op":"clock",');
const TABLE_EVENT = Buffer.from('{"op":"table-event",');
const EVENT_TYPE = Buffer.from('"event":{"type":"');
const FOLLOWED_EVENTS = ['deal-hole"', 'deal-draw"', 'discard"'].map((type) => Buffer.from(type));

/** Whether `data` holds `bytes` at offset `at`, before `end`. */
const bytesAt = (data: Buffer, end: number, bytes: Buffer, at: number): boolean =>
  at + bytes.length <= end && data.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0;

/**
 * Messages a bot has no use for — clocks, and table events other than the deals and discards by which
 * it follows its cards — known by their first bytes (the server writes `op` first) and dropped
 * unread: decoding and parsing them took a fifth of the bots' time, on the cores of the server they
 * measure. Anything else, or anything not recognised, is read.
 */
export function unusedByBot(data: Buffer, start = 0, end = data.length): boolean {
  if (bytesAt(data, end, CLOCK, start)) return true;
  if (!bytesAt(data, end, TABLE_EVENT, start)) return false;
  const at = data.indexOf(EVENT_TYPE, start);
  if (at < 0 || at + EVENT_TYPE.length > end) return false;
  return !FOLLOWED_EVENTS.some((event) => bytesAt(data, end, event, at + EVENT_TYPE.length));
}

export class Bot {
  readonly name: string;
  readonly #password: string;
  readonly #context: BotContext;
  #client: ProtocolClient | null = null;
  /** Which of the room's addresses it tries first. */
  #address: number;
  #token: string | null = null;
  #playBalance = 0;
  /** The table it sits at (or is sitting down at), and its seat there. */
  #tableId: string | null = null;
  #seat: number | null = null;
  #handId: number | null = null;
  #cards: string[] = [];
  readonly #thinking = timers.timer(() => {
    this.#thought();
  });
  #decision: Decision | null = null;
  #rebuying = false;
  /** The commitment it last contributed to: one contribution per hand. */
  #contributedTo: string | null = null;
  /** The hand whose run-it-twice offer it agreed to (once a hand). */
  #agreedIn: number | null = null;
  #stopping = false;
  #reconnecting: Promise<void> | null = null;
  /** Off while signing up (the sign-up loop reconnects itself). */
  #reconnectOnClose = false;
  #registered = false;
  #finish: () => void = () => undefined;
  /** Resolves when its tournament is over (never outside one). */
  readonly finished = new Promise<void>((resolve) => {
    this.#finish = resolve;
  });

  /** `address`: which of the context's addresses it connects to first (the run spreads the bots). */
  constructor(name: string, password: string, context: BotContext, address = 0) {
    this.name = name;
    this.#address = address % context.urls.length;
    this.#password = password;
    this.#context = context;
  }

  #isStopping(): boolean {
    return this.#stopping;
  }

  /** Registered for the run's tournament. */
  get registered(): boolean {
    return this.#registered;
  }

  get seated(): boolean {
    return this.#tableId !== null && this.#seat !== null;
  }

  get tableId(): string | null {
    return this.#tableId;
  }

  get client(): ProtocolClient | null {
    return this.#client;
  }

  /** Connects (retrying), signs up and sits down; false when no seat could be had. */
  async start(): Promise<boolean> {
    // The server may go away in the middle (a restart) or fail the request (INTERNAL: seen from the
    // processes of a room on PostgreSQL on an overloaded machine): connect again if need be and, if
    // the first signup went through before it did, log in instead.
    let op: 'signup' | 'login' = 'signup';
    for (let attempt = 0; ; attempt++) {
      if (this.#client === null || this.#client.closed) await this.#connect(false);
      const answer = await this.#request(op, { name: this.name, password: this.#password });
      if (answer.ok) {
        this.#token = answer.data.token;
        this.#playBalance = answer.data.balances.play;
        break;
      }
      if (answer.code === 'CLOSED' || answer.code === 'TIMEOUT' || answer.code === 'INTERNAL') op = 'login';
      else if (
        !(op === 'login' && answer.code === 'BAD_CREDENTIALS') &&
        !(attempt > 0 && answer.code === 'NAME_TAKEN')
      )
        throw new Error(`${op} of ${this.name} refused: ${answer.code} ${answer.message}`);
      if (this.#context.signal.aborted || attempt >= 20)
        throw new Error(`${op} of ${this.name} failed: ${answer.code} ${answer.message}`);
      if (answer.code === 'BAD_CREDENTIALS') op = 'signup';
      else if (answer.code === 'NAME_TAKEN') op = 'login';
    }
    this.#reconnectOnClose = true;
    const tournament = this.#context.tournament;
    return tournament === undefined ? this.#context.seater.seat(this) : this.#register(tournament);
  }

  /** Registers for the tournament, topping the play balance up first if it is short. */
  async #register(tournamentId: string): Promise<boolean> {
    const got = await this.#request('tournament-get', { tournamentId });
    if (!got.ok) throw new Error(`tournament ${tournamentId}: ${got.code} ${got.message}`);
    const price = got.data.tournament.buyIn + got.data.tournament.fee;
    if (got.data.tournament.currency === 'play' && this.#playBalance < price)
      await this.#request('top-up', { amount: Math.max(price, 100_000) });
    const entered = await this.#request('tournament-register', { tournamentId });
    if (!entered.ok) throw new Error(`${this.name} could not register: ${entered.code} ${entered.message}`);
    this.#registered = true;
    return true;
  }

  /** Stops playing: leaves the seat (chips back to the balance) and closes the connection. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#forget();
    const client = this.#client;
    if (client === null || client.closed) return;
    if (this.#tableId !== null && this.#seat !== null && this.#context.tournament === undefined) {
      await this.#request('seat-leave', { tableId: this.#tableId }, 10_000);
    }
    client.close();
  }

  /**
   * Tries to sit at `tableId`: opens it to see the seats, takes a free one not `claimed` by another
   * bot of this run (the claim callback reserves it), and buys in.
   */
  async trySeat(
    tableId: string,
    claim: (seats: readonly number[]) => number | null,
    release: (seat: number) => void,
  ): Promise<SeatOutcome> {
    const client = this.#client;
    if (client === null || client.closed) return 'closed';
    this.#tableId = tableId;
    this.#seat = null;
    const snapshot = client.next(
      (m): m is Extract<Push, { op: 'table-snapshot' }> => m.op === 'table-snapshot' && m.tableId === tableId,
      15_000,
    );
    snapshot.catch(() => undefined);
    const opened = await this.#request('table-open', { tableId });
    if (!opened.ok) {
      this.#tableId = null;
      return opened.code === 'CLOSED' ? 'closed' : 'retry';
    }
    let view: TableView;
    try {
      view = (await snapshot).view;
    } catch {
      this.#tableId = null;
      return 'retry';
    }
    if (view.you !== null) {
      this.#seat = view.you;
      return 'seated';
    }
    const free = view.seats.flatMap((seat, index) => (seat === null ? [index] : []));
    const seat = claim(free);
    if (seat === null) {
      this.#tableId = null;
      await this.#request('table-close', { tableId });
      return 'full';
    }
    const buyIn = await this.#buyInFor(view.minBuyIn, view.maxBuyIn);
    const taken = await this.#request('seat-take', { tableId, seat, buyIn, post: 'post', autoPost: true });
    if (!taken.ok) {
      release(seat);
      this.#tableId = null;
      await this.#request('table-close', { tableId });
      return taken.code === 'CLOSED' ? 'closed' : 'retry';
    }
    this.#seat = seat;
    this.#playBalance = taken.data.balances.play;
    return 'seated';
  }

  // ------------------------------------------------------------------ connection

  async #connect(reconnectOnClose = true): Promise<void> {
    this.#reconnectOnClose = reconnectOnClose;
    const urls = this.#context.urls;
    const order = [...urls.slice(this.#address), ...urls.slice(0, this.#address)];
    const client = await ProtocolClient.connect(order, {
      retryForMs: this.#context.connectForMs,
      signal: this.#context.signal,
      skip: unusedByBot,
    });
    // A reconnection that lands after the run stopped would hold the bots' process open.
    if (this.#stopping || this.#context.signal.aborted) {
      client.terminate();
      throw new Error(`${this.name} stopped while connecting`);
    }
    this.#client = client;
    this.#address = urls.indexOf(client.url);
    client.onPush((message) => {
      this.#onPush(message);
    });
    client.onClose(() => {
      // The process it was on may be gone: the next address first.
      if (!this.#stopping) this.#address = (this.#address + 1) % urls.length;
      this.#forget();
      if (!this.#stopping && this.#reconnectOnClose) void this.#reconnect();
    });
  }

  /**
   * The connection dropped: back with the same session; seated again if the seat is gone. The process
   * it comes back to may not list the seat yet (a process of the room that just started learns the
   * tables from their owners within a second): it opens the table to be sure before it sits elsewhere.
   */
  #reconnect(): Promise<void> {
    this.#reconnecting ??= (async () => {
      while (!this.#stopping && !this.#context.signal.aborted) {
        try {
          await this.#connect();
        } catch {
          continue;
        }
        const resumed = this.#token === null ? null : await this.#request('resume', { token: this.#token });
        let tables: readonly string[] = [];
        if (resumed?.ok === true) {
          tables = resumed.data.tables;
          this.#playBalance = resumed.data.balances.play;
        } else {
          const login = await this.#request('login', { name: this.name, password: this.#password });
          if (!login.ok) {
            this.#client?.close();
            continue;
          }
          this.#token = login.data.token;
          this.#playBalance = login.data.balances.play;
        }
        this.#context.stats.reconnected();
        if (this.#tableId !== null && tables.includes(this.#tableId)) return; // the snapshot follows
        if (this.#context.tournament !== undefined) {
          // Moved (or out) while away: its one seat is the tournament table resume names, if any.
          this.#tableId = tables[0] ?? null;
          this.#seat = null;
          return;
        }
        if (this.#tableId !== null && (await this.#stillAt(this.#tableId))) return;
        if (this.#tableId !== null) void this.#request('table-close', { tableId: this.#tableId });
        this.#context.seater.lost(this);
        this.#tableId = null;
        this.#seat = null;
        if (!this.#isStopping()) await this.#context.seater.seat(this);
        return;
      }
    })().finally(() => {
      this.#reconnecting = null;
    });
    return this.#reconnecting;
  }

  /**
   * Whether its view of `tableId` (opened now) still seats it. A table whose owner died shows its view
   * only once another process has taken it over: that may take a lease's time.
   */
  async #stillAt(tableId: string): Promise<boolean> {
    const client = this.#client;
    if (client === null || client.closed) return false;
    const snapshot = client.next(
      (m): m is Extract<Push, { op: 'table-snapshot' }> => m.op === 'table-snapshot' && m.tableId === tableId,
      15_000,
    );
    snapshot.catch(() => undefined);
    const opened = await this.#request('table-open', { tableId });
    if (!opened.ok) return false;
    try {
      return (await snapshot).view.you !== null;
    } catch {
      return false;
    }
  }

  /** A request through the current connection, with its refusals counted. */
  async #request<O extends Parameters<ProtocolClient['request']>[0]>(
    op: O,
    fields: Readonly<Record<string, unknown>>,
    timeoutMs = 30_000,
  ): Promise<Answer<O>> {
    const client = this.#client;
    if (client === null) return { ok: false, code: 'CLOSED', message: 'not connected', ms: 0 };
    const answer = await client.request(op, fields, timeoutMs);
    if (!answer.ok) this.#context.stats.refused(op, answer.code);
    return answer;
  }

  // ------------------------------------------------------------------ play

  #onPush(message: Push): void {
    if (message.op === 'tournament-seat' || message.op === 'tournament-end') {
      if (message.tournamentId === this.#context.tournament) this.#follow(message);
      return;
    }
    if (!('tableId' in message) || message.tableId !== this.#tableId) return;
    switch (message.op) {
      case 'table-snapshot':
        this.#onView(message.view);
        break;
      case 'table-event': {
        if (message.handId !== this.#handId) {
          this.#handId = message.handId;
          this.#cards = [];
        }
        const event = message.event;
        if (!('seat' in event) || event.seat !== this.#seat) break;
        if (event.type === 'deal-hole' || event.type === 'deal-draw') this.#cards.push(...event.cards);
        else if (event.type === 'discard')
          this.#cards = this.#cards.filter((card) => !event.cards.includes(card));
        break;
      }
      case 'legal-actions':
        if (message.legal.seat === this.#seat) this.#decide(message.tableId, message.handId, message.legal);
        break;
      case 'hand-summary':
        this.#context.stats.handEnded(message.tableId, message.summary.handId);
        this.#cards = [];
        break;
      default:
        break;
    }
  }

  /** The tournament gives it a table (it opens it and plays there), or is over. */
  #follow(message: Extract<Push, { op: 'tournament-seat' | 'tournament-end' }>): void {
    const before = this.#tableId;
    if (message.op === 'tournament-end') {
      this.#tableId = null;
      this.#seat = null;
      this.#finish();
    } else {
      this.#forget();
      this.#tableId = message.tableId;
      this.#seat = message.seat;
      this.#handId = null;
      this.#cards = [];
      void this.#request('table-open', { tableId: message.tableId });
    }
    if (before !== null && before !== this.#tableId) void this.#request('table-close', { tableId: before });
  }

  /** A full view of its table (each hand starts with one): read, not kept (it is large). */
  #onView(view: TableView): void {
    if (view.you !== null) this.#seat = view.you;
    if (view.you !== null && view.fair !== null) void this.#contribute(view.tableId, view.fair.commitment);
    const hand = view.hand;
    if (hand !== null && runTwiceToAgree(hand, view.you) && this.#agreedIn !== hand.handId) {
      this.#agreedIn = hand.handId;
      void this.#request('run-twice', { tableId: view.tableId, accept: true });
    }
    const mine = hand?.players.find((player) => player.seat === view.you);
    if (hand !== null && mine !== undefined) {
      this.#handId = hand.handId;
      this.#cards = mine.cards.filter((card) => CARD.test(card));
    }
    if (mine === undefined && this.#context.tournament === undefined) void this.#maybeRebuy(view);
  }

  /**
   * Its 32 bytes for the hand whose commitment the view names. A hand that started before they arrived
   * refuses them (WRONG_COMMITMENT): not an error of the bot's — the next view names the next hand. In a
   * tournament the director may move or bust it between the view and its answer (NOT_SEATED), or break
   * the table it was at (NO_SUCH_TABLE): not its error either.
   */
  async #contribute(tableId: string, commitment: string): Promise<void> {
    const client = this.#client;
    if (this.#contributedTo === commitment || this.#stopping || client === null || client.closed) return;
    this.#contributedTo = commitment;
    const fields = { tableId, commitment, bytes: randomBytes(32).toString('hex') };
    const answer = await client.request('fair-contribute', fields);
    if (answer.ok || answer.code === 'WRONG_COMMITMENT') return;
    const moved = answer.code === 'NOT_SEATED' || answer.code === 'NO_SUCH_TABLE';
    if (moved && this.#context.tournament !== undefined) return;
    this.#context.stats.refused('fair-contribute', answer.code);
  }

  /** Between his hands, a bot low on chips tops his stack up (from the play balance, topped up if need be). */
  async #maybeRebuy(view: TableView): Promise<void> {
    const seat = view.you === null ? undefined : view.seats[view.you];
    if (this.#rebuying || this.#stopping || seat === null || seat === undefined) return;
    const target = view.maxBuyIn ?? 4 * view.minBuyIn;
    if (seat.stack >= view.minBuyIn / 2 || seat.stack >= target) return;
    this.#rebuying = true;
    try {
      const amount = target - seat.stack;
      if (this.#playBalance < amount) {
        const topped = await this.#request('top-up', { amount: Math.max(amount, 100_000) });
        if (topped.ok) this.#playBalance = topped.data.balances.play;
      }
      const rebought = await this.#request('rebuy', { tableId: view.tableId, amount });
      if (rebought.ok) this.#playBalance = rebought.data.balances.play;
    } finally {
      this.#rebuying = false;
    }
  }

  async #buyInFor(min: number, max: number | null): Promise<number> {
    const want = max ?? 4 * min;
    if (this.#playBalance < want) {
      const topped = await this.#request('top-up', { amount: Math.max(want, 100_000) });
      if (topped.ok) this.#playBalance = topped.data.balances.play;
    }
    return Math.max(min, Math.min(want, this.#playBalance));
  }

  #decide(tableId: string, handId: number, legal: LegalView): void {
    const roll = this.#context.roll;
    const ms = thinkTime(this.#context.thinkMs, this.#context.thinkSpread, roll);
    const action = chooseAction(legal, this.#cards, roll);
    this.#decision = { tableId, handId, action, safe: safeAction(legal) };
    this.#thinking.start(ms);
  }

  #thought(): void {
    const decision = this.#decision;
    this.#decision = null;
    if (decision === null || this.#stopping) return;
    void this.#act(decision.tableId, decision.handId, decision.action, decision.safe);
  }

  #forget(): void {
    this.#thinking.stop();
    this.#decision = null;
  }

  /** Sends `action`; if the server refuses it (it should not), `safe` instead, once. */
  async #act(
    tableId: string,
    handId: number,
    action: WireHandAction,
    safe: WireHandAction | null,
  ): Promise<void> {
    const client = this.#client;
    if (client === null || client.closed) return;
    const answer = await client.request('act', { tableId, handId, action }, 30_000);
    const stats = this.#context.stats;
    if (answer.ok) {
      stats.acted(answer.ms);
      return;
    }
    stats.refused('act', answer.code);
    if (
      safe !== null &&
      (answer.code === 'BAD_CARDS' || answer.code === 'BAD_AMOUNT' || answer.code === 'ILLEGAL_ACTION')
    )
      await this.#act(tableId, handId, safe, null);
  }
}
