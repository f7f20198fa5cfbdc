/** The staff audit log's chain (./staff-audit.ts): how an entry's hash is made, and the check. */
import { createHash } from 'node:crypto';
import type { StaffLogCheck, StaffLogEntry } from './staff-audit.js';

export const GENESIS_HASH = '0'.repeat(64);

/** SHA-256 of the previous hash and the entry's fields, as one JSON array (unambiguous). */
export function entryHash(entry: Omit<StaffLogEntry, 'hash'>): string {
  return createHash('sha256')
    .update(JSON.stringify([entry.prevHash, entry.seq, entry.at, entry.staffId, entry.action, entry.detail]))
    .digest('hex');
}

/**
 * Checks entries read in order against the head (the last seq and hash recorded with each append): a
 * gap, a wrong link or hash, or a log that ends short of its head is the first entry broken.
 */
export function checkChain(
  entries: readonly StaffLogEntry[],
  head: { readonly seq: number; readonly hash: string },
): StaffLogCheck {
  const broken = (brokenAt: number): StaffLogCheck => ({ entries: entries.length, intact: false, brokenAt });
  let prevHash = GENESIS_HASH;
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== index + 1 || entry.prevHash !== prevHash || entryHash(entry) !== entry.hash) {
      return broken(index + 1);
    }
    prevHash = entry.hash;
  }
  // Entries beyond the head were slipped in; a head beyond the entries means some were taken away.
  if (head.seq < entries.length) return broken(head.seq + 1);
  if (head.seq > entries.length) return broken(entries.length + 1);
  if (head.hash !== prevHash) return broken(entries.length);
  return { entries: entries.length, intact: true, brokenAt: null };
}
