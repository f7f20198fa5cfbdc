/**
 * The tournament controller: runs one sit & go or scheduled multi-table tournament in the room's
 * process, on Table II tables (../table/policies.ts: stakes from the level schedule, stacks handed in
 * and out by the controller, hands dealt one by one when it allows them, dead button). The rules are
 * the pure modules beside it; this module only applies them to live tables:
 *
 * - registration and unregistering (the buy-in and fee through `TournamentMoney`), the start (a sit &
 *   go when full, a scheduled tournament at its time or cancelled), late registration;
 * - the initial draw (./seating.ts), one table per drawn table;
 * - each table is allowed one hand at a time. When it reports the hand finished, its players out are
 *   taken out and placed (./places.ts), prizes paid as places are decided, then the tables are
 *   rebalanced (the player who is big blind next moves; tables broken; the final table drawn and dealt
 *   at a fresh table, which draws its own button), and every table between hands is allowed its next
 *   hand, at the level the clock (./clock.ts) stands at then;
 * - breaks: once a break is due no table is allowed a hand; when every table is between hands the
 *   break starts, and when it is over play goes on;
 * - hand-for-hand from the bubble: every table is allowed one hand together, and the next round waits
 *   until every table has finished; players out in one round share their places (TDA);
 * - mixed games: a table whose next hand is of another game is dealt by a fresh table of that game, the
 *   same players in the same seats with the same stacks;
 * - the final-table deal (./deal.ts): while one is proposed no hand is allowed; accepted by all, its
 *   prizes are paid and the tournament ends.
 *
 * Tournament chips never enter the money ledger: the tables write their hands to a `TournamentHandBook`.
 * Commands and table news are handled one at a time (a promise chain), as a table's mailbox does.
 */
import { fail, ok, type RandomSource, type Result } from '@felt/engine';
import type { TournamentClockView } from '@felt/protocol';
import { createTable } from '../table/actor.js';
import type { ControllerNews } from '../table/effects.js';
import type {
  AccountId,
  ClockConfig,
  PlayerRef,
  Table,
  TableClock,
  TableStakes,
  TableTimer,
} from '../table/types.js';
import {
  addOnOffer,
  chipsSold,
  prizePool,
  reEntryOffer,
  rebuyOffer,
  type BuyerState,
  type ChipsSold,
  type Offer,
  type PurchaseErrorCode,
} from './chips.js';
import type { DealCheckpoint, TournamentCheckpoint } from './checkpoint.js';
import {
  advanceClock,
  beginBreak,
  clockView,
  countHand,
  pauseClock,
  remainingMs,
  resumeClock,
  startClock,
  type LevelClock,
} from './clock.js';
import { DEAL_MS, dealAmounts, dealPlaces, unpaidPrizes, type Deal, type DealKind } from './deal.js';
import { TournamentHandBook } from './hand-book.js';
import { isHandForHand, placeEliminations, prizesOf, type Elimination, type Finish } from './places.js';
import { payoutTable, prizes as prizesFor } from './payouts.js';
import { registrationOpen, startDecision } from './registration.js';
import { ROTATION_START, afterHand, gameFor, type RotationState } from './rotation.js';
import {
  drawSeats,
  playersAt,
  rebalance,
  removePlayers,
  seatNewPlayer,
  totalPlayers,
  type SeatingTable,
} from './seating.js';
import { levelAt, seatsPerTable, type GameSpec, type TournamentDefinition } from './structure.js';
import { tableStakes } from './table-stakes.js';

export type TournamentErrorCode =
  | 'REGISTRATION_CLOSED'
  | 'ALREADY_REGISTERED'
  | 'NOT_REGISTERED'
  | 'ALREADY_STARTED'
  | EntryRefusal
  | PurchaseErrorCode
  | DealErrorCode;

/**
 * A deal refused: proposed away from the final table, while another is open; answered when none is
 * open, or before its amounts are known (the final table is finishing its hand).
 */
export type DealErrorCode = 'NOT_FINAL_TABLE' | 'DEAL_OPEN' | 'NO_DEAL_OPEN' | 'DEAL_PENDING';

/** What a player buys once he has entered. */
export type Purchase = 'rebuy' | 'add-on' | 're-entry';

/** Why the money of an entry was not taken: the balance is too low, or the ledger refused it otherwise. */
export type EntryRefusal = 'INSUFFICIENT_FUNDS' | 'PAYMENT_REFUSED';

export type TournamentPhase = 'registering' | 'running' | 'finished' | 'cancelled';

/** A purchase of an entry: `buyIn` cents to the prize pool, `fee` cents to the house. */
export interface EntryPrice {
  readonly buyIn: number;
  readonly fee: number;
}

/** The tournament's money (./money.ts over the ledger); without it, nothing is paid or taken. */
export interface TournamentMoney {
  /** Takes the buy-in to the prize pool and the fee to the house; refused when the balance is too low. */
  enter(account: AccountId, price: EntryPrice): Promise<Result<void, EntryRefusal>>;
  /** Gives the buy-in and fee back (unregistering, a cancelled tournament). */
  refund(account: AccountId, price: EntryPrice): Promise<void>;
  /** Pays a prize from the prize pool. */
  pay(account: AccountId, amount: number): Promise<void>;
}

/** Who follows the players from table to table (bots, the connections of people). */
export interface SeatFollower {
  /** Called before the player is seated, so that he watches (and is connected) when he sits. */
  seated(player: PlayerRef, table: Table, seat: number): void;
  unseated(account: AccountId, table: Table): void;
}

export interface DirectorDeps {
  readonly clock: TableClock;
  /** The draws (seats, moves, broken tables): the cryptographic source in production. */
  readonly random: RandomSource;
  /** A fresh source for each table's deck. */
  readonly tableRandom: () => RandomSource;
  readonly tableClocks?: Partial<ClockConfig>;
  readonly money?: TournamentMoney;
  readonly follower?: SeatFollower;
  /** After every hand has been dealt with (tests check the invariants here). */
  readonly observe?: (observation: Observation) => void;
  readonly onError?: (error: unknown) => void;
  /** Stores the tournament's checkpoint after every step (see ./checkpoint.ts). */
  readonly save?: (checkpoint: TournamentCheckpoint) => Promise<void>;
  /** A player's place is decided (his prize paid first), the winner's last. */
  readonly placed?: (result: Placed) => void;
}

/** An entrant as the tournament page shows him: his chips as of his table's last finished hand and those bought since. */
export interface EntrantStanding {
  readonly ref: PlayerRef;
  readonly stack: number;
  readonly out: boolean;
  readonly rebuys: number;
  readonly addOns: number;
  readonly reEntries: number;
}

export interface Observation {
  readonly tables: readonly SeatingTable[];
  /** Tables between hands (the others are dealing one, or allowed one). */
  readonly idle: ReadonlySet<number>;
  /** Chips in the players' stacks (as of each table's last finished hand). */
  readonly chips: number;
  readonly chipsSold: number;
}

/** A player's result: his place (shared with `tied` others) and prize in cents. */
export interface Placed extends Finish {
  readonly account: AccountId;
  readonly name: string;
  readonly prize: number;
}

export interface TournamentFigures {
  readonly entrants: number;
  readonly hands: number;
  readonly moves: number;
  /** Levels begun (the first counts). */
  readonly levels: number;
  readonly errors: number;
  /** Hand-for-hand rounds dealt (from the bubble). */
  readonly handForHandRounds: number;
  /** Whether the final table was drawn. */
  readonly finalTable: boolean;
  /** Tables opened again for another game of the rotation. */
  readonly gameChanges: number;
  /** Whether the chips in play always equalled the chips sold. */
  readonly conserved: boolean;
}

interface Entrant {
  readonly ref: PlayerRef;
  stack: number;
  out: boolean;
  /** Chips bought (rebuys, add-ons) during his hand: added to his stack when it ends. */
  pending: number;
  rebuys: number;
  addOns: number;
  reEntries: number;
  /** Each purchase's price, the entry first: a cancelled tournament gives each back. */
  paid: EntryPrice[];
}

interface LiveTable {
  readonly no: number;
  table: Table;
  game: GameSpec;
  stakes: TableStakes;
  rotation: RotationState;
  idle: boolean;
  /** The level its hand in progress was dealt at: the hand counts in that level when it finishes. */
  handLevel: number;
  /** Tables opened for this number (a new one per game change or for the final table). */
  generation: number;
}

interface Round {
  readonly pending: Set<number>;
  readonly out: Elimination[];
  readonly before: number;
}

const idOf = (account: AccountId): string => String(account);

const OFFERS = { rebuy: rebuyOffer, 'add-on': addOnOffer, 're-entry': reEntryOffer } as const;

const buyerOf = (e: Entrant): BuyerState => ({
  stack: e.stack + e.pending,
  playing: !e.out,
  rebuys: e.rebuys,
  addOns: e.addOns,
  reEntries: e.reEntries,
});

/** A command or table news after `close()`: refused, and not counted as an error. */
export class ClosedError extends Error {
  constructor(id: string) {
    super(`tournament ${id} is closed (the room is stopping)`);
  }
}

export class TournamentDirector {
  readonly id: string;
  readonly def: TournamentDefinition;
  readonly #deps: DirectorDeps;
  readonly #book = new TournamentHandBook();
  readonly #entrants = new Map<AccountId, Entrant>();
  readonly #tables = new Map<number, LiveTable>();
  readonly #results: Placed[] = [];
  readonly #seats: number;
  readonly #startTimer: TableTimer;
  readonly #breakTimer: TableTimer;
  readonly #dealTimer: TableTimer;
  #deal: Deal | null = null;
  #phase: TournamentPhase = 'registering';
  #seating: readonly SeatingTable[] = [];
  #clock: LevelClock | null = null;
  #round: Round | null = null;
  #prizes: number[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #moves = 0;
  #levels = 0;
  #errors = 0;
  #handForHandRounds = 0;
  #finalTable = false;
  #gameChanges = 0;
  #conserved = true;
  #closed = false;
  readonly #done: Promise<void>;
  #settle: () => void = () => undefined;

  constructor(id: string, def: TournamentDefinition, deps: DirectorDeps) {
    this.id = id;
    this.def = def;
    this.#deps = deps;
    this.#seats = seatsPerTable(def);
    this.#done = new Promise((resolve) => (this.#settle = resolve));
    this.#startTimer = deps.clock.timer(() => void this.#serial(() => this.#maybeStart()));
    this.#breakTimer = deps.clock.timer(() => void this.#serial(() => this.#allowHands()));
    this.#dealTimer = deps.clock.timer(() => void this.#serial(() => this.#endDeal()));
    if (def.kind === 'scheduled') this.#startTimer.start(Math.max(0, (def.startsAt ?? 0) - deps.clock.now()));
  }

  get phase(): TournamentPhase {
    return this.#phase;
  }

  /** Resolves when the tournament is finished or cancelled. */
  get done(): Promise<void> {
    return this.#done;
  }

  get entrants(): number {
    return this.#entrants.size;
  }

  playersLeft(): number {
    let n = 0;
    for (const e of this.#entrants.values()) if (!e.out) n++;
    return n;
  }

  /** The level being played (0-based), or null before the start. */
  level(): number | null {
    return this.#clock?.level ?? null;
  }

  /** The level clock as the players see it at this instant; null unless the tournament runs. */
  clock(): TournamentClockView | null {
    const clock = this.#clock;
    if (clock === null || this.#phase !== 'running') return null;
    return clockView(this.def, clock, this.#deps.clock.now());
  }

  /** The results so far, best place first. */
  results(): Placed[] {
    return [...this.#results].sort((a, b) => a.place - b.place);
  }

  /** The prizes by place, in cents (the payout table applied to the pool). */
  prizeList(): readonly number[] {
    return this.#prizes;
  }

  /** Every entrant, in order of registration. */
  standings(): EntrantStanding[] {
    return [...this.#entrants.values()].map((e) => ({
      ref: e.ref,
      stack: e.stack + e.pending,
      out: e.out,
      rebuys: e.rebuys,
      addOns: e.addOns,
      reEntries: e.reEntries,
    }));
  }

  tables(): Table[] {
    return [...this.#tables.values()].map((t) => t.table);
  }

  /** The deal proposed at the final table, if one is open. */
  deal(): Deal | null {
    return this.#deal;
  }

  /**
   * A player left at the final table proposes a deal (he accepts it by proposing). No hand is dealt
   * while it is open; its amounts are worked out from the stacks once the table is between hands.
   */
  proposeDeal(account: AccountId, kind: DealKind): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      const refused = this.#dealRefusal(account);
      if (refused !== null) return refused;
      if (this.#seating.length !== 1 || this.playersLeft() < 2)
        return fail('NOT_FINAL_TABLE', 'a deal is made at the final table');
      if (this.#deal !== null) return fail('DEAL_OPEN', 'a deal is already proposed');
      this.#deal = {
        kind,
        proposer: account,
        players: this.#left(),
        amounts: null,
        accepted: new Set([account]),
        expiresAt: null,
      };
      this.#holdClock();
      await this.#priceDeal();
      return ok(undefined);
    });
  }

  /** A player in the deal accepts it; when all have, its prizes are paid and the tournament ends. */
  acceptDeal(account: AccountId): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      const refused = this.#dealRefusal(account);
      if (refused !== null) return refused;
      const deal = this.#deal;
      if (deal === null || !deal.players.includes(account))
        return fail('NO_DEAL_OPEN', 'no deal is proposed');
      if (deal.amounts === null)
        return fail('DEAL_PENDING', 'the deal is worked out when the final table finishes its hand');
      this.#deal = { ...deal, accepted: new Set([...deal.accepted, account]) };
      await this.#priceDeal();
      return ok(undefined);
    });
  }

  /** A player in the deal declines it: it is off, and play goes on. */
  declineDeal(account: AccountId): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      const refused = this.#dealRefusal(account);
      if (refused !== null) return refused;
      if (this.#deal === null || !this.#deal.players.includes(account))
        return fail('NO_DEAL_OPEN', 'no deal is proposed');
      await this.#endDeal(true);
      return ok(undefined);
    });
  }

  figures(): TournamentFigures {
    return {
      entrants: this.#entrants.size,
      hands: this.#book.handsDealt,
      moves: this.#moves,
      levels: this.#levels,
      errors: this.#errors,
      handForHandRounds: this.#handForHandRounds,
      finalTable: this.#finalTable,
      gameChanges: this.#gameChanges,
      conserved: this.#conserved,
    };
  }

  /** Registers a player (his buy-in and fee taken); a late registration is seated at once. */
  register(player: PlayerRef): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      if (this.#entrants.has(player.account)) return fail('ALREADY_REGISTERED', 'already registered');
      const progress =
        this.#phase === 'registering'
          ? { started: false as const }
          : { started: true as const, level: this.#clock?.level ?? 0 };
      if (
        (this.#phase !== 'registering' && this.#phase !== 'running') ||
        !registrationOpen(this.def, progress, this.#entrants.size)
      )
        return fail('REGISTRATION_CLOSED', 'registration is closed');
      const paid = await this.#deps.money?.enter(player.account, this.#price());
      if (paid !== undefined && !paid.ok) return fail(paid.error.code, paid.error.message);
      this.#entrants.set(player.account, {
        ref: player,
        stack: this.def.startingChips,
        out: false,
        pending: 0,
        rebuys: 0,
        addOns: 0,
        reEntries: 0,
        paid: [this.#price()],
      });
      this.#prizes = this.#prizeTable();
      if (this.#phase === 'running') await this.#seatLate(player);
      else await this.#maybeStart();
      return ok(undefined);
    });
  }

  /** Unregisters a player before the start: his buy-in and fee back. */
  unregister(account: AccountId): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      if (!this.#entrants.has(account)) return fail('NOT_REGISTERED', 'not registered');
      if (this.#phase !== 'registering') return fail('ALREADY_STARTED', 'the tournament has started');
      this.#entrants.delete(account);
      await this.#deps.money?.refund(account, this.#price());
      this.#prizes = this.#prizeTable();
      return ok(undefined);
    });
  }

  /** Cancels the tournament: the tables closed, every entrant's buy-in and fee back. */
  cancel(): Promise<Result<void, 'FINISHED'>> {
    return this.#serial(async () => {
      if (this.#phase === 'finished' || this.#phase === 'cancelled') return fail('FINISHED', 'already over');
      this.#phase = 'cancelled';
      this.#stopTimers();
      await this.#closeTables();
      await this.#refundAll();
      this.#settle();
      return ok(undefined);
    });
  }

  /**
   * A rebuy, an add-on or a re-entry (./chips.ts offers), paid like the entry: its cost to the prize
   * pool, its fee to the house. The chips of a rebuy or add-on go to his stack at once between his
   * hands, else when his hand ends (so a player who busts in that hand plays on with them); a re-entry
   * seats him again with a starting stack. Refused once prizes are paid: the pool they came from is
   * closed.
   */
  buy(account: AccountId, purchase: Purchase): Promise<Result<void, TournamentErrorCode>> {
    return this.#serial(async () => {
      const entrant = this.#entrants.get(account);
      if (entrant === undefined) return fail('NOT_REGISTERED', 'not registered');
      if (this.#phase !== 'running' || this.#clock === null)
        return fail('NOT_PLAYING', 'the tournament is not running');
      const offer = OFFERS[purchase](this.def, buyerOf(entrant), this.#clock.level);
      if (!offer.ok) return offer;
      // The deal's amounts were worked out from the stacks as they stand.
      if (this.#deal !== null)
        return fail('DEAL_OPEN', 'a deal is proposed: nothing is sold until it is off');
      if (this.#results.some((r) => r.prize > 0))
        return fail('OUT_OF_WINDOW', 'prizes are being paid: the prize pool is closed');
      const price = { buyIn: offer.value.cost, fee: offer.value.fee };
      const paid = await this.#deps.money?.enter(account, price);
      if (paid !== undefined && !paid.ok) return fail(paid.error.code, paid.error.message);
      entrant.paid.push(price);
      if (purchase === 're-entry') await this.#reEnter(entrant, offer.value);
      else {
        if (purchase === 'rebuy') entrant.rebuys++;
        else entrant.addOns++;
        entrant.pending += offer.value.chips;
        const live = this.#tableOf(account);
        if (live?.idle === true) await this.#deliverChips(live);
      }
      this.#prizes = this.#prizeTable();
      return ok(undefined);
    });
  }

  /**
   * Stops it in this process (the room stopping): timers stopped, tables closed, and from now on
   * nothing runs or is stored, so the room's next start goes on from the last checkpoint.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    this.#stopTimers();
    for (const live of this.#tables.values()) await live.table.dispose();
  }

  /** Starts a scheduled tournament now if it is due (the room's tick; the start timer does the same). */
  tick(): Promise<void> {
    return this.#serial(() => this.#maybeStart());
  }

  /** The state to store (./checkpoint.ts): the clock paused as of now. */
  checkpoint(): TournamentCheckpoint {
    const clock = this.#clock;
    const paused = clock === null ? null : pauseClock(clock, this.#deps.clock.now());
    return {
      id: this.id,
      def: this.def,
      phase: this.#phase,
      entrants: [...this.#entrants.values()].map((e) => ({
        ref: e.ref,
        stack: e.stack,
        out: e.out,
        pending: e.pending,
        rebuys: e.rebuys,
        addOns: e.addOns,
        reEntries: e.reEntries,
        paid: [...e.paid],
      })),
      results: [...this.#results],
      prizes: [...this.#prizes],
      seating: this.#seating,
      tables: [...this.#tables.values()].map((t) => ({
        no: t.no,
        game: t.game,
        rotation: t.rotation,
        generation: t.generation,
      })),
      clock: paused === null ? null : paused.ok ? paused.value : clock,
      deal: this.#dealCheckpoint(),
      round:
        this.#round === null
          ? null
          : { pending: [...this.#round.pending], out: [...this.#round.out], before: this.#round.before },
      counts: {
        levels: this.#levels,
        moves: this.#moves,
        handForHandRounds: this.#handForHandRounds,
        finalTable: this.#finalTable,
        gameChanges: this.#gameChanges,
      },
    };
  }

  /**
   * A tournament going on from its checkpoint after a restart: the same players, stacks, seats, level
   * and remaining level time; its tables opened again (new table ids) and dealt on.
   */
  static async resume(checkpoint: TournamentCheckpoint, deps: DirectorDeps): Promise<TournamentDirector> {
    const director = new TournamentDirector(checkpoint.id, checkpoint.def, deps);
    await director.#serial(() => director.#restore(checkpoint));
    return director;
  }

  // ------------------------------------------------------------------------------------ internals

  async #restore(c: TournamentCheckpoint): Promise<void> {
    this.#stopTimers();
    for (const e of c.entrants)
      // The tables open afresh: chips bought during the hand the crash cancelled are in the stack now.
      this.#entrants.set(e.ref.account, {
        ref: e.ref,
        stack: e.stack + (e.pending ?? 0),
        out: e.out,
        pending: 0,
        rebuys: e.rebuys ?? 0,
        addOns: e.addOns ?? 0,
        reEntries: e.reEntries ?? 0,
        paid: e.paid ? [...e.paid] : [this.#price()],
      });
    this.#results.push(...c.results);
    this.#prizes = [...c.prizes];
    this.#seating = c.seating;
    this.#levels = c.counts.levels;
    this.#moves = c.counts.moves;
    this.#handForHandRounds = c.counts.handForHandRounds;
    this.#finalTable = c.counts.finalTable;
    this.#gameChanges = c.counts.gameChanges;
    this.#phase = c.phase;
    this.#clock = c.clock;
    if (c.phase === 'finished' || c.phase === 'cancelled') {
      this.#settle();
      return;
    }
    if (c.phase === 'registering') {
      if (c.def.kind === 'scheduled')
        this.#startTimer.start(Math.max(0, (c.def.startsAt ?? 0) - this.#deps.clock.now()));
      return;
    }
    this.#clock ??= startClock(this.#deps.clock.now());
    // A deal open at the crash is open again with its answers, and the level's time stays stopped.
    if (c.deal) this.#reopenDeal(c.deal);
    else this.#releaseClock();
    for (const seating of this.#seating) {
      const table = c.tables.find((t) => t.no === seating.id);
      const game = table?.game ?? this.def.games[0]!;
      await this.#open(seating, game, table);
    }
    if (c.round !== null) {
      // The round's tables whose hand the crash cancelled deal it again; the others wait for them.
      this.#round = { pending: new Set(c.round.pending), out: [...c.round.out], before: c.round.before };
      for (const no of c.round.pending) {
        const live = this.#tables.get(no);
        if (live !== undefined) await this.#allow(live);
      }
      return;
    }
    // A deal proposed during the hand the crash cancelled is worked out now, the table between hands.
    await this.#priceDeal();
    await this.#allowHands();
  }

  #reopenDeal(d: DealCheckpoint): void {
    const now = this.#deps.clock.now();
    this.#deal = {
      kind: d.kind,
      proposer: d.proposer,
      players: [...d.players],
      amounts: d.amounts === null ? null : [...d.amounts],
      accepted: new Set(d.accepted),
      expiresAt: d.remainingMs === null ? null : now + d.remainingMs,
    };
    if (d.remainingMs !== null) this.#dealTimer.start(d.remainingMs);
  }

  #dealCheckpoint(): DealCheckpoint | null {
    const deal = this.#deal;
    if (deal === null) return null;
    return {
      kind: deal.kind,
      proposer: deal.proposer,
      players: [...deal.players],
      amounts: deal.amounts === null ? null : [...deal.amounts],
      accepted: [...deal.accepted],
      remainingMs: deal.expiresAt === null ? null : Math.max(0, deal.expiresAt - this.#deps.clock.now()),
    };
  }

  /**
   * Stops the level's (or the break's) time while a deal is talked over: the players lose no blinds
   * to it. The levels whose time ran out before end first.
   */
  #holdClock(): void {
    if (this.#clock === null) return;
    const now = this.#deps.clock.now();
    this.#advance(advanceClock(this.def, this.#clock, now));
    const paused = pauseClock(this.#clock, now);
    if (paused.ok) this.#clock = paused.value;
    this.#breakTimer.stop();
  }

  /** Counts the clock's time again from now (a deal off, a restart); a break's timer runs for what it has left. */
  #releaseClock(): void {
    if (this.#clock === null) return;
    const now = this.#deps.clock.now();
    const resumed = resumeClock(this.#clock, now);
    if (!resumed.ok) return;
    this.#clock = resumed.value;
    if (resumed.value.phase === 'break')
      this.#breakTimer.start(remainingMs(this.def, resumed.value, now) ?? 0);
  }

  #serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => {
      if (this.#closed) throw new ClosedError(this.id);
      const result = await job();
      await this.#deps.save?.(this.checkpoint());
      return result;
    });
    this.#queue = run.catch((error: unknown) => {
      if (!(error instanceof ClosedError)) this.#fault(error);
    });
    return run;
  }

  #fault(error: unknown): void {
    this.#errors++;
    if (this.#deps.onError) this.#deps.onError(error);
    else console.error(`tournament ${this.id}:`, error);
  }

  #price(): EntryPrice {
    return { buyIn: this.def.buyIn, fee: this.def.fee };
  }

  /** The pool is everything sold; the places paid follow the players (a re-entry is not another player). */
  #prizeTable(): number[] {
    return prizesFor(prizePool(this.def, this.#sold()), payoutTable(this.#entrants.size, this.def.payouts));
  }

  #sold(): ChipsSold {
    let entries = 0;
    let rebuys = 0;
    let addOns = 0;
    for (const e of this.#entrants.values()) {
      entries += 1 + e.reEntries;
      rebuys += e.rebuys;
      addOns += e.addOns;
    }
    return { entries, rebuys, addOns };
  }

  #chipsSold(): number {
    return chipsSold(this.def, this.#sold());
  }

  /** Chips of the players still in: their stacks and the chips they bought that wait for their hand to end. */
  #chipsInPlay(): number {
    let chips = 0;
    for (const e of this.#entrants.values()) if (!e.out) chips += e.stack + e.pending;
    return chips;
  }

  async #refundAll(): Promise<void> {
    for (const [account, e] of this.#entrants)
      for (const price of e.paid) await this.#deps.money?.refund(account, price);
  }

  #stopTimers(): void {
    this.#startTimer.stop();
    this.#breakTimer.stop();
    this.#dealTimer.stop();
  }

  /** The accounts of the players still in, in order of registration. */
  #left(): AccountId[] {
    return [...this.#entrants].filter(([, e]) => !e.out).map(([account]) => account);
  }

  #dealRefusal(account: AccountId): Result<never, TournamentErrorCode> | null {
    const entrant = this.#entrants.get(account);
    if (entrant === undefined) return fail('NOT_REGISTERED', 'not registered');
    if (this.#phase !== 'running' || entrant.out)
      return fail('NOT_PLAYING', 'not playing in this tournament');
    return null;
  }

  /**
   * Works out the open deal's amounts once the final table is between hands (the players left then are
   * in it; the proposer out, it is off), and settles it when every player in it has accepted.
   */
  async #priceDeal(): Promise<void> {
    const deal = this.#deal;
    if (deal === null) return;
    if (deal.amounts === null) {
      if ([...this.#tables.values()].some((t) => !t.idle)) return;
      const players = this.#left();
      if (!players.includes(deal.proposer) || players.length < 2) return this.#endDeal(false);
      const stacks = players.map((a) => this.#entrant(idOf(a)).stack + this.#entrant(idOf(a)).pending);
      const amounts = dealAmounts(deal.kind, stacks, unpaidPrizes(this.#prizes, players.length));
      this.#deal = { ...deal, players, amounts, expiresAt: this.#deps.clock.now() + DEAL_MS };
      this.#dealTimer.start(DEAL_MS);
      return;
    }
    if (deal.players.every((a) => deal.accepted.has(a))) await this.#settleDeal(deal, deal.amounts);
  }

  /** The deal is off (declined, lapsed, or its proposer out): play goes on when `resume`. */
  async #endDeal(resume = true): Promise<void> {
    this.#deal = null;
    this.#dealTimer.stop();
    this.#releaseClock();
    if (resume) await this.#allowHands();
  }

  /**
   * Everybody accepted: each is paid his amount from the pool, and placed by chips (the biggest stack
   * first, equal stacks sharing a place), and the tournament is over.
   */
  async #settleDeal(deal: Deal, amounts: readonly number[]): Promise<void> {
    this.#deal = null;
    this.#phase = 'finished';
    this.#stopTimers();
    const stacks = new Map(deal.players.map((a) => [idOf(a), this.#entrant(idOf(a)).stack]));
    const amountOf = new Map(deal.players.map((a, i) => [idOf(a), amounts[i]!]));
    for (const live of [...this.#tables.values()])
      for (const id of stacks.keys()) await this.#unseat(live, id);
    for (const id of stacks.keys()) this.#entrant(id).out = true;
    // The lowest place first, the winner's last, as places are decided in play.
    const finishes = dealPlaces(stacks).sort((a, b) => b.place - a.place);
    for (const finish of finishes) await this.#award(finish, amountOf.get(finish.player) ?? 0);
    await this.#closeTables();
    this.#settle();
  }

  async #maybeStart(): Promise<void> {
    if (this.#phase !== 'registering') return;
    const decision = startDecision(this.def, this.#entrants.size, this.#deps.clock.now());
    if (decision === 'wait') return;
    if (decision === 'cancel') {
      this.#phase = 'cancelled';
      this.#stopTimers();
      await this.#refundAll();
      this.#settle();
      return;
    }
    this.#phase = 'running';
    this.#startTimer.stop();
    this.#clock = startClock(this.#deps.clock.now());
    this.#levels = 1;
    this.#seating = drawSeats([...this.#entrants.keys()].map(idOf), this.#seats, this.#deps.random);
    for (const seating of this.#seating) await this.#open(seating, this.def.games[0]!);
    await this.#allowHands();
  }

  #entrant(id: string): Entrant {
    const entrant = this.#entrants.get(Number(id));
    if (entrant === undefined) throw new Error(`no entrant ${id}`);
    return entrant;
  }

  /** Opens the table for `seating` dealing `game`, its players seated with their stacks. */
  async #open(
    seating: SeatingTable,
    game: GameSpec,
    previous?: Pick<LiveTable, 'generation' | 'rotation'>,
  ): Promise<LiveTable> {
    const generation = (previous?.generation ?? 0) + 1;
    const level = this.#clock?.level ?? 0;
    const live: LiveTable = {
      no: seating.id,
      game,
      stakes: tableStakes(levelAt(this.def, level), game),
      rotation: previous?.rotation ?? ROTATION_START,
      idle: true,
      handLevel: level,
      generation,
      table: null as unknown as Table,
    };
    live.table = createTable(
      {
        id: `${this.id}-${seating.id}${generation > 1 ? `-${generation}` : ''}`,
        name: `${this.def.name} · table ${seating.id}`,
        game: game.game,
        structure: game.structure,
        stakes: live.stakes,
        currency: 'chips',
        seats: this.#seats,
        ...(this.#deps.tableClocks ? { clocks: this.#deps.tableClocks } : {}),
      },
      {
        storage: this.#book,
        clock: this.#deps.clock,
        random: this.#deps.tableRandom(),
        policies: {
          stakes: { kind: 'schedule', at: () => live.stakes },
          chips: 'controller',
          handStart: 'controller',
          button: 'dead',
        },
        controller: (news) => void this.#serial(() => this.#news(live, news)),
        onError: (error) => {
          this.#fault(error);
        },
      },
    );
    this.#tables.set(seating.id, live);
    for (const [seat, id] of seating.seats.entries()) if (id !== null) await this.#seatAt(live, id, seat);
    return live;
  }

  /** `afterButton`: a late seat between the next button and small blind, dealt in once the button passes. */
  async #seatAt(live: LiveTable, id: string, seat: number, afterButton = false): Promise<void> {
    const entrant = this.#entrant(id);
    this.#deps.follower?.seated(entrant.ref, live.table, seat);
    // He sits between hands: the chips he bought come with him.
    entrant.stack += entrant.pending;
    entrant.pending = 0;
    const result = await live.table.control({
      type: 'seat',
      player: entrant.ref,
      seat,
      stack: entrant.stack,
      ...(afterButton ? { afterButton } : {}),
    });
    if (!result.ok) this.#fault(new Error(`seat ${id} at ${live.table.id}: ${result.error.message}`));
  }

  async #unseat(live: LiveTable, id: string): Promise<void> {
    const account = Number(id);
    const result = await live.table.control({ type: 'unseat', account });
    if (!result.ok) this.#fault(new Error(`unseat ${id} at ${live.table.id}: ${result.error.message}`));
    this.#deps.follower?.unseated(account, live.table);
  }

  async #close(live: LiveTable): Promise<void> {
    this.#tables.delete(live.no);
    await live.table.dispose();
  }

  async #closeTables(): Promise<void> {
    for (const live of [...this.#tables.values()]) await this.#close(live);
  }

  async #news(live: LiveTable, news: ControllerNews): Promise<void> {
    if (news.type !== 'hand-finished' || this.#phase !== 'running' || this.#tables.get(live.no) !== live)
      return;
    live.idle = true;
    // Counted when finished, not when allowed: a hand a crash cancels is not in any checkpoint's count,
    // so it is dealt again at the level it was dealt at. A hand of a level already over counts in none.
    if (this.#clock !== null && this.#clock.level === live.handLevel)
      this.#advance(countHand(this.def, this.#clock, String(live.no), this.#deps.clock.now()));
    live.rotation = afterHand(live.rotation, news.players.length);
    const positions = news.positions;
    if (positions !== null && positions.bigBlind !== null) {
      const lastButtonHand = {
        button: positions.button,
        smallBlind: positions.smallBlind ?? positions.button,
        bigBlind: positions.bigBlind,
      };
      this.#seating = this.#seating.map((t) => (t.id === live.no ? { ...t, lastButtonHand } : t));
    }
    for (const p of news.players) this.#entrant(idOf(p.account)).stack = p.finishingStack;
    await this.#deliverChips(live);
    // Odd cents of a shared prize go from the seat after the button (TDA), so list them in that order.
    const button = positions?.button ?? -1;
    const after = (seat: number) => (seat - button - 1 + 2 * this.#seats) % this.#seats;
    const busted = news.players
      .filter((p) => this.#entrant(idOf(p.account)).stack === 0)
      .sort((a, b) => after(a.seat) - after(b.seat));
    const out: Elimination[] = busted.map((p) => ({
      player: idOf(p.account),
      table: live.no,
      startingStack: p.startingStack,
    }));
    const before = this.playersLeft();
    for (const p of busted) {
      await this.#unseat(live, idOf(p.account));
      this.#entrant(idOf(p.account)).out = true;
    }
    this.#seating = removePlayers(this.#seating, new Set(out.map((e) => e.player)));
    this.#checkChips();
    await this.#priceDeal();
    if (this.#round !== null) {
      this.#round.out.push(...out);
      this.#round.pending.delete(live.no);
      if (this.#round.pending.size > 0) {
        this.#observe();
        return;
      }
      const round = this.#round;
      this.#round = null;
      if (round.out.length > 0) await this.#place(round.before, round.out);
    } else if (out.length > 0) await this.#place(before, out);
    if (this.playersLeft() <= 1) return this.#finish();
    await this.#rebalance();
    await this.#allowHands();
    this.#observe();
  }

  #checkChips(): void {
    const chips = this.#chipsInPlay();
    if (chips !== this.#chipsSold()) {
      this.#conserved = false;
      this.#fault(new Error(`chips ${chips} in play, ${this.#chipsSold()} sold`));
    }
  }

  #observe(): void {
    const observe = this.#deps.observe;
    if (observe === undefined) return;
    const chips = this.#chipsInPlay();
    const idle = new Set([...this.#tables.values()].filter((t) => t.idle).map((t) => t.no));
    observe({ tables: this.#seating, idle, chips, chipsSold: this.#chipsSold() });
  }

  async #place(before: number, out: readonly Elimination[]): Promise<void> {
    const finishes = placeEliminations(before, out);
    const prizes = prizesOf(finishes, this.#prizes);
    for (const finish of finishes) await this.#award(finish, prizes.get(finish.player) ?? 0);
  }

  async #award(finish: Finish, prize: number): Promise<void> {
    const entrant = this.#entrant(finish.player);
    const placed = { ...finish, account: entrant.ref.account, name: entrant.ref.name, prize };
    this.#results.push(placed);
    if (prize > 0) await this.#deps.money?.pay(entrant.ref.account, prize);
    this.#deps.placed?.(placed);
  }

  async #finish(): Promise<void> {
    this.#deal = null;
    const winner = [...this.#entrants.entries()].find(([, e]) => !e.out);
    this.#phase = 'finished';
    this.#stopTimers();
    if (winner !== undefined) {
      const [account, entrant] = winner;
      const live = [...this.#tables.values()].find((t) =>
        t.table.view(null).seats.some((s) => s?.account === account),
      );
      if (live !== undefined) await this.#unseat(live, idOf(account));
      entrant.out = true;
      await this.#award({ player: idOf(account), place: 1, tied: 1 }, this.#prizes[0] ?? 0);
    }
    await this.#closeTables();
    this.#settle();
  }

  /** The live table `account` is seated at in the seating, if any. */
  #tableOf(account: AccountId): LiveTable | undefined {
    const seating = this.#seating.find((t) => t.seats.includes(idOf(account)));
    return seating === undefined ? undefined : this.#tables.get(seating.id);
  }

  /** Adds the chips bought by the players at `live`, which is between their hands. */
  async #deliverChips(live: LiveTable): Promise<void> {
    const seating = this.#seating.find((t) => t.id === live.no);
    for (const id of seating?.seats ?? []) {
      if (id === null) continue;
      const entrant = this.#entrant(id);
      if (entrant.pending === 0) continue;
      const chips = entrant.pending;
      const added = await live.table.control({ type: 'add-chips', account: entrant.ref.account, chips });
      if (!added.ok) {
        this.#fault(new Error(`add ${chips} chips for ${id} at ${live.table.id}: ${added.error.message}`));
        continue;
      }
      entrant.stack += chips;
      entrant.pending = 0;
    }
  }

  /**
   * A player out enters again: his place is given back, and everybody placed since him or with him
   * moves down one place, as one more player is in again (those who shared his place share one place
   * fewer). No prize has been paid yet (`buy`), so none moves. He is seated like a late registration.
   */
  async #reEnter(entrant: Entrant, offer: Offer): Promise<void> {
    const id = idOf(entrant.ref.account);
    const placed = this.#results.findIndex((r) => r.player === id);
    if (placed >= 0) {
      const { place } = this.#results[placed]!;
      this.#results.splice(placed, 1);
      for (const [i, r] of this.#results.entries()) {
        if (r.place > place) continue;
        this.#results[i] = { ...r, place: r.place + 1, tied: r.place === place ? r.tied - 1 : r.tied };
      }
    }
    if (this.#round !== null) {
      const out = this.#round.out.filter((e) => e.player !== id);
      this.#round.out.splice(0, this.#round.out.length, ...out);
    }
    entrant.reEntries++;
    entrant.out = false;
    entrant.stack = offer.chips;
    entrant.pending = 0;
    await this.#seatLate(entrant.ref);
  }

  async #seatLate(player: PlayerRef): Promise<void> {
    const seated = seatNewPlayer(this.#seating, idOf(player.account), this.#seats, this.#deps.random);
    this.#seating = seated.tables;
    const { table, seat, dealtIn } = seated.placement;
    const live = this.#tables.get(table);
    if (live === undefined) {
      const fresh = this.#seating.find((t) => t.id === table)!;
      await this.#open(fresh, this.#gameOf(fresh.id));
    } else await this.#seatAt(live, idOf(player.account), seat, dealtIn === 'after-button');
    await this.#rebalance();
    await this.#allowHands();
  }

  #gameOf(table: number): GameSpec {
    const live = this.#tables.get(table);
    return gameFor(this.def, this.#clock?.level ?? 0, live?.rotation ?? ROTATION_START);
  }

  #idleTables(): Set<number> {
    return new Set([...this.#tables.values()].filter((t) => t.idle).map((t) => t.no));
  }

  /** Balancing, broken tables and the final table, with the tables between hands. */
  async #rebalance(): Promise<void> {
    const result = rebalance(this.#seating, this.#seats, this.#deps.random, this.#idleTables());
    if (result.moves.length === 0 && result.broken.length === 0) return;
    this.#moves += result.moves.length;
    for (const move of result.moves) {
      const from = this.#tables.get(move.from.table);
      if (from !== undefined) await this.#unseat(from, move.to.player);
    }
    this.#seating = result.tables;
    if (result.finalTable) {
      this.#finalTable = true;
      // The final table is a fresh table: its button is drawn there, as at the start.
      const previous = this.#tables.get(result.tables[0]!.id);
      await this.#closeTables();
      await this.#open(result.tables[0]!, previous?.game ?? this.def.games[0]!, previous);
      return;
    }
    for (const id of result.broken) {
      const live = this.#tables.get(id);
      if (live !== undefined) await this.#close(live);
    }
    for (const move of result.moves) {
      const to = this.#tables.get(move.to.table);
      if (to !== undefined) await this.#seatAt(to, move.to.player, move.to.seat);
    }
  }

  /** Allows the next hand at every table between hands, as the clock, breaks and hand-for-hand permit. */
  async #allowHands(): Promise<void> {
    if (this.#phase !== 'running' || this.#clock === null || this.#deal !== null) return;
    const now = this.#deps.clock.now();
    this.#advance(advanceClock(this.def, this.#clock, now));
    const idle = [...this.#tables.values()].filter((t) => t.idle);
    const allIdle = idle.length === this.#tables.size;
    if (this.#clock.phase === 'break-due') {
      if (!allIdle) return;
      const started = beginBreak(this.#clock, now);
      if (started.ok) this.#clock = started.value;
      this.#breakTimer.start((this.def.breaks?.minutes ?? 0) * 60_000);
      return;
    }
    if (this.#clock.phase === 'break') return;
    // Everybody fits at one table: wait for every table to finish, then the final table is drawn.
    if (this.#seating.length > 1 && totalPlayers(this.#seating) <= this.#seats) return;
    const placesPaid = this.#prizes.filter((p) => p > 0).length;
    if (isHandForHand(this.playersLeft(), placesPaid, this.#tables.size)) {
      if (this.#round !== null || !allIdle) return;
      // A player alone at his table (balanced within one, at tables of two seats) is dealt no hand: the
      // round waits only for the tables that can deal one, or it would never end.
      const dealing = idle.filter((live) => this.#canDeal(live));
      if (dealing.length === 0) return;
      this.#round = { pending: new Set(dealing.map((t) => t.no)), out: [], before: this.playersLeft() };
      this.#handForHandRounds++;
      for (const live of dealing) await this.#allow(live);
      return;
    }
    for (const live of idle) if (this.#canDeal(live)) await this.#allow(live);
  }

  /** Whether `live` seats the two players a hand needs. */
  #canDeal(live: LiveTable): boolean {
    const seating = this.#seating.find((t) => t.id === live.no);
    return seating !== undefined && playersAt(seating) >= 2;
  }

  #advance(next: LevelClock): void {
    if (this.#clock !== null && next.level !== this.#clock.level)
      this.#levels += next.level - this.#clock.level;
    this.#clock = next;
  }

  /** Allows one hand at `live`, at the current level and game (a fresh table when the game changes). */
  async #allow(live: LiveTable): Promise<void> {
    const clock = this.#clock!;
    let target = live;
    const game = gameFor(this.def, clock.level, live.rotation);
    if (game.game !== live.game.game || game.structure !== live.game.structure) {
      const seating = this.#seating.find((t) => t.id === live.no)!;
      for (const [, id] of seating.seats.entries()) if (id !== null) await this.#unseat(live, id);
      await live.table.dispose();
      this.#gameChanges++;
      // A stud game has no button: the button hand's record stays as it was (the button freezes).
      target = await this.#open(seating, game, live);
    }
    target.stakes = tableStakes(levelAt(this.def, clock.level), target.game);
    target.handLevel = clock.level;
    target.idle = false;
    const result = await target.table.control({ type: 'allow-hands', count: 1 });
    if (!result.ok) this.#fault(new Error(`allow a hand at ${target.table.id}: ${result.error.message}`));
  }
}
