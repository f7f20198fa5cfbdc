/**
 * The staff audit log: every action of the room's staff (and of `felt admin` at the machine), appended
 * to a table no statement may change or delete from (the schema's triggers refuse it), each entry
 * chained to the one before by a SHA-256 hash — so that an entry altered, removed or slipped in behind
 * the database's back breaks the chain, which `checkStaffLog` (and `felt admin audit`) finds.
 */
import type { StorageResult, UserId } from './common.js';

export interface StaffAction {
  /** The staff account that acted; null for `felt admin` at the machine, which has none. */
  readonly staffId: UserId | null;
  /** What was done, e.g. `grant`, `cashier-credit`, `hand-lookup`. */
  readonly action: string;
  /** Its particulars as JSON text (whom, how much, why), written as given. */
  readonly detail: string;
}

export interface StaffLogEntry extends StaffAction {
  /** 1, 2, 3, … with no gap. */
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** The previous entry's hash (64 zeros before the first). */
  readonly prevHash: string;
  /** SHA-256 (hex) of the previous hash and this entry (see ./staff-chain.ts). */
  readonly hash: string;
}

/** What the check of the chain found. */
export interface StaffLogCheck {
  readonly entries: number;
  readonly intact: boolean;
  /** The first entry whose hash, link or number is wrong, or where the log ends short of its head; null when intact. */
  readonly brokenAt: number | null;
}

export interface StaffAudit {
  /** Appends an entry at the end of the chain; concurrent appends are ordered, never forked. */
  appendStaffAction(action: StaffAction): Promise<StorageResult<StaffLogEntry>>;
  /** The entries from `afterSeq` on (default all), in order, at most `limit` (default 100). */
  staffLog(afterSeq?: number, limit?: number): Promise<readonly StaffLogEntry[]>;
  /** Recomputes the whole chain in one snapshot. */
  checkStaffLog(): Promise<StaffLogCheck>;
}
