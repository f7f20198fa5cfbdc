/**
 * THE contract every Storage implementation passes (ARCHITECTURE habit 7): one suite, a factory per
 * implementation. Test names say the rule they check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HandHistoryInput, HandId, Storage, UserId } from '../src/storage/index.js';

/** Makes a fresh, empty, migrated storage. */
export type StorageFactory = () => Promise<Storage>;

const history = (userIds: readonly UserId[]): HandHistoryInput => ({
  phh: 'full phh',
  views: userIds.map((userId) => ({ userId, phh: `phh for ${userId}` })),
});

export function storageContract(name: string, factory: StorageFactory): void {
  describe(`Storage contract: ${name}`, () => {
    const opened: Storage[] = [];
    const open = async (): Promise<Storage> => {
      const storage = await factory();
      opened.push(storage);
      return storage;
    };
    afterEach(async () => {
      for (const storage of opened.splice(0)) await storage.close();
    });

    async function user(storage: Storage, name: string): Promise<UserId> {
      const created = await storage.createUser({
        name,
        passwordHash: `hash-${name}`,
        passwordSalt: `salt-${name}`,
      });
      if (!created.ok) throw new Error(created.error.message);
      return created.value.id;
    }

    async function conserved(storage: Storage): Promise<void> {
      const report = await storage.audit();
      expect(report.problems).toEqual([]);
      expect(report.conserved).toBe(true);
    }

    it('migrations are idempotent: migrating again changes nothing', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      await storage.migrate();
      await storage.migrate();
      expect((await storage.userById(id))?.name).toBe('ann');
    });

    it('user names are unique', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      const again = await storage.createUser({ name: 'ann', passwordHash: 'x', passwordSalt: 'y' });
      expect(again.ok ? null : again.error.code).toBe('NAME_TAKEN');
      expect(await storage.userByName('ann')).toMatchObject({
        id,
        name: 'ann',
        passwordHash: 'hash-ann',
        passwordSalt: 'salt-ann',
      });
      expect(await storage.userByName('bob')).toBeNull();
      expect(await storage.userById(id + 1000)).toBeNull();
    });

    it('a password change replaces hash and salt; an unknown user is a typed error', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      expect((await storage.setPassword(id, 'h2', 's2')).ok).toBe(true);
      expect(await storage.userById(id)).toMatchObject({ passwordHash: 'h2', passwordSalt: 's2' });
      const missing = await storage.setPassword(id + 1000, 'h', 's');
      expect(missing.ok ? null : missing.error.code).toBe('UNKNOWN_USER');
    });

    it('sessions are found by token hash until they expire, and can be revoked', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const now = Date.now();
      expect(
        (await storage.createSession({ tokenHash: 't1', userId: ann, expiresAt: now + 60_000 })).ok,
      ).toBe(true);
      expect(
        (await storage.createSession({ tokenHash: 't2', userId: ann, expiresAt: now + 60_000 })).ok,
      ).toBe(true);
      expect((await storage.createSession({ tokenHash: 't3', userId: ann, expiresAt: now - 1 })).ok).toBe(
        true,
      );
      const unknown = await storage.createSession({ tokenHash: 't4', userId: ann + 99, expiresAt: now + 1 });
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
      expect(await storage.sessionByTokenHash('t1')).toMatchObject({ userId: ann, tokenHash: 't1' });
      expect(await storage.sessionByTokenHash('t3')).toBeNull();
      expect(await storage.sessionByTokenHash('t1', now + 60_000)).toBeNull();
      expect(await storage.deleteExpiredSessions()).toBe(1);
      await storage.deleteSessionsOf(ann, 't2');
      expect(await storage.sessionByTokenHash('t1')).toBeNull();
      expect(await storage.sessionByTokenHash('t2')).not.toBeNull();
      await storage.deleteSession('t2');
      expect(await storage.sessionByTokenHash('t2')).toBeNull();
    });

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

    /** Ann and Bob at real-money table t1 with 1000 each, a hand started with blinds 5/10. */
    async function handStarted(storage: Storage): Promise<{ ann: UserId; bob: UserId; hand: HandId }> {
      const ann = await user(storage, 'ann');
      const bob = await user(storage, 'bob');
      for (const id of [ann, bob]) {
        await storage.cashier(id, 'credit', 5000);
        await storage.buyIn('t1', id, 'real', 1000);
      }
      const started = await storage.startHand({
        tableId: 't1',
        currency: 'real',
        description: "NL Hold'em 0.05/0.10",
        participants: [
          { userId: ann, seat: 1, position: 0 },
          { userId: bob, seat: 4, position: 1 },
        ],
        posts: [
          { userId: ann, amount: 5 },
          { userId: bob, amount: 10 },
        ],
      });
      if (!started.ok) throw new Error(started.error.message);
      return { ann, bob, hand: started.value };
    }

    it('what each action puts in is counted per player and stays in the seats until the hand is settled', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      // Two credits and two buy-ins; the hand has moved nothing in the ledger yet.
      expect((await storage.audit()).transactions).toBe(4);
      expect(await storage.handStatus(hand)).toBe('in-progress');
      expect(
        await storage.recordAction({
          handId: hand,
          seq: 0,
          action: '{"type":"check-call"}',
          moves: [{ userId: ann, amount: 5 }],
        }),
      ).toEqual({ ok: true, value: undefined });
      expect((await storage.recordAction({ handId: hand, seq: 1, action: '{"type":"check"}' })).ok).toBe(
        true,
      );
      expect(await storage.contributions(hand)).toEqual({
        ok: true,
        value: [
          { userId: ann, amount: 10 },
          { userId: bob, amount: 10 },
        ],
      });
      expect(await storage.seat('t1', ann, 'real')).toBe(990);
      const report = await storage.audit();
      expect(report.currencies.real).toMatchObject({ pots: 20, seats: 1980, accounts: 8000, sum: 0 });
      expect(report.handsInProgress).toBe(1);
      expect(report.transactions).toBe(4);
      await conserved(storage);
    });

    it('a bad action is refused and changes nothing: duplicate number, stranger, overdraft, over-return', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      const carol = await user(storage, 'carol');
      expect((await storage.recordAction({ handId: hand, seq: 0, action: 'a' })).ok).toBe(true);
      const results = [
        await storage.recordAction({ handId: hand, seq: 0, action: 'again' }),
        await storage.recordAction({
          handId: hand,
          seq: 1,
          action: 'x',
          moves: [{ userId: carol, amount: 1 }],
        }),
        await storage.recordAction({
          handId: hand,
          seq: 1,
          action: 'x',
          moves: [{ userId: ann, amount: 996 }],
        }),
        await storage.recordAction({
          handId: hand,
          seq: 1,
          action: 'x',
          moves: [{ userId: bob, amount: -11 }],
        }),
        await storage.recordAction({
          handId: hand,
          seq: 1,
          action: 'x',
          moves: [{ userId: bob, amount: 0.5 }],
        }),
        await storage.recordAction({ handId: hand + 100, seq: 1, action: 'x' }),
      ].map((r) => (r.ok ? null : r.error.code));
      expect(results).toEqual([
        'DUPLICATE_ACTION',
        'NOT_IN_HAND',
        'INSUFFICIENT_FUNDS',
        'INSUFFICIENT_FUNDS',
        'BAD_AMOUNT',
        'UNKNOWN_HAND',
      ]);
      // Number 1 is still free: the refused attempts left no trace.
      expect(
        (
          await storage.recordAction({
            handId: hand,
            seq: 1,
            action: 'x',
            moves: [{ userId: bob, amount: -5 }],
          })
        ).ok,
      ).toBe(true);
      expect(await storage.contributions(hand)).toEqual({
        ok: true,
        value: [
          { userId: ann, amount: 5 },
          { userId: bob, amount: 5 },
        ],
      });
      await conserved(storage);
    });

    it('a settlement pays the pot to the winners and the rake to the house, exactly', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      await storage.recordAction({
        handId: hand,
        seq: 0,
        action: 'raise',
        moves: [{ userId: ann, amount: 95 }],
      });
      await storage.recordAction({
        handId: hand,
        seq: 1,
        action: 'call',
        moves: [{ userId: bob, amount: 90 }],
      });
      const mismatch = await storage.settleHand({
        handId: hand,
        awards: [{ userId: ann, amount: 195 }],
        rake: 10,
        history: history([ann, bob]),
      });
      expect(mismatch.ok ? null : mismatch.error.code).toBe('POT_MISMATCH');
      expect(await storage.handStatus(hand)).toBe('in-progress');
      expect(
        await storage.settleHand({
          handId: hand,
          awards: [{ userId: ann, amount: 190 }],
          rake: 10,
          history: history([ann, bob]),
        }),
      ).toEqual({ ok: true, value: undefined });
      expect(await storage.handStatus(hand)).toBe('settled');
      expect(await storage.seat('t1', ann, 'real')).toBe(1090);
      expect(await storage.seat('t1', bob, 'real')).toBe(900);
      const report = await storage.audit();
      expect(report.currencies.real).toMatchObject({ house: 10, pots: 0, seats: 1990, sum: 0 });
      expect(report.handsInProgress).toBe(0);
      // The whole hand is one ledger transaction (after two credits and two buy-ins).
      expect(report.transactions).toBe(5);
      const again = await storage.settleHand({ handId: hand, awards: [], rake: 0, history: history([]) });
      expect(again.ok ? null : again.error.code).toBe('HAND_NOT_IN_PROGRESS');
      await conserved(storage);
    });

    it('the action that ends a hand is recorded and settled in one transaction, or not at all', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      await storage.recordAction({
        handId: hand,
        seq: 0,
        action: 'raise',
        moves: [{ userId: ann, amount: 95 }],
      });
      const call = { handId: hand, seq: 1, action: 'call', moves: [{ userId: bob, amount: 90 }] };
      const mismatch = await storage.recordAction({
        ...call,
        settlement: { awards: [{ userId: ann, amount: 195 }], rake: 10, history: history([ann, bob]) },
      });
      expect(mismatch.ok ? null : mismatch.error.code).toBe('POT_MISMATCH');
      // Nothing of it stands: not the call's chips, not its sequence number.
      expect(await storage.handStatus(hand)).toBe('in-progress');
      expect(await storage.seat('t1', bob, 'real')).toBe(990);
      expect(
        await storage.recordAction({
          ...call,
          settlement: { awards: [{ userId: bob, amount: 190 }], rake: 10, history: history([ann, bob]) },
        }),
      ).toEqual({ ok: true, value: undefined });
      expect(await storage.handStatus(hand)).toBe('settled');
      expect(await storage.seat('t1', ann, 'real')).toBe(900);
      expect(await storage.seat('t1', bob, 'real')).toBe(1090);
      expect((await storage.audit()).currencies.real).toMatchObject({ house: 10, pots: 0, sum: 0 });
      await conserved(storage);
    });

    it('a player who leaves a hand he has folded takes his stack; what he put in stays for its settlement', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      expect(await storage.cashOut('t1', ann, 'real')).toEqual({ ok: true, value: 995 });
      expect(await storage.seat('t1', ann, 'real')).toBe(0);
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 4995 });
      expect((await storage.audit()).currencies.real).toMatchObject({ pots: 15, seats: 990, sum: 0 });
      await conserved(storage);
      const settled = await storage.settleHand({
        handId: hand,
        awards: [{ userId: bob, amount: 15 }],
        rake: 0,
        history: history([ann, bob]),
      });
      expect(settled).toEqual({ ok: true, value: undefined });
      expect(await storage.seat('t1', bob, 'real')).toBe(1005);
      expect(await storage.seats()).toEqual([{ tableId: 't1', userId: bob, currency: 'real', amount: 1005 }]);
      await conserved(storage);
    });

    it('play money is never raked', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const bob = await user(storage, 'bob');
      for (const id of [ann, bob]) {
        await storage.topUp(id, 100);
        await storage.buyIn('p1', id, 'play', 100);
      }
      const hand = await storage.startHand({
        tableId: 'p1',
        currency: 'play',
        description: 'play',
        participants: [
          { userId: ann, seat: 0, position: 0 },
          { userId: bob, seat: 1, position: 1 },
        ],
        posts: [
          { userId: ann, amount: 50 },
          { userId: bob, amount: 50 },
        ],
      });
      if (!hand.ok) throw new Error(hand.error.message);
      const raked = await storage.settleHand({
        handId: hand.value,
        awards: [{ userId: bob, amount: 99 }],
        rake: 1,
        history: history([ann, bob]),
      });
      expect(raked.ok ? null : raked.error.code).toBe('RAKE_ON_PLAY_MONEY');
      const split = await storage.settleHand({
        handId: hand.value,
        awards: [
          { userId: bob, amount: 50 },
          { userId: ann, amount: 50 },
        ],
        rake: 0,
        history: history([ann, bob]),
      });
      expect(split.ok).toBe(true);
      expect((await storage.audit()).currencies.play).toMatchObject({ house: 0, seats: 200 });
      await conserved(storage);
    });

    it('a player sees his own view of his own hands only; the operator sees the full history', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      const carol = await user(storage, 'carol');
      await storage.settleHand({
        handId: hand,
        awards: [{ userId: bob, amount: 15 }],
        rake: 0,
        history: history([ann, bob]),
      });
      const list = await storage.handsOf(ann);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        handId: hand,
        tableId: 't1',
        currency: 'real',
        description: "NL Hold'em 0.05/0.10",
        net: -5,
      });
      expect((await storage.handsOf(bob))[0]?.net).toBe(5);
      expect(await storage.handsOf(carol)).toEqual([]);
      expect(await storage.handFor(hand, ann)).toMatchObject({
        handId: hand,
        phh: `phh for ${ann}`,
      });
      expect(await storage.handFor(hand, bob)).toMatchObject({ phh: `phh for ${bob}` });
      expect(await storage.handFor(hand, carol)).toBeNull();
      expect(await storage.handFull(hand)).toMatchObject({ phh: 'full phh' });
    });

    it('hand lists page newest first', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const ids: HandId[] = [];
      for (let i = 0; i < 5; i++) {
        const hand = await storage.startHand({
          tableId: 't',
          currency: 'play',
          description: `h${i}`,
          participants: [{ userId: ann, seat: 0, position: 0 }],
        });
        if (!hand.ok) throw new Error(hand.error.message);
        await storage.settleHand({ handId: hand.value, awards: [], rake: 0, history: history([ann]) });
        ids.push(hand.value);
      }
      const first = await storage.handsOf(ann, { limit: 2 });
      expect(first.map((h) => h.handId)).toEqual([ids[4], ids[3]]);
      const next = await storage.handsOf(ann, { limit: 10, before: ids[3]! });
      expect(next.map((h) => h.handId)).toEqual([ids[2], ids[1], ids[0]]);
    });

    it('server crash: recovery cancels the hand, returns every chip to who put it in, and empties the seats', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      await storage.recordAction({
        handId: hand,
        seq: 0,
        action: 'raise',
        moves: [{ userId: ann, amount: 295 }],
      });
      const report = await storage.recover();
      expect(report).toEqual({ handsCancelled: 1, refunded: 310, seatsCashedOut: 2, cashedOut: 2000 });
      expect(await storage.handStatus(hand)).toBe('cancelled');
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 5000 });
      expect(await storage.balances(bob)).toEqual({ play: 0, real: 5000 });
      expect(await storage.recover()).toEqual({
        handsCancelled: 0,
        refunded: 0,
        seatsCashedOut: 0,
        cashedOut: 0,
      });
      expect(await storage.handFor(hand, ann)).toBeNull();
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
