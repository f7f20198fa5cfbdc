/**
 * What the PHH tools need of the hand state machine (../hand), as a small interface that the
 * engine's `Hand` satisfies, so that replay and simulation can also drive a test double.
 */
import { Hand } from '../hand/hand.js';
import type {
  DealRequest,
  HandAction,
  HandConfig,
  HandEvent,
  HandPhase,
  HandResult,
  HandSnapshot,
  LegalActions,
} from '../hand/types.js';
import type { RandomSource } from '../random.js';

export interface PlayableHand {
  readonly phase: HandPhase;
  readonly actor: number | null;
  readonly events: readonly HandEvent[];
  /** Applies one action; a refused action changes nothing. */
  apply(action: HandAction): HandResult<unknown>;
  pendingDeal(): DealRequest | null;
  finishingStacks(): readonly number[] | null;
  /** The order in which the players still in show their hands. */
  showdownOrder(): number[];
  /** The order in which hands are turned face up when every hand is shown with no betting left. */
  exposureOrder(): number[];
  /** All in with no betting left: the next hand to turn face up before the rest is dealt, or null. */
  nextExposure(): HandAction | null;
  /** What the player to act may do, or null when no player is to act. */
  legalActions(): LegalActions | null;
  snapshot(): HandSnapshot;
  /** Whether the action would be accepted now. */
  can(action: HandAction): boolean;
}

/** Starts a hand; `random` lets the engine deal from its own shuffled deck. */
export type HandFactory = (config: HandConfig, random?: RandomSource) => HandResult<PlayableHand>;

/** The engine's own hand state machine. */
export const engineHandFactory: HandFactory = (config, random) => Hand.create(config, random);
