/** In-process harness for table tests: a fake ledger (conservation-checked), a manual clock, seeded dealing. */
import { randomBelow, seededRandom, type RandomSource } from '@felt/engine';
import type {
  ChipMove,
  FairLink,
  HandActionRecord,
  Settlement,
  NewHand,
  StorageResult,
} from '../src/storage/types.js';
import {
  createTable,
  manualClock,
  memoryAllInCounter,
  type AllInCounter,
  type ManualClock,
  type PlayerAction,
  type PlayerRef,
  type Table,
  type TableConfig,
  type TableMessage,
  type TableStorage,
} from '../src/table/index.js';

const ok = <T>(value: T): StorageResult<T> => ({ ok: true, value });
const no = (code: 'INSUFFICIENT_FUNDS' | 'BAD_REQUEST', message: string) =>
  ({ ok: false, error: { code, message } }) as const;

/** A fake ledger: balances, seats, pots, house; every call logged in `log` (shared with the sinks). */
export class FakeStorage implements TableStorage {
  readonly balances = new Map<number, number>();
  readonly seats = new Map<string, number>();
  readonly pots = new Map<number, Map<number, number>>();
  readonly settled = new Map<number, Settlement>();
  readonly actions: HandActionRecord[] = [];
  /** Each table's fair-dealing chain, and the hands started (with their fair records). */
  readonly links = new Map<string, FairLink>();
  readonly started = new Map<number, NewHand>();
  house = 0;
  private nextHand = 1;
  constructor(readonly log: string[]) {}

  fairLink(tableId: string) {
    return Promise.resolve(this.links.get(tableId) ?? null);
  }
  saveFairLink(tableId: string, link: FairLink) {
    this.links.set(tableId, link);
    return Promise.resolve(ok(undefined));
  }

  total(): number {
    let sum = this.house;
    for (const v of this.balances.values()) sum += v;
    for (const v of this.seats.values()) sum += v;
    for (const pot of this.pots.values()) for (const v of pot.values()) sum += v;
    return sum;
  }
  seat(table: string, user: number): number {
    return this.seats.get(`${table}:${user}`) ?? 0;
  }
  private move(table: string, hand: number, moves: readonly ChipMove[]): void {
    const pot = this.pots.get(hand)!;
    for (const m of moves) {
      const key = `${table}:${m.userId}`;
      const left = (this.seats.get(key) ?? 0) - m.amount;
      if (left < 0) throw new Error(`seat ${key} below zero`);
      this.seats.set(key, left);
      pot.set(m.userId, (pot.get(m.userId) ?? 0) + m.amount);
    }
  }
  private tableOf = new Map<number, string>();

  buyIn(tableId: string, userId: number, _currency: 'play' | 'real', amount: number) {
    const balance = this.balances.get(userId) ?? 0;
    if (balance < amount) return Promise.resolve(no('INSUFFICIENT_FUNDS', 'balance too low'));
    this.balances.set(userId, balance - amount);
    const key = `${tableId}:${userId}`;
    this.seats.set(key, (this.seats.get(key) ?? 0) + amount);
    this.log.push(`buy-in ${userId} ${amount}`);
    return Promise.resolve(ok({ tableId, userId, currency: _currency, amount: this.seats.get(key)! }));
  }
  cashOut(tableId: string, userId: number) {
    const key = `${tableId}:${userId}`;
    const amount = this.seats.get(key) ?? 0;
    this.seats.delete(key);
    this.balances.set(userId, (this.balances.get(userId) ?? 0) + amount);
    this.log.push(`cash-out ${userId} ${amount}`);
    return Promise.resolve(ok(amount));
  }
  startHand(hand: NewHand) {
    const id = this.nextHand++;
    this.pots.set(id, new Map());
    this.tableOf.set(id, hand.tableId);
    this.started.set(id, hand);
    if (hand.fair) this.links.set(hand.tableId, hand.fair.next);
    this.move(hand.tableId, id, hand.posts ?? []);
    this.log.push(`start ${id}`);
    return Promise.resolve(ok(id));
  }
  recordAction(record: HandActionRecord) {
    const table = this.tableOf.get(record.handId)!;
    const last = this.actions.filter((a) => a.handId === record.handId).at(-1);
    if (last !== undefined && last.seq + 1 !== record.seq) return Promise.resolve(no('BAD_REQUEST', 'seq'));
    this.actions.push(record);
    this.move(table, record.handId, record.moves ?? []);
    this.log.push(`record ${record.handId}/${record.seq}`);
    if (record.settlement !== undefined) this.settle(record.handId, record.settlement);
    return Promise.resolve(ok(undefined));
  }
  /**
   * What a new owner of the table finds of `from`'s hand `handId` in progress (a table handed over in
   * play): the seats, the pot, the hand and its actions, the chain's next link.
   */
  adopt(from: FakeStorage, handId: number): void {
    const table = from.tableOf.get(handId)!;
    for (const [key, amount] of from.seats) if (key.startsWith(`${table}:`)) this.seats.set(key, amount);
    this.pots.set(handId, new Map(from.pots.get(handId)));
    this.tableOf.set(handId, table);
    this.started.set(handId, from.started.get(handId)!);
    this.actions.push(...from.actions.filter((a) => a.handId === handId));
    this.links.set(table, from.links.get(table)!);
    this.nextHand = handId + 1;
  }
  private settle(handId: number, settlement: Settlement): void {
    const table = this.tableOf.get(handId)!;
    const pot = this.pots.get(handId)!;
    let total = 0;
    for (const v of pot.values()) total += v;
    const paid = settlement.awards.reduce((a, m) => a + m.amount, 0) + settlement.rake;
    if (paid !== total) throw new Error(`pot mismatch: pot ${total}, paid ${paid}`);
    for (const m of settlement.awards) {
      const key = `${table}:${m.userId}`;
      this.seats.set(key, (this.seats.get(key) ?? 0) + m.amount);
    }
    this.house += settlement.rake;
    this.pots.delete(handId);
    this.settled.set(handId, settlement);
    this.log.push(`settle ${handId}`);
  }
}

export interface Harness {
  readonly clock: ManualClock;
  readonly storage: FakeStorage;
  readonly table: Table;
  readonly players: PlayerRef[];
  readonly inbox: Map<number | 'spectator', TableMessage[]>;
  readonly log: string[];
  readonly allIns: AllInCounter;
  readonly errors: unknown[];
  /** Unsubscribe functions by account. */
  readonly connections: Map<number, () => void>;
}

export function harness(
  config: Partial<TableConfig> & Pick<TableConfig, 'game' | 'structure'>,
  options: { players?: number; seed?: number; balance?: number; allIns?: AllInCounter } = {},
): Harness {
  const log: string[] = [];
  const clock = manualClock();
  const storage = new FakeStorage(log);
  const errors: unknown[] = [];
  const allIns = options.allIns ?? memoryAllInCounter();
  const table = createTable(
    {
      id: 't1',
      name: 'Test',
      stakes: { small: 2, big: 4 },
      currency: 'play',
      ...config,
    },
    { storage, clock, random: seededRandom(options.seed ?? 1), allIns, onError: (e) => errors.push(e) },
  );
  const players = Array.from({ length: options.players ?? 3 }, (_, i) => ({
    account: i + 1,
    name: `player${i + 1}`,
  }));
  const inbox = new Map<number | 'spectator', TableMessage[]>();
  const connections = new Map<number, () => void>();
  for (const p of players) {
    storage.balances.set(p.account, options.balance ?? 100_000);
    inbox.set(p.account, []);
  }
  const h: Harness = { clock, storage, table, players, inbox, log, allIns, errors, connections };
  for (const p of players) connect(h, p.account);
  inbox.set('spectator', []);
  table.subscribe(null, (m) => inbox.get('spectator')!.push(m));
  return h;
}

export function connect(h: Harness, account: number): void {
  h.connections.set(
    account,
    h.table.subscribe(account, (m) => {
      h.inbox.get(account)!.push(m);
      if (m.type === 'table-event') h.log.push(`announce ${m.handId} ${m.event.type}`);
    }),
  );
}

export function disconnect(h: Harness, account: number): void {
  h.connections.get(account)?.();
  h.connections.delete(account);
}

/** Advances the clock and lets the mailbox drain. */
export async function tick(h: Harness, ms: number): Promise<void> {
  await h.table.idle();
  h.clock.advance(ms);
  await h.table.idle();
}

export async function sitAll(h: Harness, buyIn: number, seats?: readonly number[]): Promise<void> {
  for (const [i, p] of h.players.entries()) {
    const result = await h.table.handle(p, { type: 'sit', seat: seats?.[i] ?? i, buyIn });
    if (!result.ok) throw new Error(result.error.message);
  }
}

/** The account to act now, or null. */
export function actor(h: Harness): PlayerRef | null {
  const view = h.table.view(null);
  const seat = view.hand?.actor ?? null;
  if (seat === null) return null;
  const account = view.seats[seat]?.account;
  return h.players.find((p) => p.account === account) ?? null;
}

/** A random legal decision for the player to act. */
export function randomDecision(h: Harness, player: PlayerRef, random: RandomSource): PlayerAction {
  const view = h.table.view(player.account);
  const legal = view.hand!.legal!;
  if (legal.split) return { type: 'split', accept: randomBelow(random, 2) === 0 };
  if (legal.discard !== null) {
    const mine = view.hand!.players.find((p) => p.seat === view.you)!.cards;
    const count = randomBelow(random, Math.min(legal.discard, mine.length) + 1);
    return { type: 'discard', cards: mine.slice(0, count) };
  }
  const roll = randomBelow(random, 100);
  if (legal.bringIn !== null && !(legal.raise && roll < 25)) return { type: 'bring-in' };
  if (legal.raise && roll < 25) {
    const tos = legal.raiseTos;
    const to =
      tos && tos.length > 0
        ? tos[randomBelow(random, tos.length)]!
        : roll < 8
          ? legal.raise.max
          : legal.raise.min;
    return { type: 'raise', to };
  }
  if (legal.call !== null && roll < 40) return { type: 'fold' };
  return legal.check ? { type: 'check' } : { type: 'call' };
}

/** Plays until the current hand is over (random decisions); starts one first if none runs. */
export async function playHand(h: Harness, random: RandomSource, maxSteps = 500): Promise<number> {
  if (h.table.view(null).hand === null) await tick(h, 2_000);
  const handId = h.table.view(null).hand?.handId;
  if (handId === undefined) throw new Error('no hand started');
  for (let i = 0; i < maxSteps; i++) {
    const hand = h.table.view(null).hand;
    if (hand === null || hand.handId !== handId) return handId;
    const who = actor(h);
    if (who === null) throw new Error(`no actor in phase ${hand.phase}`);
    const result = await h.table.handle(who, { type: 'act', action: randomDecision(h, who, random) });
    if (!result.ok) throw new Error(`refused: ${result.error.code} ${result.error.message}`);
  }
  throw new Error('hand did not end');
}
