/**
 * The pot-sized bets a player may pick in pot limit, half-pot limit and no limit (RULES.md §2): call,
 * then raise by the pot as it stands after the call — the whole of it, or half rounded down. The hand
 * state machine's pot-limit and half-pot-limit maxima are these sums; `to` amounts are street totals.
 */
export interface PotSizedBets {
  /** Raise (or bet) to the size of the pot. */
  readonly pot: number;
  /** Raise (or bet) to half the pot. */
  readonly halfPot: number;
}

/**
 * A raise (or bet) by `fraction` of the pot as it stands after the call, rounded down: the street total
 * it comes to. `pot`: every chip put in this hand, the bets still in front of the players included;
 * `currentBet`: the street's highest bet; `call`: the chips the player adds to call (0 when he may check).
 */
export function potFractionBet(pot: number, currentBet: number, call: number, fraction: number): number {
  return currentBet + Math.floor((pot + call) * fraction);
}

export function potSizedBets(pot: number, currentBet: number, call: number): PotSizedBets {
  return {
    pot: potFractionBet(pot, currentBet, call, 1),
    halfPot: potFractionBet(pot, currentBet, call, 0.5),
  };
}
