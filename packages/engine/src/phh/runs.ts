/**
 * Run it twice in a hand history. PHH has no action for the number of runs, so a hand whose board was
 * run twice says so in the user-defined field `_runs = 2` (PokerKit and other readers ignore `_`
 * fields); its actions then deal the first run's board cards and after them the second run's, each
 * run the same streets (docs/rules.md, Run it twice).
 */
import type { PhhExtraValue } from './types.js';

export const RUNS_FIELD = '_runs';

/** The number of runs a history's fields give (absent: one), or why the field is bad. */
export function readRuns(extra: Readonly<Record<string, PhhExtraValue>>): 1 | 2 | string {
  const value = extra[RUNS_FIELD];
  if (value === undefined || value === 1) return 1;
  if (value === 2) return 2;
  return `${RUNS_FIELD} must be 1 or 2, not ${JSON.stringify(value)}`;
}

/** The fields to add to a history of a hand dealt `runs` times: `_runs` only when it was run twice. */
export const runsFields = (runs: 1 | 2): Record<string, PhhExtraValue> =>
  runs === 2 ? { [RUNS_FIELD]: 2 } : {};
