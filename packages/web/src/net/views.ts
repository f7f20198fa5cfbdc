/**
 * The table's views and events, typed by `@felt/protocol` (the shapes of the server's `viewFor`), and a
 * light check of each before the renderer trusts it: the socket is the boundary, and a malformed message
 * is dropped rather than drawn.
 */
import type { EventView, HandRecap, LegalView, TableView } from '@felt/protocol';

export type {
  BlindRequestView,
  CardView,
  EventView,
  HandPlayerView,
  HandRecap,
  HandView,
  LegalView,
  SeatView,
  TableView,
} from '@felt/protocol';

/** The text of a card hidden from the viewer. */
export { UNKNOWN_CARD_TEXT as HIDDEN } from '@felt/engine/browser';

/** Every event type: a record over the protocol's union, so that a new event type cannot be left out. */
const EVENT_TYPES: ReadonlySet<string> = new Set(
  Object.keys({
    post: true,
    'deal-hole': true,
    'deal-board': true,
    'deal-draw': true,
    round: true,
    fold: true,
    check: true,
    call: true,
    'bring-in': true,
    'bet-raise': true,
    discard: true,
    return: true,
    show: true,
    muck: true,
    split: true,
    'run-twice': true,
    timeout: true,
    rake: true,
    award: true,
    end: true,
  } satisfies Record<EventView['type'], true>),
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The view if it has what the renderer needs (ids, seats array, hand or null, blind request or null), else null. */
export function asTableView(value: unknown): TableView | null {
  if (!isRecord(value)) return null;
  if (typeof value['tableId'] !== 'string' || typeof value['game'] !== 'string') return null;
  if (!Array.isArray(value['seats'])) return null;
  const hand = value['hand'];
  if (hand !== null && !(isRecord(hand) && Array.isArray(hand['players']) && Array.isArray(hand['board'])))
    return null;
  const request = value['blindRequest'];
  if (
    request !== null &&
    !(isRecord(request) && ['seat', 'blind', 'dead', 'deadline'].every((k) => typeof request[k] === 'number'))
  )
    return null;
  return value as unknown as TableView;
}

export function asEventView(value: unknown): EventView | null {
  if (!isRecord(value) || typeof value['type'] !== 'string' || !EVENT_TYPES.has(value['type'])) return null;
  return value as unknown as EventView;
}

export function asSummary(value: unknown): HandRecap | null {
  if (!isRecord(value) || !Array.isArray(value['players']) || !Array.isArray(value['awards'])) return null;
  return value as unknown as HandRecap;
}

export function asLegal(value: unknown): LegalView | null {
  if (!isRecord(value) || typeof value['fold'] !== 'boolean' || typeof value['check'] !== 'boolean')
    return null;
  return value as unknown as LegalView;
}
