import type { Card } from '../cards.js';

/** A card as written in a hand history: a real card, or null for the unknown `??`. */
export type PhhCard = Card | null;

/** One entry of `actions`, parsed. Amounts are integers scaled by the hand's {@link PhhHand.scale}. */
export type PhhAction = (
  | { readonly kind: 'deal-hole'; readonly player: number; readonly cards: readonly PhhCard[] }
  | { readonly kind: 'deal-board'; readonly cards: readonly PhhCard[] }
  | { readonly kind: 'bring-in'; readonly player: number }
  | { readonly kind: 'fold'; readonly player: number }
  | { readonly kind: 'check-call'; readonly player: number }
  | { readonly kind: 'bet-raise'; readonly player: number; readonly amount: number }
  | { readonly kind: 'discard'; readonly player: number; readonly cards: readonly PhhCard[] }
  | { readonly kind: 'show-muck'; readonly player: number; readonly cards: readonly PhhCard[] }
  | { readonly kind: 'none' }
) & { readonly comment?: string };

/** Players are numbered from 0 here (`p1` is player 0). */
export type PhhActionKind = PhhAction['kind'];

/** A TOML value kept as it was read, for the fields Felt does not interpret. */
export type PhhExtraValue =
  string | number | boolean | readonly PhhExtraValue[] | { readonly [key: string]: PhhExtraValue } | Date;

/** The PHH fields that answer what the hand gave rather than describe the game. */
export const RESULT_FIELDS = ['finishing_stacks', 'winnings'] as const;
export type PhhResultField = (typeof RESULT_FIELDS)[number];

/**
 * One hand of a PHH file as plain data. Money is in integers: the file's amounts times 10^scale.
 * Optional fields are absent rather than undefined.
 */
export interface PhhHand {
  readonly variant: string;
  /**
   * Decimal places of the game's unit: the most any amount describing the game has (stacks, forced
   * bets, limits, the actions' amounts; 0 for whole numbers). The answer fields do not count.
   */
  readonly scale: number;
  readonly antes: readonly number[];
  readonly blindsOrStraddles?: readonly number[];
  readonly bringIn?: number;
  readonly smallBet?: number;
  readonly bigBet?: number;
  readonly minBet?: number;
  /** Spread limit only: the largest bet or raise increment on each betting round. */
  readonly spreadLimits?: readonly number[];
  readonly anteTrimmingStatus?: boolean;
  readonly startingStacks: readonly number[];
  readonly actions: readonly PhhAction[];
  readonly finishingStacks?: readonly number[];
  readonly winnings?: readonly number[];
  /**
   * The answer fields whose amounts are finer than the game's unit (a finishing stack of 1000.5 in a
   * game of whole chips), as the file wrote them: such a field is not in `finishingStacks` or
   * `winnings`, and a replay reports it (`resultDisagreement`).
   */
  readonly resultsOffUnit?: Readonly<Partial<Record<PhhResultField, readonly number[]>>>;
  /** Every other field, in file order (author, players, seats, hand, `_user` fields …). */
  readonly extra: Readonly<Record<string, PhhExtraValue>>;
}

export const PhhErrorCode = {
  BAD_PHH: 'BAD_PHH',
  BAD_ACTION: 'BAD_ACTION',
  UNKNOWN_VARIANT: 'UNKNOWN_VARIANT',
} as const;
export type PhhErrorCode = (typeof PhhErrorCode)[keyof typeof PhhErrorCode];
