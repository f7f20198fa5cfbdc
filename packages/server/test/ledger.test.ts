/**
 * The ledger never creates or loses a chip: random sequences of cashier credits and debits, play-money
 * top-ups, buy-ins, hands (forced bets, bets, uncalled returns, settlements with rake, cancellations),
 * cash-outs and crash recoveries (of every table, or of one) keep the audit conserved after every step,
 * and every balance, seat, pot and the house match a plain model of where the chips must be. Refused
 * movements change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  openMigratedSqliteStorage,
  type Currency,
  type HandId,
  type Storage,
  type UserId,
} from '../src/storage/index.js';
import { recoverEveryTable } from './storage-contract-helpers.js';

const USERS = 3;
const TABLES = ['t0', 't1'] as const;

type Op =
  | { readonly op: 'credit' | 'debit' | 'top-up'; readonly user: number; readonly amount: number }
  | { readonly op: 'buy-in'; readonly table: number; readonly user: number; readonly amount: number }
  | { readonly op: 'cash-out'; readonly table: number; readonly user: number }
  | {
      readonly op: 'start';
      readonly table: number;
      readonly users: readonly number[];
      readonly posts: readonly number[];
    }
  | { readonly op: 'move'; readonly user: number; readonly amount: number }
  | { readonly op: 'settle'; readonly winners: readonly number[]; readonly rake: number }
  | { readonly op: 'cancel' }
  | { readonly op: 'recover' }
  | { readonly op: 'recover-table'; readonly table: number }
  | { readonly op: 'unbalanced'; readonly user: number; readonly amount: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const table = fc.integer({ min: 0, max: TABLES.length - 1 });
const amount = fc.integer({ min: 1, max: 400 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom('credit' as const, 'debit' as const, 'top-up' as const),
      user,
      amount,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('buy-in' as const), table, user, amount }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cash-out' as const), table, user }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('start' as const),
      table,
      users: fc.uniqueArray(user, { minLength: 1, maxLength: USERS }),
      posts: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: USERS, maxLength: USERS }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('move' as const),
      user,
      amount: fc.integer({ min: -60, max: 300 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('settle' as const),
      winners: fc.uniqueArray(user, { maxLength: USERS }),
      rake: fc.integer({ min: 0, max: 30 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'recover' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('recover-table' as const), table }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('unbalanced' as const),
      user,
      amount: fc.integer({ min: -50, max: 50 }),
    }),
  },
);

/** Every player starts with money in both currencies and chips at both tables, so hands can be dealt. */
const prelude: fc.Arbitrary<Op[]> = fc
  .array(fc.tuple(amount, amount, amount, amount), { minLength: USERS, maxLength: USERS })
  .map((amounts) =>
    amounts.flatMap(([real, play, atReal, atPlay], u): Op[] => [
      { op: 'credit', user: u, amount: real + atReal },
      { op: 'top-up', user: u, amount: play + atPlay },
      { op: 'buy-in', table: 0, user: u, amount: atReal },
      { op: 'buy-in', table: 1, user: u, amount: atPlay },
    ]),
  );

/** Where every chip must be. */
class Model {
  readonly balance = new Map<string, number>();
  readonly seat = new Map<string, number>();
  house: Record<Currency, number> = { play: 0, real: 0 };
  hand: {
    id: HandId;
    table: string;
    currency: Currency;
    users: number[];
    contributed: Map<number, number>;
  } | null = null;

  get(map: Map<string, number>, key: string): number {
    return map.get(key) ?? 0;
  }
  add(map: Map<string, number>, key: string, delta: number): void {
    map.set(key, this.get(map, key) + delta);
  }
}

const seatKey = (t: string, u: number, c: Currency): string => `${t}/${u}/${c}`;
const currencyOfTable = (t: number): Currency => (t === 0 ? 'real' : 'play');

async function step(
  storage: Storage,
  model: Model,
  ids: readonly UserId[],
  o: Op,
  seq: { n: number },
): Promise<void> {
  const id = (u: number): UserId => ids[u]!;
  switch (o.op) {
    case 'credit':
    case 'debit':
    case 'top-up': {
      const currency: Currency = o.op === 'top-up' ? 'play' : 'real';
      const key = `${o.user}/${currency}`;
      const delta = o.op === 'debit' ? -o.amount : o.amount;
      const possible = model.get(model.balance, key) + delta >= 0;
      const result =
        o.op === 'top-up'
          ? await storage.topUp(id(o.user), o.amount)
          : await storage.cashier(id(o.user), o.op, o.amount);
      expect(result.ok).toBe(possible);
      if (possible) model.add(model.balance, key, delta);
      return;
    }
    case 'buy-in': {
      const currency = currencyOfTable(o.table);
      const key = `${o.user}/${currency}`;
      const possible = model.get(model.balance, key) >= o.amount;
      const result = await storage.buyIn(TABLES[o.table]!, id(o.user), currency, o.amount);
      expect(result.ok).toBe(possible);
      if (possible) {
        model.add(model.balance, key, -o.amount);
        model.add(model.seat, seatKey(TABLES[o.table]!, o.user, currency), o.amount);
      }
      return;
    }
    case 'cash-out': {
      const currency = currencyOfTable(o.table);
      const key = seatKey(TABLES[o.table]!, o.user, currency);
      const result = await storage.cashOut(TABLES[o.table]!, id(o.user), currency);
      expect(result).toEqual({ ok: true, value: model.get(model.seat, key) });
      model.add(model.balance, `${o.user}/${currency}`, model.get(model.seat, key));
      model.seat.set(key, 0);
      return;
    }
    case 'start': {
      if (model.hand !== null) return;
      const t = TABLES[o.table]!;
      const currency = currencyOfTable(o.table);
      const posts = o.users.map((u, i) => ({ u, amount: o.posts[i]! })).filter((p) => p.amount > 0);
      const possible = posts.every((p) => model.get(model.seat, seatKey(t, p.u, currency)) >= p.amount);
      const result = await storage.startHand({
        tableId: t,
        currency,
        description: 'test',
        participants: o.users.map((u, i) => ({ userId: id(u), seat: u, position: i })),
        posts: posts.map((p) => ({ userId: id(p.u), amount: p.amount })),
      });
      expect(result.ok).toBe(possible);
      if (!result.ok) return;
      const contributed = new Map<number, number>();
      for (const p of posts) {
        model.add(model.seat, seatKey(t, p.u, currency), -p.amount);
        contributed.set(p.u, p.amount);
      }
      model.hand = { id: result.value, table: t, currency, users: [...o.users], contributed };
      seq.n = 0;
      return;
    }
    case 'move': {
      const hand = model.hand;
      if (hand === null || o.amount === 0) return;
      const key = seatKey(hand.table, o.user, hand.currency);
      const inHand = hand.users.includes(o.user);
      const after = (hand.contributed.get(o.user) ?? 0) + o.amount;
      const possible = inHand && after >= 0 && model.get(model.seat, key) >= o.amount;
      const result = await storage.recordAction({
        handId: hand.id,
        seq: seq.n,
        action: JSON.stringify(o),
        moves: [{ userId: id(o.user), amount: o.amount }],
      });
      expect(result.ok).toBe(possible);
      if (!possible) return;
      seq.n++;
      model.add(model.seat, key, -o.amount);
      hand.contributed.set(o.user, after);
      return;
    }
    case 'settle': {
      const hand = model.hand;
      if (hand === null) return;
      const pot = [...hand.contributed.values()].reduce((a, b) => a + b, 0);
      const winners = o.winners.filter((u) => hand.users.includes(u));
      const rake = hand.currency === 'real' ? Math.min(o.rake, pot) : 0;
      const rest = pot - rake;
      if (winners.length === 0 && rest > 0) {
        // Nobody to pay: a settlement would not match the pot.
        const refused = await storage.settleHand({
          handId: hand.id,
          awards: [],
          rake,
          history: { phh: '', views: [] },
        });
        expect(refused.ok ? null : refused.error.code).toBe('POT_MISMATCH');
        return;
      }
      const awards = winners.map((u, i) => ({
        userId: id(u),
        amount: Math.floor(rest / winners.length) + (i < rest % winners.length ? 1 : 0),
      }));
      const result = await storage.settleHand({
        handId: hand.id,
        awards: awards.filter((a) => a.amount > 0),
        rake,
        history: {
          phh: 'p',
          views: hand.users.map((u) => ({ userId: id(u), phh: 'p' })),
        },
      });
      expect(result).toEqual({ ok: true, value: undefined });
      winners.forEach((u, i) => {
        model.add(model.seat, seatKey(hand.table, u, hand.currency), awards[i]!.amount);
      });
      model.house[hand.currency] += rake;
      model.hand = null;
      return;
    }
    case 'cancel':
    case 'recover': {
      const hand = model.hand;
      if (o.op === 'cancel' && hand === null) return;
      const result =
        o.op === 'cancel' ? await storage.cancelHand(hand!.id) : await recoverEveryTable(storage);
      expect(result).toBeTruthy();
      if (hand !== null) {
        for (const [u, c] of hand.contributed)
          model.add(model.seat, seatKey(hand.table, u, hand.currency), c);
        model.hand = null;
      }
      if (o.op === 'recover') {
        for (const [key, chips] of model.seat) {
          const [, u, c] = key.split('/');
          model.add(model.balance, `${u}/${c}`, chips);
          model.seat.set(key, 0);
        }
      }
      return;
    }
    case 'recover-table': {
      // One table recovered (as by the process that owns it): its hand and seats only.
      const tableId = TABLES[o.table]!;
      expect(await storage.recoverTables([tableId])).toBeTruthy();
      const hand = model.hand;
      if (hand?.table === tableId) {
        for (const [u, c] of hand.contributed)
          model.add(model.seat, seatKey(hand.table, u, hand.currency), c);
        model.hand = null;
      }
      for (const [key, chips] of model.seat) {
        const [t, u, c] = key.split('/');
        if (t !== tableId) continue;
        model.add(model.balance, `${u}/${c}`, chips);
        model.seat.set(key, 0);
      }
      return;
    }
    case 'unbalanced': {
      const before = await storage.audit();
      const result = await storage.post('manual', [
        { account: { kind: 'cashier', currency: 'real' }, amount: -o.amount },
        { account: { kind: 'user', currency: 'real', userId: id(o.user) }, amount: o.amount + 1 },
      ]);
      expect(result.ok ? null : result.error.code).toBe('UNBALANCED');
      expect(await storage.audit()).toEqual(before);
      return;
    }
  }
}

async function check(storage: Storage, model: Model, ids: readonly UserId[]): Promise<void> {
  const report = await storage.audit();
  expect(report.problems).toEqual([]);
  expect(report.conserved).toBe(true);
  for (const currency of ['play', 'real'] as const) {
    let accounts = 0;
    for (let u = 0; u < USERS; u++) {
      const balances = await storage.balances(ids[u]!);
      expect(balances[currency]).toBe(model.get(model.balance, `${u}/${currency}`));
      accounts += balances[currency];
      for (const t of TABLES) {
        expect(await storage.seat(t, ids[u]!, currency)).toBe(model.get(model.seat, seatKey(t, u, currency)));
      }
    }
    const totals = report.currencies[currency];
    expect(totals.accounts).toBe(accounts);
    expect(totals.house).toBe(model.house[currency]);
    const pot =
      model.hand?.currency === currency ? [...model.hand.contributed.values()].reduce((a, b) => a + b, 0) : 0;
    expect(totals.pots).toBe(pot);
  }
}

describe('ledger', () => {
  it('no chip is ever created or lost: random credits, buy-ins, pots, rake, cash-outs and refunds keep the audit conserved', async () => {
    await fc.assert(
      fc.asyncProperty(prelude, fc.array(op, { minLength: 1, maxLength: 40 }), async (setup, ops) => {
        const storage = await openMigratedSqliteStorage({ memory: true });
        try {
          const ids: UserId[] = [];
          for (let u = 0; u < USERS; u++) {
            const created = await storage.createUser({ name: `u${u}`, passwordHash: 'h', passwordSalt: 's' });
            if (!created.ok) throw new Error(created.error.message);
            ids.push(created.value.id);
          }
          const model = new Model();
          const seq = { n: 0 };
          for (const o of [...setup, ...ops]) {
            await step(storage, model, ids, o, seq);
            await check(storage, model, ids);
          }
        } finally {
          await storage.close();
        }
      }),
      { numRuns: 50 },
    );
  });
});
