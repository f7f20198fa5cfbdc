/**
 * The contract every HandHistories implementation passes (a player's hands and the views he may see),
 * with the parts that settle the hands it reads. Test names say the rule they check.
 */
import { describe, expect, it } from 'vitest';
import type { AccountStore, HandHistories, HandId, HandJournal, Ledger } from '../src/storage/index.js';
import {
  handStarted,
  history,
  opener,
  recoverEveryTable,
  user,
  type Closable,
} from './storage-contract-helpers.js';

export function handHistoriesContract(
  name: string,
  factory: () => Promise<AccountStore & Ledger & HandJournal & HandHistories & Closable>,
): void {
  describe(`HandHistories contract: ${name}`, () => {
    const open = opener(factory);

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

    it('the staff list settled hands newest first by table and by when they ended, never one in play or cancelled', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const hand = async (tableId: string, settle: 'settle' | 'cancel' | 'leave'): Promise<HandId> => {
        const started = await storage.startHand({
          tableId,
          currency: 'play',
          description: `at ${tableId}`,
          participants: [{ userId: ann, seat: 0, position: 0 }],
        });
        if (!started.ok) throw new Error(started.error.message);
        if (settle === 'settle')
          await storage.settleHand({ handId: started.value, awards: [], rake: 0, history: history([ann]) });
        if (settle === 'cancel') await storage.cancelHand(started.value);
        return started.value;
      };
      const first = await hand('t1', 'settle');
      const second = await hand('t2', 'settle');
      await hand('t1', 'cancel');
      const third = await hand('t1', 'settle');
      await hand('t1', 'leave');
      const all = await storage.handsWhere({});
      expect(all.map((h) => h.handId)).toEqual([third, second, first]);
      expect(all[2]).toMatchObject({ tableId: 't1', currency: 'play', description: 'at t1' });
      expect((await storage.handsWhere({ tableId: 't1' })).map((h) => h.handId)).toEqual([third, first]);
      expect((await storage.handsWhere({ limit: 1 })).map((h) => h.handId)).toEqual([third]);
      const when = all[1]!.endedAt;
      expect((await storage.handsWhere({ endedFrom: when, endedTo: when })).map((h) => h.handId)).toContain(
        second,
      );
      const after = await storage.handsWhere({ endedFrom: all[0]!.endedAt + 1 });
      expect(after).toEqual([]);
      expect((await storage.handsWhere({ endedTo: all[2]!.endedAt - 1 })).map((h) => h.handId)).toEqual([]);
    });

    it('a cancelled hand has no history', async () => {
      const storage = await open();
      const { ann, hand } = await handStarted(storage);
      await recoverEveryTable(storage);
      expect(await storage.handFor(hand, ann)).toBeNull();
      expect(await storage.handFull(hand)).toBeNull();
      expect(await storage.handsOf(ann)).toEqual([]);
    });

    it('settled hands are read in id order with their participants and full history, a cancelled one never', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      await storage.settleHand({
        handId: hand,
        awards: [{ userId: bob, amount: 15 }],
        rake: 0,
        history: history([ann, bob]),
      });
      const cancelled = await storage.startHand({
        tableId: 't1',
        currency: 'real',
        description: 'cancelled',
        participants: [{ userId: ann, seat: 1, position: 0 }],
      });
      if (!cancelled.ok) throw new Error(cancelled.error.message);
      await storage.cancelHand(cancelled.value);
      const later = await storage.startHand({
        tableId: 't2',
        currency: 'play',
        description: 'later',
        participants: [{ userId: bob, seat: 0, position: 0 }],
      });
      if (!later.ok) throw new Error(later.error.message);
      await storage.settleHand({ handId: later.value, awards: [], rake: 0, history: history([bob]) });

      const all = await storage.settledHands();
      expect(all.map((h) => h.handId)).toEqual([hand, later.value]);
      expect(all[0]).toMatchObject({ tableId: 't1', currency: 'real', phh: 'full phh' });
      expect(all[0]!.players).toEqual([
        { userId: ann, name: 'ann', seat: 1, position: 0, contributed: 5, won: 0 },
        { userId: bob, name: 'bob', seat: 4, position: 1, contributed: 10, won: 15 },
      ]);
      expect((await storage.settledHands({ after: hand })).map((h) => h.handId)).toEqual([later.value]);
      expect((await storage.settledHands({ limit: 1 })).map((h) => h.handId)).toEqual([hand]);
    });
  });
}
