/**
 * What the storage contract suites (storage-contract-*.ts) share: opening a part for one test, and the
 * users, money and hand they set up.
 */
import { afterEach, expect } from 'vitest';
import type {
  AccountStore,
  HandHistoryInput,
  HandId,
  HandJournal,
  Ledger,
  RecoveryReport,
  UserId,
} from '../src/storage/index.js';

export interface Closable {
  close(): Promise<void>;
}

/** Opens a fresh, empty, migrated store for a test; every store opened is closed after it. */
export function opener<T extends Closable>(factory: () => Promise<T>): () => Promise<T> {
  const opened: T[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  return async () => {
    const store = await factory();
    opened.push(store);
    return store;
  };
}

export async function user(storage: AccountStore, name: string): Promise<UserId> {
  const created = await storage.createUser({
    name,
    passwordHash: `hash-${name}`,
    passwordSalt: `salt-${name}`,
  });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

export async function conserved(storage: Ledger): Promise<void> {
  const report = await storage.audit();
  expect(report.problems).toEqual([]);
  expect(report.conserved).toBe(true);
}

export const history = (userIds: readonly UserId[]): HandHistoryInput => ({
  phh: 'full phh',
  views: userIds.map((userId) => ({ userId, phh: `phh for ${userId}` })),
});

/** What the one-process server does on start: recover every table the journal shows in play. */
export async function recoverEveryTable(storage: HandJournal): Promise<RecoveryReport> {
  return storage.recoverTables(await storage.tablesInPlay());
}

/** Ann and Bob at real-money table t1 with 1000 each, a hand started with blinds 5/10. */
export async function handStarted(
  storage: AccountStore & Ledger & HandJournal,
): Promise<{ ann: UserId; bob: UserId; hand: HandId }> {
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
