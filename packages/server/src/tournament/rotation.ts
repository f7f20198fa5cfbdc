/**
 * Mixed games: which (game, structure) a table deals. Changing every level, the game follows the
 * level; changing every orbit, each table keeps its own place in the rotation and moves on after an
 * orbit: as many hands as there were players dealt in the first hand of that game at that table (so
 * every player has had the button once, or, in stud games, sat once in each position from the dealer
 * box). The button freezes while stud games are dealt (the table keeps the last button hand's
 * positions, ./seating.ts `SeatingTable.lastButtonHand`).
 */
import type { GameSpec, TournamentDefinition } from './structure.js';

/** A table's place in an orbit rotation. */
export interface RotationState {
  /** Index into the rotation (taken modulo its length). */
  readonly index: number;
  /** Hands dealt of the current game at this table. */
  readonly handsInGame: number;
  /** Hands in the current game's orbit: the players dealt in its first hand (0 before it). */
  readonly orbitHands: number;
}

export const ROTATION_START: RotationState = { index: 0, handsInGame: 0, orbitHands: 0 };

/** The game a table deals at `level` (0-based) with its rotation state (used only when rotating every orbit). */
export function gameFor(
  def: Pick<TournamentDefinition, 'games' | 'rotateEvery'>,
  level: number,
  rotation: RotationState,
): GameSpec {
  const slot = (def.rotateEvery ?? 'level') === 'orbit' ? rotation.index : level;
  return def.games[slot % def.games.length]!;
}

/** The rotation after a hand dealt to `playersDealt` players: the next game once the orbit is complete. */
export function afterHand(state: RotationState, playersDealt: number): RotationState {
  const orbitHands = state.handsInGame === 0 ? playersDealt : state.orbitHands;
  const handsInGame = state.handsInGame + 1;
  if (handsInGame >= orbitHands) return { index: state.index + 1, handsInGame: 0, orbitHands: 0 };
  return { index: state.index, handsInGame, orbitHands };
}
