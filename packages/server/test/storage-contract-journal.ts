/**
 * The contract every HandJournal implementation passes (hands in progress, their settlement,
 * cancellation and crash recovery by table), with the account store and the ledger it posts to. Test
 * names say the rule they check.
 */
import { describe, expect, it } from 'vitest';
import type { AccountStore, HandJournal, Ledger } from '../src/storage/index.js';
import {
  conserved,
  handStarted,
  history,
  opener,
  recoverEveryTable,
  user,
  type Closable,
} from './storage-contract-helpers.js';

export function handJournalContract(
  name: string,
  factory: () => Promise<AccountStore & Ledger & HandJournal & Closable>,
): void {
  describe(`HandJournal contract: ${name}`, () => {
    const open = opener(factory);

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

    it('a hand in progress keeps the state it was dealt from and its actions in order, for another owner to go on with it', async () => {
      const storage = await open();
      // A hand stored without its start (an older Felt's) at another table.
      const other = await handStarted(storage);
      const { ann, bob } = other;
      for (const id of [ann, bob]) await storage.buyIn('t2', id, 'real', 1000);
      expect(await storage.handInPlay('t2')).toBeNull();
      const start = JSON.stringify({ stacks: [1000, 1000], plan: { button: 4 } });
      const started = await storage.startHand({
        tableId: 't2',
        currency: 'real',
        description: 'resumable',
        participants: [
          { userId: ann, seat: 1, position: 0 },
          { userId: bob, seat: 4, position: 1 },
        ],
        start,
      });
      if (!started.ok) throw new Error(started.error.message);
      const hand = started.value;
      for (const [seq, action] of ['{"a":0}', '{"a":1}', '{"a":2}'].entries()) {
        expect((await storage.recordAction({ handId: hand, seq, action })).ok).toBe(true);
      }
      expect(await storage.handInPlay('t2')).toEqual({
        handId: hand,
        start,
        actions: ['{"a":0}', '{"a":1}', '{"a":2}'],
      });
      expect(await storage.handInPlay('t1')).toEqual({ handId: other.hand, start: null, actions: [] });
      expect((await storage.cancelHand(hand)).ok).toBe(true);
      expect(await storage.handInPlay('t2')).toBeNull();
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

    it('server crash: recovery cancels the hand, returns every chip to who put it in, and empties the seats', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      await storage.recordAction({
        handId: hand,
        seq: 0,
        action: 'raise',
        moves: [{ userId: ann, amount: 295 }],
      });
      const report = await recoverEveryTable(storage);
      expect(report).toEqual({ handsCancelled: 1, refunded: 310, seatsCashedOut: 2, cashedOut: 2000 });
      expect(await storage.handStatus(hand)).toBe('cancelled');
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 5000 });
      expect(await storage.balances(bob)).toEqual({ play: 0, real: 5000 });
      expect(await recoverEveryTable(storage)).toEqual({
        handsCancelled: 0,
        refunded: 0,
        seatsCashedOut: 0,
        cashedOut: 0,
      });
      await conserved(storage);
    });

    it('recovery of a table cancels only its hands and empties only its seats; another table plays on', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      for (const id of [ann, bob]) await storage.buyIn('t2', id, 'real', 500);
      const other = await storage.startHand({
        tableId: 't2',
        currency: 'real',
        description: 'other table',
        participants: [
          { userId: ann, seat: 0, position: 0 },
          { userId: bob, seat: 1, position: 1 },
        ],
        posts: [
          { userId: ann, amount: 20 },
          { userId: bob, amount: 40 },
        ],
      });
      if (!other.ok) throw new Error(other.error.message);
      expect(await storage.tablesInPlay()).toEqual(['t1', 't2']);
      expect(await storage.recoverTables(['t1'])).toEqual({
        handsCancelled: 1,
        refunded: 15,
        seatsCashedOut: 2,
        cashedOut: 2000,
      });
      expect(await storage.handStatus(hand)).toBe('cancelled');
      expect(await storage.handStatus(other.value)).toBe('in-progress');
      expect(await storage.contributions(other.value)).toEqual({
        ok: true,
        value: [
          { userId: ann, amount: 20 },
          { userId: bob, amount: 40 },
        ],
      });
      expect(await storage.seats()).toEqual([
        { tableId: 't2', userId: ann, currency: 'real', amount: 500 },
        { tableId: 't2', userId: bob, currency: 'real', amount: 500 },
      ]);
      expect(await storage.tablesInPlay()).toEqual(['t2']);
      // The other table's hand goes on to its end.
      expect(
        (
          await storage.recordAction({
            handId: other.value,
            seq: 0,
            action: 'fold',
            settlement: { awards: [{ userId: bob, amount: 60 }], rake: 0, history: history([ann, bob]) },
          })
        ).ok,
      ).toBe(true);
      expect(await storage.seat('t2', bob, 'real')).toBe(520);
      await conserved(storage);
    });

    it('the tables in play are those with a hand in progress or a seat holding chips, and recovering none moves nothing', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      expect(await storage.tablesInPlay()).toEqual([]);
      await storage.topUp(ann, 100);
      await storage.buyIn('b', ann, 'play', 40);
      const hand = await storage.startHand({
        tableId: 'a',
        currency: 'play',
        description: 'alone',
        participants: [{ userId: ann, seat: 0, position: 0 }],
      });
      if (!hand.ok) throw new Error(hand.error.message);
      await storage.buyIn('c', ann, 'play', 10);
      await storage.cashOut('c', ann, 'play');
      expect(await storage.tablesInPlay()).toEqual(['a', 'b']);
      const before = await storage.audit();
      expect(await storage.recoverTables([])).toEqual({
        handsCancelled: 0,
        refunded: 0,
        seatsCashedOut: 0,
        cashedOut: 0,
      });
      expect(await storage.recoverTables(['elsewhere'])).toEqual({
        handsCancelled: 0,
        refunded: 0,
        seatsCashedOut: 0,
        cashedOut: 0,
      });
      expect(await storage.audit()).toEqual(before);
      expect(await storage.handStatus(hand.value)).toBe('in-progress');
      await conserved(storage);
    });
  });
}
