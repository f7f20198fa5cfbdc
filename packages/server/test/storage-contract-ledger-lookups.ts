/**
 * The contract of the ledger's lookups (the console's ledger view): a transaction read back by id with
 * every posting, summing to zero; a player's transactions through his accounts; a hand's by its
 * settlement; none for an unknown id.
 */
import { describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/index.js';
import { handStarted, history, opener, type Closable } from './storage-contract-helpers.js';

export function ledgerLookupsContract(name: string, factory: () => Promise<Storage & Closable>): void {
  describe(`Ledger lookups contract: ${name}`, () => {
    const open = opener(factory);

    it('a transaction reads back with every posting (accounts, amounts, currency, memo), summing to 0; a player’s and a hand’s are found, newest first', async () => {
      const storage = await open();
      const { ann, bob, hand } = await handStarted(storage);
      const settled = await storage.settleHand({
        handId: hand,
        awards: [{ userId: bob, amount: 15 }],
        rake: 0,
        history: history([ann, bob]),
      });
      expect(settled.ok).toBe(true);

      const ofAnn = await storage.ledgerTransactionsOf({ userId: ann }, 10);
      expect(ofAnn.map((t) => t.kind)).toEqual(['hand', 'buy-in', 'cashier-credit']);
      for (const transaction of ofAnn) {
        expect(transaction.postings.reduce((sum, posting) => sum + posting.amount, 0)).toBe(0);
      }
      const buyIn = ofAnn[1]!;
      expect(await storage.ledgerTransaction(buyIn.id)).toEqual(buyIn);
      expect(buyIn).toMatchObject({ currency: 'real', memo: 't1' });
      expect(buyIn.postings).toEqual(
        expect.arrayContaining([
          { account: { kind: 'user', currency: 'real', userId: ann }, amount: -1000 },
          { account: { kind: 'seat', currency: 'real', tableId: 't1', userId: ann }, amount: 1000 },
        ]),
      );
      expect(buyIn.postings).toHaveLength(2);
      expect(await storage.ledgerTransactionsOf({ userId: ann }, 1)).toEqual([ofAnn[0]]);

      const ofHand = await storage.ledgerTransactionsOf({ handId: hand }, 10);
      expect(ofHand).toEqual([ofAnn[0]]);
      expect(ofHand[0]).toMatchObject({ kind: 'hand', memo: `hand ${hand}` });
      expect(ofHand[0]!.postings).toEqual(
        expect.arrayContaining([
          { account: { kind: 'seat', currency: 'real', tableId: 't1', userId: ann }, amount: -5 },
          { account: { kind: 'seat', currency: 'real', tableId: 't1', userId: bob }, amount: 5 },
        ]),
      );
      expect(await storage.ledgerTransactionsOf({ handId: hand + 1 }, 10)).toEqual([]);
      expect(await storage.ledgerTransaction(999_999)).toBeNull();
    });
  });
}
