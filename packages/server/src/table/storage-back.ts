/**
 * The table going on after its storage refused a write (a full disk, the database out of reach), by the
 * room's crash rule applied to this table alone, without a restart (RULES.md §1): the actor has
 * cancelled every hand storage held in progress for the table — its chips never left the seats' ledger
 * accounts — and read each seat's chips back, so the machine drops whatever it had played beyond what
 * was stored and takes the stacks storage holds. A snapshot without the hand then shows everybody the
 * truth, the players who asked to leave are cashed out, and the next hand is scheduled.
 */
import { broadcastSnapshot, timer, type Run, type TimerName } from './effects.js';
import { releaseSeat, scheduleHand } from './hand-flow.js';
import type { AccountId } from './types.js';

const TIMERS: readonly TimerName[] = ['next-hand', 'decision', 'blind', 'run-twice'];

export function storageBack(run: Run, stacks: ReadonlyMap<AccountId, number>): void {
  const s = run.s;
  s.hand = null;
  s.storing = null;
  s.decisionFor = null;
  s.blindRequest = null;
  s.consented.clear();
  s.nextHandDue = false;
  for (const name of TIMERS) timer(run, name, null);
  for (const seat of s.seats) if (seat !== null) seat.stack = stacks.get(seat.account) ?? 0;
  for (const seat of s.seats) if (seat?.leaving === true) releaseSeat(run, seat);
  broadcastSnapshot(run);
  scheduleHand(run);
}
