/**
 * The table file's house-bot field: `"houseBots": N` makes a play-money table a practice table, where
 * house bots keep N seats filled while a person sits at or watches it, each person who sits down taking
 * a bot's place. Absent or 0: no bots (tables of a `--tables` file and of `felt bench` have none unless
 * their file says so). Never at real-money tables.
 */
import { variantOf } from '@felt/engine';
import type { TableConfig } from '../table/types.js';

/** A table configuration as the table file may give it. */
export type PracticeConfig = TableConfig & { readonly houseBots?: number };

/** Seats kept free of bots at every practice table, so that a person always finds one. */
export const SEATS_KEPT_FREE = 2;

/** How many seats the house bots fill at this table (0: not a practice table). */
export function houseBotsOf(config: PracticeConfig): number {
  return config.houseBots ?? 0;
}

/** Throws (with the reason) on a house-bot field the room cannot honour. */
export function checkHouseBots(config: PracticeConfig): void {
  const bots = config.houseBots;
  if (bots === undefined || bots === 0) return;
  if (!Number.isInteger(bots) || bots < 0)
    throw new Error(`table ${config.id}: houseBots must be a whole number of seats`);
  if (config.currency !== 'play') throw new Error(`table ${config.id}: house bots play for play money only`);
  const seats = config.seats ?? variantOf(config.game).seats;
  if (bots > seats - SEATS_KEPT_FREE)
    throw new Error(
      `table ${config.id}: at most ${seats - SEATS_KEPT_FREE} house bots (${SEATS_KEPT_FREE} seats stay free)`,
    );
}
