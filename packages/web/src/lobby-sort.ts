/**
 * The lobby's order: by any column, either way, and optionally grouped by game and stakes (a group's
 * tables together, groups by game name then stakes). Ties keep the room's order, so that the list does
 * not shuffle as tables change.
 */
import type { TableSummary } from '@felt/protocol';
import { gameName } from './format';

export const SORT_KEYS = [
  'name',
  'game',
  'structure',
  'stakes',
  'seats',
  'averagePot',
  'handsPerHour',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface LobbyOrder {
  readonly key: SortKey | null;
  readonly descending: boolean;
  readonly grouped: boolean;
}

type Compare = (a: TableSummary, b: TableSummary) => number;

const text =
  (of: (row: TableSummary) => string): Compare =>
  (a, b) =>
    of(a).localeCompare(of(b));
const number =
  (of: (row: TableSummary) => number): Compare =>
  (a, b) =>
    of(a) - of(b);

/** Stakes by the big blind (or big bet), then the small one: 0.50/1 before 1/2 before 5/10. */
const byStakes: Compare = (a, b) => a.stakes.big - b.stakes.big || a.stakes.small - b.stakes.small;

const COMPARE: Readonly<Record<SortKey, Compare>> = {
  name: text((row) => row.name),
  game: text((row) => gameName(row.game)),
  structure: text((row) => row.structure),
  stakes: byStakes,
  seats: number((row) => row.taken),
  averagePot: number((row) => row.averagePot),
  handsPerHour: number((row) => row.handsPerHour),
};

/** A group's heading: the game and the stakes, with the money. */
export function groupOf(row: TableSummary): string {
  return `${gameName(row.game)} · ${row.currency === 'real' ? '$' : ''}${row.stakesText}${row.currency === 'real' ? '' : ' play'}`;
}

const byGroup: Compare = (a, b) =>
  text((row) => gameName(row.game))(a, b) || a.currency.localeCompare(b.currency) || byStakes(a, b);

export function orderRows(rows: readonly TableSummary[], order: LobbyOrder): TableSummary[] {
  const column = order.key === null ? null : COMPARE[order.key];
  const sign = order.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        (order.grouped ? byGroup(a.row, b.row) : 0) ||
        (column === null ? 0 : sign * column(a.row, b.row)) ||
        a.index - b.index,
    )
    .map(({ row }) => row);
}
