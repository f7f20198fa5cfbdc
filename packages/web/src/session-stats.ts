/**
 * The player's session as the big rooms show it: hands played, won or lost, and for how long, from his
 * own finished hands (the history list) since he signed in, by currency (play and real money are never
 * added together).
 */
import type { Currency, HandListItem } from '@felt/protocol';

export interface SessionStats {
  readonly hands: number;
  /** Chips won less chips put in, by currency, over the session's hands. */
  readonly net: Readonly<Partial<Record<Currency, number>>>;
  /** Ms since he signed in. */
  readonly elapsedMs: number;
}

export function sessionStats(hands: readonly HandListItem[], since: number, now: number): SessionStats {
  const net: Partial<Record<Currency, number>> = {};
  let count = 0;
  for (const hand of hands) {
    if (hand.endedAt < since) continue;
    count++;
    net[hand.currency] = (net[hand.currency] ?? 0) + hand.net;
  }
  return { hands: count, net, elapsedMs: Math.max(0, now - since) };
}

/** "1 h 05 min", "12 min", "under a minute". */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 0) return 'under a minute';
  const hours = Math.floor(minutes / 60);
  return hours === 0 ? `${minutes} min` : `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}
