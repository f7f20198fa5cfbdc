/**
 * The result of a finished hand as the felt shows it: the winning cards to highlight and each shown
 * hand's name, read off the server's summary (the engine named the hands and chose their cards; the
 * client evaluates nothing).
 */
import type { HandRecap, HandView } from './net/views';

export interface FeltResult {
  /** The hand number the result belongs to. */
  readonly number: number;
  /** The board cards that are part of a winning hand. */
  readonly best: ReadonlySet<string>;
  /** By seat: the winner's cards that make his winning hand(s). */
  readonly bestBySeat: ReadonlyMap<number, ReadonlySet<string>>;
  /** By seat: the shown hand's name (and its low, in hi/lo games). */
  readonly names: ReadonlyMap<number, string>;
}

type NamedHands = Pick<HandRecap['players'][number], 'high' | 'low'>;

/** "Flush", or "Flush · Low: 8-6-4-2-A" in hi/lo games; null when unnamed. */
function handName(hands: NamedHands): string | null {
  if (hands.high === null) return null;
  return hands.low === null ? hands.high.name : `${hands.high.name} · Low: ${hands.low.name}`;
}

/**
 * The result to draw over `hand`, when the summary is that hand's (a summary stays in the side panel
 * after the next hand starts; the felt shows it only while its hand is the one on the table).
 */
export function resultOnFelt(summary: HandRecap | null, hand: HandView | null): FeltResult | null {
  if (summary === null || hand === null || summary.number !== hand.number) return null;
  const names = new Map<number, string>();
  for (const player of summary.players) {
    if (!player.showed) continue;
    const first = handName(player);
    const second = player.second === undefined ? null : handName(player.second);
    const name = second === null ? first : `${first ?? '—'} | 2nd board: ${second}`;
    if (name !== null) names.set(player.seat, name);
  }
  // A hand run twice has two boards on the felt; a card is on one of them at most.
  const board = new Set([...summary.board, ...(summary.secondBoard ?? [])]);
  const best = new Set<string>();
  const bestBySeat = new Map<number, Set<string>>();
  for (const award of summary.awards) {
    const player = summary.players.find((entry) => entry.seat === award.seat);
    if (player === undefined || !player.showed) continue;
    const hands = award.run === 2 && player.second !== undefined ? player.second : player;
    const winning = award.share === 'low' ? hands.low : hands.high;
    for (const card of winning?.cards ?? []) {
      if (board.has(card)) best.add(card);
      else {
        const own = bestBySeat.get(award.seat) ?? new Set<string>();
        own.add(card);
        bestBySeat.set(award.seat, own);
      }
    }
  }
  return { number: summary.number, best, bestBySeat, names };
}
