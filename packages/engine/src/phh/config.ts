import type { HandConfig, RakePolicy, Structure } from '../hand/types.js';
import { houseRake } from '../hand/rake.js';
import { fail, ok, type Result } from '../result.js';
import { PhhErrorCode, type PhhHand } from './types.js';
import { parseVariantCode, type BettingStructure, type PhhVariant } from './variants.js';

const STRUCTURE: Record<BettingStructure, Structure> = {
  fixed: 'fixed-limit',
  spread: 'spread-limit',
  pot: 'pot-limit',
  'half-pot': 'half-pot-limit',
  'no-limit': 'no-limit',
};

export interface PhhRules {
  /**
   * 'house': Felt's rules where they differ from PokerKit's (the open pair on 4th street allows the
   * big bet; heads-up, as at real-money cash tables, the fixed-limit betting is not capped).
   * 'phh': the rules PHH engines share (no open-pair big bet, the cap kept heads-up). Both cap
   * fixed-limit betting at a bet and three raises with three or more players.
   */
  readonly rules?: 'house' | 'phh';
  /** Apply the house rake table, the file's units read as euro cents. */
  readonly houseRake?: boolean;
}

/** The house rake for amounts scaled by 10^scale (the file's unit is one cent). */
function scaledHouseRake(scale: number): RakePolicy {
  const unit = 10 ** scale;
  return (input) => houseRake({ ...input, pot: Math.floor(input.pot / unit) }) * unit;
}

/**
 * The engine configuration of a PHH hand. Positions are PHH's players (p1 = position 0); heads-up
 * PHH lists the forced bets small blind first but p1 posts the big one, so they are reversed here,
 * the antes with them, as PHH says and PokerKit does.
 */
export function phhToConfig(
  hand: PhhHand,
  options: PhhRules = {},
): Result<{ readonly config: HandConfig; readonly variant: PhhVariant }, PhhErrorCode> {
  const variant = parseVariantCode(hand.variant);
  if (variant === null)
    return fail(PhhErrorCode.UNKNOWN_VARIANT, `unknown variant ${JSON.stringify(hand.variant)}`);
  const headsUp = hand.startingStacks.length === 2;
  // PokerKit reverses every heads-up forced-bet list, antes too, in every game.
  const reverse = (list: readonly number[]): number[] => (headsUp ? [...list].reverse() : [...list]);
  const config: HandConfig = {
    variant: variant.game,
    structure: STRUCTURE[variant.structure],
    stacks: hand.startingStacks,
    antes: reverse(hand.antes),
    // PHH's default, as PokerKit reads it: antes are dead money unless the file says they are trimmed.
    anteTrimming: hand.anteTrimmingStatus ?? false,
    ...(variant.bringIn ? {} : { blinds: reverse(hand.blindsOrStraddles ?? []) }),
    ...(variant.bringIn && hand.bringIn !== undefined ? { bringIn: hand.bringIn } : {}),
    ...(hand.smallBet === undefined ? {} : { smallBet: hand.smallBet }),
    ...(hand.bigBet === undefined ? {} : { bigBet: hand.bigBet }),
    ...(hand.minBet === undefined ? {} : { minBet: hand.minBet }),
    ...(hand.spreadLimits === undefined ? {} : { spreadLimits: hand.spreadLimits }),
    capHeadsUp: options.rules === 'phh',
    maxRaises: 3,
    openPairBigBet: options.rules !== 'phh',
    // PokerKit reopens the betting after the first all-in of a round however short (rule 96 (c) aside).
    shortAllInReopens: true,
    autoShowdown: false,
    ...(options.houseRake === true ? { rake: scaledHouseRake(hand.scale) } : {}),
  };
  return ok({ config, variant });
}
