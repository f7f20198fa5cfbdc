/** Table configurations the tests share. */
import type { TableConfig } from '../src/table/types.js';

/** A no-limit hold'em play-money table at 100/200, named after its id. */
export const nlHoldem = (id: string, more: Partial<TableConfig> = {}): TableConfig => ({
  id,
  name: id,
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 6,
  ...more,
});
