/** Artificial all-ins allowed per account per 24 hours (RULES.md §1), counted in memory for the room. */
import type { AccountId, AllInCounter } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A counter shared by the room's tables: the grants of each account in the last 24 hours, whichever
 * table gave them; each table asks with its own allowance (`perDay`).
 */
export function memoryAllInCounter(): AllInCounter {
  const used = new Map<AccountId, number[]>();
  const recent = (account: AccountId, now: number): number[] => {
    const list = (used.get(account) ?? []).filter((at) => now - at < DAY_MS);
    used.set(account, list);
    return list;
  };
  return {
    take(account, now, perDay) {
      const list = recent(account, now);
      if (list.length >= perDay) return false;
      list.push(now);
      return true;
    },
    left(account, now, perDay) {
      return Math.max(0, perDay - recent(account, now).length);
    },
  };
}
