/**
 * A level's stakes as a table's (`TableStakes`, ../table/types.ts) for one game of the tournament.
 * The table's big blind is its `small` and its small blind half of that, rounded down (RULES.md §1),
 * so a button game's level gives `small` = its big blind; a fixed- or spread-limit level gives its small
 * and big bets (the big blind is the small bet, as in limit cash games); a stud level gives its ante and
 * bring-in, its bets being its limits (or, in a big-bet stud game, twice the bring-in).
 */
import type { TableStakes } from '../table/types.js';
import { hasButton, type GameSpec, type Level } from './structure.js';

export function tableStakes(level: Level, spec: GameSpec): TableStakes {
  const limit = spec.structure === 'fixed-limit' || spec.structure === 'spread-limit';
  const spread =
    spec.structure === 'spread-limit' && level.spreadLimits ? { spreadLimits: level.spreadLimits } : {};
  if (hasButton(spec.game)) {
    if (limit && level.limits) return { small: level.limits.small, big: level.limits.big, ...spread };
    const bigBlind = level.blinds?.big ?? level.limits?.small ?? 1;
    return { small: bigBlind, big: 2 * bigBlind, ...spread };
  }
  const bringIn = level.bringIn ?? 1;
  const small = level.limits?.small ?? 2 * bringIn;
  return { small, big: level.limits?.big ?? 2 * small, ante: level.ante ?? 0, bringIn, ...spread };
}
