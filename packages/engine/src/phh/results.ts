/**
 * A file's answer fields against its replay. The answers (`finishing_stacks`, `winnings`) say what a
 * hand gave; they never set the unit the game is played in, so an answer finer than that unit, or
 * other than what the replay gives, is a disagreement to report, not a reason to play otherwise.
 */
import type { HandEvent } from '../hand/types.js';
import { formatScaled } from './decimal.js';
import { RESULT_FIELDS, type PhhHand, type PhhResultField } from './types.js';

export interface ResultDisagreement {
  readonly code: 'RESULT_DISAGREES';
  /** The answer field that disagrees. */
  readonly field: PhhResultField;
  readonly message: string;
}

/** What each player collected from the pots, after rake (PHH's `winnings`); uncalled bets returned are not. */
export function collectedPots(events: readonly HandEvent[], players: number): number[] {
  const collected = Array.from({ length: players }, () => 0);
  for (const event of events) if (event.type === 'award') collected[event.player]! += event.amount;
  return collected;
}

const list = (values: readonly number[], scale: number): string =>
  `[${values.map((value) => formatScaled(value, scale)).join(', ')}]`;

/**
 * The first answer field that disagrees with the game's unit or with the replay (finishing stacks, then
 * winnings), or null when every answer the file gives agrees.
 */
export function resultDisagreement(
  hand: PhhHand,
  replayed: { readonly finishingStacks: readonly number[]; readonly events: readonly HandEvent[] },
): ResultDisagreement | null {
  const disagree = (field: PhhResultField, message: string): ResultDisagreement => ({
    code: 'RESULT_DISAGREES',
    field,
    message: `${field}: ${message}`,
  });
  const unit = formatScaled(1, hand.scale);
  const answers: Record<PhhResultField, readonly number[] | undefined> = {
    finishing_stacks: hand.finishingStacks,
    winnings: hand.winnings,
  };
  const results: Record<PhhResultField, () => readonly number[]> = {
    finishing_stacks: () => replayed.finishingStacks,
    winnings: () => collectedPots(replayed.events, hand.startingStacks.length),
  };
  for (const field of RESULT_FIELDS) {
    const written = hand.resultsOffUnit?.[field];
    if (written !== undefined) {
      return disagree(
        field,
        `the file says [${written.join(', ')}], finer than the game's unit of ${unit} (its stacks, forced bets, limits and bets)`,
      );
    }
    const answer = answers[field];
    if (answer === undefined) continue;
    const result = results[field]();
    if (answer.some((value, i) => value !== result[i])) {
      return disagree(
        field,
        `the file says ${list(answer, hand.scale)}, the replay ${list(result, hand.scale)}`,
      );
    }
  }
  return null;
}
