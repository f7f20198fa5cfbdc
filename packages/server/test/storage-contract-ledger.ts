/**
 * The contract every Ledger implementation passes (balances, cashier, seats, raw transactions, the audit),
 * with an account store to create its users. Test names say the rule they check.
 */
import { describe, expect, it } from 'vitest';
import type { AccountStore, Ledger } from '../src/storage/index.js';
import { conserved, opener, user, type Closable } from './storage-contract-helpers.js';

export function ledgerContract(name: string, factory: () => Promise<AccountStore & Ledger & Closable>): void {
  describe(`Ledger contract: ${name}`, () => {
    const open = opener(factory);

    it('play money and real money are kept apart', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 0 });
      expect(await storage.topUp(ann, 1000)).toEqual({ ok: true, value: { play: 1000, real: 0 } });
      expect(await storage.cashier(ann, 'credit', 250)).toEqual({
        ok: true,
        value: { play: 1000, real: 250 },
      });
      expect(await storage.cashier(ann, 'debit', 50)).toEqual({ ok: true, value: { play: 1000, real: 200 } });
      const report = await storage.audit();
      expect(report.currencies.play).toMatchObject({ accounts: 1000, external: -1000, sum: 0 });
      expect(report.currencies.real).toMatchObject({ accounts: 200, external: -200, sum: 0 });
      await conserved(storage);
    });

    it('a new account may start with play chips: posted from the top-up source with it, conserved', async () => {
      const storage = await open();
      const created = await storage.createUser({
        name: 'cal',
        passwordHash: 'x',
        passwordSalt: 'y',
        playMoney: 700,
      });
      expect(created.ok).toBe(true);
      const id = created.ok ? created.value.id : 0;
      expect(await storage.balances(id)).toEqual({ play: 700, real: 0 });
      expect((await storage.audit()).currencies.play).toMatchObject({ accounts: 700, external: -700 });
      const bad = await storage.createUser({
        name: 'dee',
        passwordHash: 'x',
        passwordSalt: 'y',
        playMoney: -5,
      });
      expect(bad.ok ? null : bad.error.code).toBe('BAD_AMOUNT');
      expect(await storage.userByName('dee')).toBeNull();
      await conserved(storage);
    });

    it('the play-money ceiling counts the balance and the chips at tables; a refused top-up changes nothing', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      expect((await storage.topUp(ann, 1000, 1000)).ok).toBe(true);
      expect((await storage.buyIn('t1', ann, 'play', 400)).ok).toBe(true);
      expect((await storage.buyIn('t2', ann, 'play', 100)).ok).toBe(true);
      const parked = await storage.topUp(ann, 1, 1000);
      expect(parked.ok ? null : parked.error.code).toBe('TOP_UP_LIMIT');
      expect(parked.ok ? '' : parked.error.message).not.toMatch(/user:|seat:/);
      expect(await storage.balances(ann)).toEqual({ play: 500, real: 0 });
      // Real money is not play money: it does not count.
      expect((await storage.cashier(ann, 'credit', 5000)).ok).toBe(true);
      expect((await storage.cashOut('t1', ann, 'play')).ok).toBe(true);
      expect((await storage.topUp(ann, 1, 1000)).ok ? 'topped' : 'refused').toBe('refused');
      // Two top-ups at once under the ceiling: one passes, the other is refused.
      expect((await storage.cashOut('t2', ann, 'play')).ok).toBe(true);
      const bob = await user(storage, 'bob');
      const both = await Promise.all([storage.topUp(bob, 600, 1000), storage.topUp(bob, 600, 1000)]);
      expect(both.map((r) => r.ok).sort()).toEqual([false, true]);
      expect((await storage.balances(bob)).play).toBe(600);
      // Without a ceiling (the operator's and the house bots' top-ups) there is none.
      expect((await storage.topUp(ann, 10_000)).ok).toBe(true);
      await conserved(storage);
    });

    it('a staff account plays no real money: its real buy-ins and credits are refused, changing nothing; play money and debits pass', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      expect((await storage.cashier(ann, 'credit', 1000)).ok).toBe(true);
      expect((await storage.setRole(ann, { role: 'admin', totpSecret: 'KEY' })).ok).toBe(true);
      const buyIn = await storage.buyIn('t', ann, 'real', 100);
      expect(buyIn.ok ? null : buyIn.error.code).toBe('STAFF_ACCOUNT');
      const credit = await storage.cashier(ann, 'credit', 5);
      expect(credit.ok ? null : credit.error.code).toBe('STAFF_ACCOUNT');
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 1000 });
      expect(await storage.seat('t', ann, 'real')).toBe(0);
      expect((await storage.cashier(ann, 'debit', 1000)).ok).toBe(true);
      expect((await storage.topUp(ann, 300)).ok).toBe(true);
      expect((await storage.buyIn('p', ann, 'play', 300)).ok).toBe(true);
      expect((await storage.setRole(ann, null)).ok).toBe(true);
      expect((await storage.cashier(ann, 'credit', 5)).ok).toBe(true);
      await conserved(storage);
    });

    it('the cashier refuses a debit beyond the balance, a bad amount and an unknown user, changing nothing', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      await storage.cashier(ann, 'credit', 100);
      const codes = [
        await storage.cashier(ann, 'debit', 101),
        await storage.cashier(ann, 'credit', 0),
        await storage.cashier(ann, 'credit', 1.5),
        await storage.cashier(ann, 'credit', -5),
        await storage.cashier(ann + 99, 'credit', 5),
        await storage.topUp(ann, Number.MAX_SAFE_INTEGER + 1),
      ].map((r) => (r.ok ? null : r.error.code));
      expect(codes).toEqual([
        'INSUFFICIENT_FUNDS',
        'BAD_AMOUNT',
        'BAD_AMOUNT',
        'BAD_AMOUNT',
        'UNKNOWN_USER',
        'BAD_AMOUNT',
      ]);
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 100 });
      expect((await storage.audit()).transactions).toBe(1);
      await conserved(storage);
    });

    it('a buy-in moves chips from the balance to the seat, a cash-out moves them all back', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      await storage.topUp(ann, 1000);
      expect(await storage.buyIn('t1', ann, 'play', 400)).toEqual({
        ok: true,
        value: { tableId: 't1', userId: ann, currency: 'play', amount: 400 },
      });
      const short = await storage.buyIn('t1', ann, 'play', 601);
      expect(short.ok ? null : short.error.code).toBe('INSUFFICIENT_FUNDS');
      const wrongCurrency = await storage.buyIn('t2', ann, 'real', 1);
      expect(wrongCurrency.ok ? null : wrongCurrency.error.code).toBe('INSUFFICIENT_FUNDS');
      expect(await storage.seat('t1', ann, 'play')).toBe(400);
      expect(await storage.seats()).toEqual([{ tableId: 't1', userId: ann, currency: 'play', amount: 400 }]);
      expect((await storage.audit()).currencies.play).toMatchObject({ accounts: 600, seats: 400 });
      expect(await storage.cashOut('t1', ann, 'play')).toEqual({ ok: true, value: 400 });
      expect(await storage.cashOut('t1', ann, 'play')).toEqual({ ok: true, value: 0 });
      expect(await storage.balances(ann)).toEqual({ play: 1000, real: 0 });
      expect(await storage.seats()).toEqual([]);
      await conserved(storage);
    });

    it('an unbalanced transaction is refused and changes nothing', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const before = await storage.audit();
      const results = [
        await storage.post('manual', [
          { account: { kind: 'user', currency: 'real', userId: ann }, amount: 100 },
        ]),
        await storage.post('manual', [
          { account: { kind: 'cashier', currency: 'real' }, amount: -100 },
          { account: { kind: 'user', currency: 'play', userId: ann }, amount: 100 },
        ]),
        await storage.post('manual', []),
        await storage.post('manual', [
          { account: { kind: 'house', currency: 'real' }, amount: -1 },
          { account: { kind: 'user', currency: 'real', userId: ann }, amount: 1 },
        ]),
        await storage.post('manual', [
          { account: { kind: 'pot', currency: 'real', handId: 1 }, amount: -1 },
          { account: { kind: 'user', currency: 'real', userId: ann }, amount: 1 },
        ]),
      ].map((r) => (r.ok ? null : r.error.code));
      expect(results).toEqual([
        'UNBALANCED',
        'UNBALANCED',
        'UNBALANCED',
        'INSUFFICIENT_FUNDS',
        'BAD_REQUEST',
      ]);
      expect(await storage.audit()).toEqual(before);
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 0 });
      const fine = await storage.post('manual', [
        { account: { kind: 'cashier', currency: 'real' }, amount: -7 },
        { account: { kind: 'user', currency: 'real', userId: ann }, amount: 7 },
      ]);
      expect(fine.ok).toBe(true);
      await conserved(storage);
    });

    it('a prize pool is reported by what moved it (entered, paid, refunded, held); any other kind moving it is a problem', async () => {
      const storage = await open();
      const [ann, bob] = [await user(storage, 'ann'), await user(storage, 'bob')];
      const pool = { kind: 'prize-pool', currency: 'real', tournamentId: 'mtt-1' } as const;
      const player = (userId: number) => ({ kind: 'user', currency: 'real', userId }) as const;
      const house = { kind: 'house', currency: 'real' } as const;
      for (const id of [ann, bob]) {
        await storage.cashier(id, 'credit', 1100);
        const entry = await storage.post('tournament-entry', [
          { account: player(id), amount: -1100 },
          { account: pool, amount: 1000 },
          { account: house, amount: 100 },
        ]);
        expect(entry.ok).toBe(true);
      }
      await storage.post('tournament-refund', [
        { account: pool, amount: -1000 },
        { account: house, amount: -100 },
        { account: player(bob), amount: 1100 },
      ]);
      await storage.post('tournament-prize', [
        { account: pool, amount: -600 },
        { account: player(ann), amount: 600 },
      ]);
      let report = await storage.audit();
      expect(report.problems).toEqual([]);
      expect(report.prizePools).toEqual([
        { tournamentId: 'mtt-1', currency: 'real', entered: 2000, paid: 600, refunded: 1000, held: 400 },
      ]);
      expect(report.currencies.real).toMatchObject({ prizePools: 400, house: 100, sum: 0 });
      const overdrawn = await storage.post('tournament-prize', [
        { account: pool, amount: -401 },
        { account: player(ann), amount: 401 },
      ]);
      expect(overdrawn.ok || overdrawn.error.code).toBe('INSUFFICIENT_FUNDS');
      await storage.post('manual', [
        { account: pool, amount: -1 },
        { account: player(ann), amount: 1 },
      ]);
      report = await storage.audit();
      expect(report.conserved).toBe(false);
      expect(report.problems).toContainEqual(
        expect.stringContaining('prize pool real:mtt-1 moved -1 by manual'),
      );
    });

    it('concurrent callers never interleave inside a transaction', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      await storage.topUp(ann, 1000);
      const results = await Promise.all(
        Array.from({ length: 50 }, () => storage.buyIn('t', ann, 'play', 30)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(33);
      expect(results.filter((r) => !r.ok && r.error.code === 'INSUFFICIENT_FUNDS')).toHaveLength(17);
      expect(await storage.balances(ann)).toEqual({ play: 10, real: 0 });
      await conserved(storage);
    });
  });
}
