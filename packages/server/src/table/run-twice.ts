/**
 * Run it twice at a cash table (docs/rules.md, Run it twice): offered at most once a hand, when the
 * table offers it (`runItTwice` in its configuration) and the engine allows it (all in, no betting
 * left, board cards to come), to every player still in the hand; the board is run twice when all of
 * them agree, once when one declines or the offer's clock (`clocks.runTwiceMs`) runs out.
 */
import { broadcastSnapshot, timer, type Run } from './effects.js';
import type { HandInPlay, MachineState, RunTwiceOffer } from './state.js';

/** Whether the hand waits here for the offer: the table offers it, a cash table, not asked yet, allowed now. */
export function runTwiceDue(s: MachineState, hand: HandInPlay): boolean {
  return (
    s.settings.runItTwice &&
    s.policies.chips === 'ledger' &&
    hand.runTwice === null &&
    hand.engine.canRunTwice()
  );
}

/** Asks the players still in; the snapshot shows the offer to everybody. */
export function offerRunTwice(run: Run, hand: HandInPlay): void {
  const players: number[] = [];
  hand.engine.snapshot().players.forEach((player, p) => {
    if (!player.folded) players.push(p);
  });
  const ms = run.s.settings.clocks.runTwiceMs;
  hand.runTwice = { players, accepted: new Set(), deadline: run.now + ms, open: true };
  timer(run, 'run-twice', ms);
  broadcastSnapshot(run);
}

/**
 * Player `p`'s answer to the open offer: 'wait' while others have still to agree, else the outcome
 * ('agreed': everybody did; 'declined'), which closes the offer.
 */
export function answerRunTwice(
  run: Run,
  offer: RunTwiceOffer,
  p: number,
  accept: boolean,
): 'wait' | 'agreed' | 'declined' {
  if (accept) offer.accepted.add(p);
  const outcome = !accept ? 'declined' : offer.accepted.size === offer.players.length ? 'agreed' : 'wait';
  if (outcome === 'wait') broadcastSnapshot(run);
  else closeRunTwice(run, offer);
  return outcome;
}

/** Ends the offer (answered, or its clock ran out): the snapshot takes it off everybody's table. */
export function closeRunTwice(run: Run, offer: RunTwiceOffer): void {
  offer.open = false;
  timer(run, 'run-twice', null);
  broadcastSnapshot(run);
}
