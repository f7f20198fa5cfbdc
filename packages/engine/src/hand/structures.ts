/**
 * Betting structures: the amounts a betting round works with (RULES.md §2). The rules that use them
 * (minimum raise, caps, pot-limit maximum) live in the state machine (./hand.ts, `nominalRange`).
 */
import type { HandConfig } from './types.js';

/** The configuration fields the limits are made of (a `HandConfig`, or its `HandSettings` form). */
export type LimitsConfig = Pick<HandConfig, 'structure'> & {
  readonly [K in 'smallBet' | 'bigBet' | 'spreadLimits' | 'minBet' | 'blinds' | 'bringIn']?:
    HandConfig[K] | undefined;
};

export interface BettingLimits {
  /**
   * Fixed limit: the bet of this round (small or big bet). Spread limit: the round's largest bet or
   * raise increment. Pot / half-pot / no limit: the minimum bet.
   */
  readonly unit: number;
  /** Fixed limit: the big bet (for the 4th-street open-pair option). */
  readonly bigUnit: number;
  /** The smallest opening bet (fixed limit: the unit; otherwise the minimum bet). */
  readonly fullBet: number;
}

/** The minimum bet: `minBet`, else the largest blind, else the small bet, else the bring-in, else 1. */
export function minimumBet(config: LimitsConfig): number {
  if (config.minBet !== undefined && config.minBet > 0) return config.minBet;
  const blind = Math.max(0, ...(config.blinds ?? []));
  if (blind > 0) return blind;
  if (config.smallBet !== undefined && config.smallBet > 0) return config.smallBet;
  if (config.bringIn !== undefined && config.bringIn > 0) return config.bringIn;
  return 1;
}

/** The limits of betting round `round` (0-based) on a street whose fixed-limit bets are big when `bigBet`. */
export function bettingLimits(config: LimitsConfig, bigBet: boolean, round: number): BettingLimits {
  const small = config.smallBet ?? 0;
  const big = config.bigBet ?? 0;
  switch (config.structure) {
    case 'fixed-limit': {
      const unit = bigBet ? big : small;
      return { unit, bigUnit: big, fullBet: unit };
    }
    case 'spread-limit': {
      const unit = config.spreadLimits?.[round] ?? config.spreadLimits?.at(-1) ?? (bigBet ? big : small);
      return { unit, bigUnit: unit, fullBet: Math.min(minimumBet(config), unit) };
    }
    case 'pot-limit':
    case 'half-pot-limit':
    case 'no-limit': {
      const min = minimumBet(config);
      return { unit: min, bigUnit: min, fullBet: min };
    }
  }
}

/** The small blind for a big blind of `bigBlind`: half of it, rounded down to a whole unit (RULES.md §1: $5 → $2, €15 → €7). */
export function smallBlindFor(bigBlind: number): number {
  return Math.floor(bigBlind / 2);
}
