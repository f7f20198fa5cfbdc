/**
 * What the game-security reports (./reports.ts) read of a stored hand: its participants' results and
 * every betting decision with the opponents still in the hand when it was made, taken from the full PHH
 * and the participants the journal stored (`settledHands`). Nothing about names or bots: accounts only.
 */
import { parsePhh } from '@felt/engine';
import type { StoredHand, UserId } from '../storage/types.js';

export interface HandPlayer {
  readonly userId: UserId;
  /** Won minus put in. */
  readonly net: number;
  /** Still in at the end with another player: his cards were contested at a showdown. */
  readonly showdown: boolean;
}

export interface Decision {
  readonly userId: UserId;
  /** A bet or raise (a completion in stud counts too). */
  readonly raised: boolean;
  /** The opponents not folded when he decided. */
  readonly against: readonly UserId[];
}

export interface ReadHand {
  readonly handId: number;
  readonly tableId: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The big blind (or small bet, or bring-in) in the hand's units: the scale of a win rate. */
  readonly bigBlind: number;
  readonly players: readonly HandPlayer[];
  readonly decisions: readonly Decision[];
}

/** The hand as the reports read it, or null when its PHH cannot be read (counted, not guessed). */
export function readHand(hand: StoredHand): ReadHand | null {
  const parsed = parsePhh(hand.phh);
  if (!parsed.ok) return null;
  const phh = parsed.value;
  const byPosition = new Map(hand.players.map((p) => [p.position, p.userId]));
  const folded = new Set<number>();
  const decisions: Decision[] = [];
  for (const action of phh.actions) {
    if (action.kind !== 'fold' && action.kind !== 'check-call' && action.kind !== 'bet-raise') continue;
    const userId = byPosition.get(action.player);
    if (userId === undefined) return null;
    const against = hand.players
      .filter((p) => p.position !== action.player && !folded.has(p.position))
      .map((p) => p.userId);
    decisions.push({ userId, raised: action.kind === 'bet-raise', against });
    if (action.kind === 'fold') folded.add(action.player);
  }
  const standing = hand.players.length - folded.size;
  const bigBlind = Math.max(...(phh.blindsOrStraddles ?? []), phh.smallBet ?? 0, phh.bringIn ?? 0, 1);
  return {
    handId: hand.handId,
    tableId: hand.tableId,
    startedAt: hand.startedAt,
    endedAt: hand.endedAt,
    bigBlind,
    players: hand.players.map((p) => ({
      userId: p.userId,
      net: p.won - p.contributed,
      showdown: standing >= 2 && !folded.has(p.position),
    })),
    decisions,
  };
}
