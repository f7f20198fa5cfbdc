/**
 * The check of a finished hand's history by the engine's verifier (docs/fairness.md). This module and the
 * PHH reader load with a hand's history (./components/HandDetail.tsx), and the verifier, which replays the
 * hand on the engine's state machine, only when a player asks for a check (`@felt/engine/verify`).
 */
import { parsePhh, toHex, type PhhHand } from '@felt/engine/browser';
import { shortHex } from './fair';

/** One thing the check looked at, and whether it held ('skipped': an earlier check failed first). */
export interface FairCheckLine {
  readonly name: 'chain' | 'commitment' | 'contributions' | 'cards';
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly text: string;
}

export type FairCheck =
  | { readonly kind: 'checked'; readonly ok: boolean; readonly lines: readonly FairCheckLine[] }
  /** The secret is not in the history yet (the reveal rule, docs/fairness.md §8). */
  | { readonly kind: 'not-revealed'; readonly commitment: string }
  /** The history cannot be read or carries no fair-dealing fields. */
  | { readonly kind: 'unreadable'; readonly reason: string };

/** The table seat (from 0) of the player named `name` in a history's `players` and `seats`, or null. */
function seatOf(extra: PhhHand['extra'], name: string | null): number | null {
  const players = extra['players'];
  const seats = extra['seats'];
  if (name === null || !Array.isArray(players) || !Array.isArray(seats)) return null;
  const seat: unknown = seats[players.indexOf(name)];
  return typeof seat === 'number' ? seat - 1 : null;
}

/** Which check the verifier's reason belongs to (its reasons start with the check's name). */
function failedCheck(reason: string): FairCheckLine['name'] | 'other' {
  if (reason.startsWith('commitment')) return 'commitment';
  if (reason.startsWith('chain')) return 'chain';
  if (reason.startsWith('contribution')) return 'contributions';
  if (reason.startsWith('card') || reason.startsWith('actions')) return 'cards';
  return 'other';
}

/**
 * Checks one hand's PHH with the engine's verifier and says what was checked: the commitment against
 * the revealed secret, the chain link it names, each contribution against its listed hash (the
 * player's own among them: `ownName` is his name in the history), and every card dealt against the
 * committed deck. The verifier stops at the first failure: the checks after it are not run.
 */
export async function checkHand(phh: string, ownName: string | null): Promise<FairCheck> {
  const parsed = parsePhh(phh);
  if (!parsed.ok) return { kind: 'unreadable', reason: parsed.error.message };
  const hand = parsed.value;
  const { verifyFairHand, readFairFields } = await import('@felt/engine/verify');
  const record = readFairFields(hand.extra);
  if (typeof record === 'string') return { kind: 'unreadable', reason: record };
  const hex = (bytes: Uint8Array): string => shortHex(toHex(bytes));
  if (record.secret === null) return { kind: 'not-revealed', commitment: toHex(record.commitment) };
  const verdict = verifyFairHand(hand);
  const failed = verdict.ok ? null : failedCheck(verdict.reason);
  if (failed === 'other') return { kind: 'unreadable', reason: verdict.ok ? '' : verdict.reason };
  const known = hand.actions
    .flatMap((action) => (action.kind === 'deal-hole' || action.kind === 'deal-board' ? action.cards : []))
    .filter((card) => card !== null).length;
  const ownSeat = seatOf(hand.extra, ownName);
  const own = ownSeat === null ? -1 : record.seats.indexOf(ownSeat);
  const texts: Record<FairCheckLine['name'], string> = {
    commitment: `SHA-256 of the revealed secret gives the commitment ${hex(record.commitment)} (hand ${record.hand} of table ${record.table})`,
    chain:
      record.hand === 1
        ? "the table's first hand names no previous commitment"
        : `the commitment names hand ${record.hand - 1}'s commitment ${hex(record.previous)}`,
    contributions:
      `${record.seats.length} contribution${record.seats.length === 1 ? '' : 's'} give their listed hashes` +
      (own >= 0 && ownSeat !== null ? `; yours (seat ${ownSeat + 1}) was used` : ''),
    cards: `each of the ${known} cards dealt that this history shows is the committed deck's card at its position (cards hidden from you are not compared)`,
  };
  // The verifier's order; it counts the contributions before it recomputes the commitment.
  const order = ['chain', 'commitment', 'contributions', 'cards'] as const;
  const at = failed === null ? order.length : order.indexOf(failed);
  const miscounted =
    failed === 'contributions' && !(!verdict.ok && verdict.reason.includes('does not match'));
  const lines = order.map((name, i): FairCheckLine => {
    if (i < at && !(miscounted && name === 'commitment'))
      return { name, status: 'passed', text: texts[name] };
    if (i !== at) return { name, status: 'skipped', text: 'not checked: an earlier check failed' };
    return { name, status: 'failed', text: verdict.ok ? '' : verdict.reason };
  });
  return { kind: 'checked', ok: verdict.ok, lines };
}
