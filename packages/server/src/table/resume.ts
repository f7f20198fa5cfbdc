/**
 * A hand handed over in play (../cluster/): the new owner of the table, its seats restored, goes on
 * with the hand from the state it was dealt from (./hand-start.ts) and the actions its journal
 * recorded since. The same cards come (the stored fair-dealing secret and contributions), every
 * recorded action is applied again with what the table dealt after it, and each must make exactly the
 * events it made then; only then is the hand the table's, announced afresh (same hand id), and the
 * player to act gets a fresh decision clock with his time bank as it was at the deal. Actions from
 * then on are recorded with the next sequence numbers. Pure, like the machine (./machine.ts).
 */
import type { HandAction } from '@felt/engine';
import { resolveTable } from './config.js';
import { timer, type Run } from './effects.js';
import { dealHand } from './fair.js';
import { advance, dealHandEngine, nextDecision, playHand, takePlan } from './hand-flow.js';
import { fairFromStart, type HandStart } from './hand-start.js';
import { offerRunTwice } from './run-twice.js';
import type { HandInPlay, MachineState } from './state.js';
import {
  TableErrorCode,
  type AccountId,
  type CommandResult,
  type ControllerCommand,
  type TableStakes,
} from './types.js';

/** A journaled action as the table records it (./hand-flow.ts `commit`). */
interface RecordedAction {
  readonly by: AccountId | null;
  readonly action: HandAction | null;
  /** The engine events it made, deals included. */
  readonly events: number;
}

const refuse = (message: string): CommandResult => ({
  ok: false,
  error: { code: TableErrorCode.WRONG_STATE, message },
});

const sameStakes = (a: TableStakes, b: TableStakes): boolean =>
  a.small === b.small && a.big === b.big && a.ante === b.ante;

export function resumeHand(
  run: Run,
  command: Extract<ControllerCommand, { type: 'resume-hand' }>,
): CommandResult {
  const s = run.s;
  if (s.policies.chips !== 'ledger') return refuse('hands are resumed at ledger tables only');
  if (s.hand !== null || s.storing !== null || s.blindRequest !== null)
    return refuse('a hand is resumed before any other starts');
  if (s.fair === null) return refuse('the table has not taken up its chain yet');
  const rebuilt = rebuild(s, command, run.now);
  if (rebuilt === null) return refuse(`hand ${command.handId} does not replay as it was recorded`);
  const { start, hand, offer } = rebuilt;
  const { order } = start.plan;
  // Every player still in the hand at his seat with his stack at the deal; one who folded may have left.
  const players = hand.engine.snapshot().players;
  for (const [p, seatNumber] of order.entries()) {
    const seat = s.seats[seatNumber];
    const his = seat !== null && seat !== undefined && seat.account === start.accounts[p];
    if (his ? seat.stack !== start.stacks[p] : !players[p]!.folded)
      return refuse(`seat ${seatNumber} is not as hand ${command.handId} was dealt`);
  }
  // The hand is the table's now: its marks, its players' choices at the deal, no other hand due.
  s.settings = hand.settings;
  takePlan(s, start.plan);
  for (const [p, seatNumber] of order.entries()) {
    const seat = s.seats[seatNumber];
    if (seat === null || seat === undefined || seat.account !== start.accounts[p]) continue;
    seat.muckLosing = start.muckLosing[p] ?? seat.muckLosing;
    seat.timeBankMs = start.timeBankMs[p] ?? seat.timeBankMs;
  }
  s.nextHandDue = false;
  timer(run, 'next-hand', null);
  s.handNumber++;
  playHand(run, hand);
  if (offer) offerRunTwice(run, hand);
  else nextDecision(run);
  return { ok: true };
}

/**
 * The hand dealt again from its stored start, with the recorded actions applied, each followed by what
 * the table dealt then; null when the start is damaged, an action is refused or makes other events than
 * it did, or the hand ends (a settled hand is not in progress). `offer`: the hand waits for a
 * run-it-twice answer (the offer is made again: an answer ends the hand, so only the last record can
 * stop at an offer). The table's state is only read.
 */
function rebuild(
  s: MachineState,
  command: Extract<ControllerCommand, { type: 'resume-hand' }>,
  now: number,
): { readonly start: HandStart; readonly hand: HandInPlay; readonly offer: boolean } | null {
  try {
    const start = JSON.parse(command.start) as HandStart;
    const settings = sameStakes(s.settings.config.stakes, start.stakes)
      ? s.settings
      : resolveTable({ ...s.settings.config, stakes: start.stakes });
    const { link, contributions } = fairFromStart(start.fair);
    const { fair, deck } = dealHand(s.id, link, contributions);
    const engine = dealHandEngine(settings, start.plan, start.stacks, deck);
    const hand: HandInPlay = {
      id: command.handId,
      number: s.handNumber + 1,
      engine,
      settings,
      plan: start.plan,
      order: start.plan.order,
      accounts: start.accounts,
      names: start.names,
      fair,
      startedAt: now,
      clock: null,
      recordSeq: command.actions.length,
      announced: 0,
      bankFrom: null,
      runTwice: null,
    };
    let offer = false;
    for (const json of command.actions) {
      const record = JSON.parse(json) as RecordedAction;
      const from = engine.events.length;
      offer = advance(s, hand, record.action);
      if (engine.events.length - from !== record.events) return null;
    }
    return engine.isDone || (!offer && engine.actor === null) ? null : { start, hand, offer };
  } catch {
    return null;
  }
}
