import { RANK_CHARS, type Rank } from '../cards.js';

const SINGULAR = [
  'deuce',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'jack',
  'queen',
  'king',
  'ace',
];

/** "ace", "ten" … */
export const rankName = (rank: Rank): string => SINGULAR[rank]!;

/** "aces", "sixes" … */
export const rankPlural = (rank: Rank): string => (rank === 4 ? 'sixes' : `${SINGULAR[rank]!}s`);

/** "8-6-5-4-A": ranks highest first, as lowball players write them. */
export const rankRun = (ranks: readonly Rank[]): string =>
  ranks.map((rank) => RANK_CHARS.charAt(rank)).join('-');
