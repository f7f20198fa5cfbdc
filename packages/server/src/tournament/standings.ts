/**
 * What the tables and the tournament page show of the field: the players left ranked by chips, and
 * the average stack.
 */
import type { PlayerId } from './seating.js';

export interface Standing {
  readonly player: PlayerId;
  readonly chips: number;
  /** 1 = the chip leader; equal stacks share a rank, and the next rank counts them (1, 2, 2, 4). */
  readonly rank: number;
}

/** The players left, most chips first (equal stacks: in the order given). */
export function standings(stacks: ReadonlyMap<PlayerId, number>): Standing[] {
  const sorted = [...stacks].sort((a, b) => b[1] - a[1]);
  let rank = 0;
  return sorted.map(([player, chips], i) => {
    if (i === 0 || chips !== sorted[i - 1]![1]) rank = i + 1;
    return { player, chips, rank };
  });
}

/** The average stack of the players left, rounded down to a whole chip (0 when nobody is left). */
export function averageStack(totalChips: number, playersLeft: number): number {
  return playersLeft > 0 ? Math.floor(totalChips / playersLeft) : 0;
}
