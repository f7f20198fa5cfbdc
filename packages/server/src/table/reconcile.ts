/**
 * What a ledger table asks of storage to go on after storage refused one of its writes: the crash rule
 * applied to this table alone (docs/storage.md, crash recovery), except that the seats are kept. Every
 * step is idempotent, so an attempt that fails halfway (the disk still full) is simply made again:
 *
 * 1. every hand storage holds in progress for the table is cancelled — its chips never left the seats;
 * 2. the players the table no longer seats but whose seats may hold chips (a cash-out that failed or
 *    never ran, a player who left a hand he had folded) are cashed out;
 * 3. the chain's stored link is written again, unchanged — the write that proves storage takes writes
 *    even when there was nothing to cancel or cash out;
 * 4. each seated player's chips are read back: the stacks the table goes on with.
 *
 * Through a fenced storage (a room of several processes) each write is checked against the table's
 * lease like any other, so a member that lost the table changes nothing.
 */
import type { Currency } from '../storage/common.js';
import type { FairLink } from '../storage/types.js';
import type { HandStart } from './hand-start.js';
import type { AccountId, TableRecoveryStorage, TableStorage } from './types.js';

export interface StoredTable {
  readonly link: FairLink | null;
  readonly stacks: ReadonlyMap<AccountId, number>;
}

export async function reconcileWithStorage(
  storage: Pick<TableStorage, 'cashOut' | 'fairLink' | 'saveFairLink'>,
  recovery: TableRecoveryStorage,
  tableId: string,
  currency: Currency,
  seated: readonly AccountId[],
  owed: Iterable<AccountId>,
): Promise<StoredTable> {
  const toCashOut = new Set(owed);
  const cancelled = new Set<number>();
  for (
    let hand = await recovery.handInPlay(tableId);
    hand !== null;
    hand = await recovery.handInPlay(tableId)
  ) {
    if (cancelled.has(hand.handId)) throw new Error(`hand ${hand.handId} stays in progress after its cancel`);
    cancelled.add(hand.handId);
    if (hand.start !== null)
      for (const account of (JSON.parse(hand.start) as HandStart).accounts) toCashOut.add(account);
    const done = await recovery.cancelHand(hand.handId);
    if (!done.ok && done.error.code !== 'HAND_NOT_IN_PROGRESS')
      throw new Error(`storage refused to cancel hand ${hand.handId}: ${done.error.message}`);
  }
  for (const account of seated) toCashOut.delete(account);
  for (const account of toCashOut) {
    const out = await storage.cashOut(tableId, account, currency);
    if (!out.ok) throw new Error(`cash-out refused: ${out.error.message}`);
  }
  const link = await storage.fairLink(tableId);
  if (link !== null) {
    const saved = await storage.saveFairLink(tableId, link);
    if (!saved.ok) throw new Error(`storage refused the fair chain: ${saved.error.message}`);
  }
  const stacks = new Map<AccountId, number>();
  for (const account of seated) stacks.set(account, await recovery.seat(tableId, account, currency));
  return { link, stacks };
}
