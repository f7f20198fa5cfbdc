/**
 * Every client → server request as a schema; the server validates each frame against
 * {@link ClientMessage} before any handler runs. Server → client messages are typed here too
 * ({@link ServerMessage}); the client may check them with {@link ServerMessageSchema}.
 *
 * Wire format: one JSON object per WebSocket text frame. Requests: `{ "op": …, "id": n, …fields }`;
 * the server answers each with `{ "op": "ack", "id": n, "for": op, "data": … }` or
 * `{ "op": "error", "id": n, "code": …, "message": … }`. See docs/protocol.md.
 */
import type { VariantId } from '@felt/engine';
import { ClientOp, ErrorCode, ServerOp, SessionEndReason } from './codes.js';
import type { EventView, HandRecap, LegalView, TableStakes, TableView } from './views.js';
import {
  array,
  boolean,
  enumOf,
  int,
  literal,
  nullable,
  number,
  object,
  optional,
  string,
  union,
  unknownValue,
  type Infer,
} from './schema.js';

// ─── Limits and shared fields ─────────────────────────────────────────────────────────────────────

/** The largest frame the server reads (bytes); larger frames are refused with BAD_FRAME. */
export const MAX_FRAME_BYTES = 16 * 1024;

export const NAME_MIN = 3;
export const NAME_MAX = 24;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
/** The largest amount in any request: 10^12 cents / chips. */
export const MAX_AMOUNT = 1_000_000_000_000;

/** The 13 games dealt in the room (RULES.md §3–§11), as the engine names them. */
export const ROOM_GAMES = [
  'holdem',
  'omaha',
  'omaha5',
  'omaha-hilo',
  'omaha5-hilo',
  'stud',
  'stud-hilo',
  'soko',
  'draw5',
  'triple-draw-27',
  'americana',
  'telesina',
  'draw32',
] as const satisfies readonly VariantId[];
export type RoomGame = (typeof ROOM_GAMES)[number];

/** The five betting structures, as the engine names them. */
export const STRUCTURES = ['fixed-limit', 'spread-limit', 'pot-limit', 'half-pot-limit', 'no-limit'] as const;
export type StructureName = (typeof STRUCTURES)[number];

/** Short codes for the structures (command lines: `--structure nl`). */
export const STRUCTURE_CODES = {
  fl: 'fixed-limit',
  sl: 'spread-limit',
  pl: 'pot-limit',
  hpl: 'half-pot-limit',
  nl: 'no-limit',
} as const satisfies Record<string, StructureName>;

export const CURRENCIES = ['play', 'real'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const RequestId = int({ min: 0 });
export const TableId = string({ min: 1, max: 64, pattern: /^[A-Za-z0-9_.:-]+$/ });
/** A hand: its id in the room's storage (in table messages and hand histories alike). */
export const HandId = int({ min: 1 });
export const UserName = string({ min: NAME_MIN, max: NAME_MAX, pattern: /^[A-Za-z0-9_.-]+$/ });
/** Checked for length by the handler (WEAK_PASSWORD), so the schema only bounds it. */
export const Password = string({ min: 1, max: PASSWORD_MAX });
export const Token = string({ min: 16, max: 128, pattern: /^[A-Za-z0-9_-]+$/ });
export const Amount = int({ min: 0, max: MAX_AMOUNT });
export const SeatNumber = int({ min: 0, max: 9 });
/** A card as text: rank 2–9 T J Q K A and suit c d h s ("As", "Td"). */
export const CardText = string({ min: 2, max: 2, pattern: /^[2-9TJQKA][cdhs]$/ });
export const Game = enumOf(ROOM_GAMES);
export const Structure = enumOf(STRUCTURES);
export const CurrencySchema = enumOf(CURRENCIES);

// ─── Hand actions ─────────────────────────────────────────────────────────────────────────────────

/**
 * What a player does in a hand. `to` amounts are street totals (the player's whole bet on this
 * street after the action), as in the engine.
 */
export const HandActionSchema = union('type', [
  object({ type: literal('fold') }),
  object({ type: literal('check') }),
  object({ type: literal('call') }),
  object({ type: literal('bet'), to: Amount }),
  object({ type: literal('raise'), to: Amount }),
  object({ type: literal('bring-in') }),
  object({ type: literal('complete'), to: Amount }),
  object({ type: literal('discard'), cards: array(CardText, { min: 1, max: 5 }) }),
  object({ type: literal('stand-pat') }),
  object({ type: literal('show') }),
  object({ type: literal('muck') }),
  object({ type: literal('split'), accept: boolean() }),
]);
export type WireHandAction = Infer<typeof HandActionSchema>;
export type WireHandActionType = WireHandAction['type'];

// ─── Client → server ──────────────────────────────────────────────────────────────────────────────

const request = <
  const O extends ClientOp,
  const S extends Record<string, import('./schema.js').Schema<unknown>>,
>(
  op: O,
  shape: S,
) => object({ op: literal(op), id: RequestId, ...shape });

export const SignUp = request(ClientOp.SIGN_UP, { name: UserName, password: Password });
export const Login = request(ClientOp.LOGIN, { name: UserName, password: Password });
export const Resume = request(ClientOp.RESUME, { token: Token });
export const Logout = request(ClientOp.LOGOUT, {});
export const ChangePassword = request(ClientOp.CHANGE_PASSWORD, {
  oldPassword: Password,
  newPassword: Password,
});
export const GetBalances = request(ClientOp.BALANCES, {});
export const TopUp = request(ClientOp.TOP_UP, { amount: int({ min: 1, max: MAX_AMOUNT }) });
/** Filters are optional; the answer lists every table that matches all given filters. */
export const LobbyList = request(ClientOp.LOBBY_LIST, {
  game: optional(Game),
  structure: optional(Structure),
  currency: optional(CurrencySchema),
});
export const LobbySubscribe = request(ClientOp.LOBBY_SUBSCRIBE, {});
export const LobbyUnsubscribe = request(ClientOp.LOBBY_UNSUBSCRIBE, {});
export const WaitlistJoin = request(ClientOp.WAITLIST_JOIN, { tableId: TableId });
export const WaitlistLeave = request(ClientOp.WAITLIST_LEAVE, { tableId: TableId });
/** Watch a table: as a player when seated there, else as a spectator. Sends a snapshot, then events. */
export const TableOpen = request(ClientOp.TABLE_OPEN, { tableId: TableId });
export const TableClose = request(ClientOp.TABLE_CLOSE, { tableId: TableId });
/**
 * Take a seat with `buyIn` chips from the balance. `post`: a new player posts a big blind to play at
 * once, or waits for the big blind (default 'wait'); `autoPost`: post blinds when they are due without
 * being asked (default on); `muckLosing`: at the showdown, muck a hand already beaten (default on).
 */
export const SeatTake = request(ClientOp.SEAT_TAKE, {
  tableId: TableId,
  seat: SeatNumber,
  buyIn: Amount,
  post: optional(enumOf(['post', 'wait'] as const)),
  autoPost: optional(boolean()),
  muckLosing: optional(boolean()),
});
/** Add chips from the balance to the stack between hands (up to the table's maximum buy-in). */
export const Rebuy = request(ClientOp.REBUY, { tableId: TableId, amount: int({ min: 1, max: MAX_AMOUNT }) });
export const SitOut = request(ClientOp.SIT_OUT, { tableId: TableId });
export const SitIn = request(ClientOp.SIT_IN, { tableId: TableId });
export const SeatLeave = request(ClientOp.SEAT_LEAVE, { tableId: TableId });
/** A new or returning player: post the missed/entry blinds now, or wait for the big blind. */
export const MissedBlindsRequest = request(ClientOp.MISSED_BLINDS, {
  tableId: TableId,
  choice: enumOf(['post', 'wait'] as const),
});
export const AutoPost = request(ClientOp.AUTO_POST, { tableId: TableId, enabled: boolean() });
/** Answers the table's request to post a blind (`blindRequest`): post it, or decline and sit out. */
export const PostBlind = request(ClientOp.POST_BLIND, { tableId: TableId, post: boolean() });
/** At the showdown, muck a hand that a shown one already beats instead of showing it (default on). */
export const MuckLosing = request(ClientOp.MUCK_LOSING, { tableId: TableId, enabled: boolean() });
/** `handId`, when given, must be the hand in progress (a late click on a finished hand is refused). */
export const Act = request(ClientOp.ACT, {
  tableId: TableId,
  handId: optional(HandId),
  action: HandActionSchema,
});
export const HistoryList = request(ClientOp.HISTORY_LIST, {
  before: optional(HandId),
  limit: optional(int({ min: 1, max: 100 })),
});
export const HistoryFetch = request(ClientOp.HISTORY_FETCH, { handId: HandId });
/** The summary of the last finished hand at a table, as the player may see it (RULES.md §1). */
export const HandSummaryRequest = request(ClientOp.HAND_SUMMARY, { tableId: TableId });
export const Ping = request(ClientOp.PING, {});

export const ClientMessageSchema = union('op', [
  SignUp,
  Login,
  Resume,
  Logout,
  ChangePassword,
  GetBalances,
  TopUp,
  LobbyList,
  LobbySubscribe,
  LobbyUnsubscribe,
  WaitlistJoin,
  WaitlistLeave,
  TableOpen,
  TableClose,
  SeatTake,
  Rebuy,
  SitOut,
  SitIn,
  SeatLeave,
  MissedBlindsRequest,
  AutoPost,
  PostBlind,
  MuckLosing,
  Act,
  HistoryList,
  HistoryFetch,
  HandSummaryRequest,
  Ping,
]);
export type ClientMessage = Infer<typeof ClientMessageSchema>;
/** The request with op `O`. */
export type ClientMessageOf<O extends ClientOp> = Extract<ClientMessage, { readonly op: O }>;

// ─── Server → client payloads ─────────────────────────────────────────────────────────────────────

export interface AccountInfo {
  /** The account id (as in table views). */
  readonly id: number;
  readonly name: string;
}

/** Play money and real money, kept apart (real money in cents). */
export interface Balances {
  readonly play: number;
  readonly real: number;
}

/** A table as the lobby lists it. */
export interface TableSummary {
  readonly tableId: string;
  readonly name: string;
  readonly game: RoomGame;
  readonly structure: StructureName;
  readonly currency: Currency;
  readonly stakes: TableStakes;
  /** A short text for the stakes, e.g. "0.50/1" or "1/2". */
  readonly stakesText: string;
  readonly seats: number;
  readonly taken: number;
  readonly free: number;
  readonly waiting: number;
  readonly minBuyIn: number;
  /** Null: no maximum (fixed and spread limit). */
  readonly maxBuyIn: number | null;
  /** Average final pot of the recent hands (0 before any). */
  readonly averagePot: number;
  readonly handsPerHour: number;
}

/** A finished hand in the player's list. */
export interface HandListItem {
  readonly handId: number;
  readonly tableId: string;
  readonly currency: Currency;
  readonly description: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly net: number;
}

/** A finished hand as the player may see it (his cards, face-up and shown cards; `??` for the rest). */
export interface HandHistoryPayload extends HandListItem {
  readonly phh: string;
  readonly text: string;
}

/**
 * The data of each ack, by request op. Table views and events are the table's business: their shapes
 * are those of `viewFor` in packages/server/src/table (JSON, already filtered for the receiver).
 */
export interface AckData {
  readonly signup: { readonly token: string; readonly account: AccountInfo; readonly balances: Balances };
  readonly login: { readonly token: string; readonly account: AccountInfo; readonly balances: Balances };
  /** `tables`: the tables where the account is seated; their snapshots follow as `table-snapshot`. */
  readonly resume: {
    readonly account: AccountInfo;
    readonly balances: Balances;
    readonly tables: readonly string[];
  };
  readonly logout: Record<string, never>;
  readonly 'change-password': Record<string, never>;
  readonly balances: { readonly balances: Balances };
  readonly 'top-up': { readonly balances: Balances };
  readonly 'lobby-list': { readonly tables: readonly TableSummary[] };
  readonly 'lobby-subscribe': { readonly tables: readonly TableSummary[] };
  readonly 'lobby-unsubscribe': Record<string, never>;
  readonly 'waitlist-join': { readonly position: number };
  readonly 'waitlist-leave': Record<string, never>;
  /** `seat`: the viewer's seat, or null (spectator). The snapshot follows as `table-snapshot`. */
  readonly 'table-open': { readonly seat: number | null };
  readonly 'table-close': Record<string, never>;
  readonly 'seat-take': { readonly seat: number; readonly balances: Balances };
  readonly rebuy: { readonly balances: Balances };
  readonly 'sit-out': Record<string, never>;
  readonly 'sit-in': Record<string, never>;
  readonly 'seat-leave': { readonly balances: Balances };
  readonly 'missed-blinds': Record<string, never>;
  readonly 'auto-post': Record<string, never>;
  readonly 'post-blind': Record<string, never>;
  readonly 'muck-losing': Record<string, never>;
  readonly act: Record<string, never>;
  readonly 'history-list': { readonly hands: readonly HandListItem[] };
  readonly 'history-fetch': { readonly hand: HandHistoryPayload };
  /** Null when no hand has finished at the table since the server started. */
  readonly 'hand-summary': { readonly summary: HandRecap | null };
  readonly ping: { readonly time: number };
}

// The ack data map covers every op, no more and no less.
type _AckComplete = [ClientOp] extends [keyof AckData]
  ? [keyof AckData] extends [ClientOp]
    ? true
    : never
  : never;
export const ACK_DATA_COMPLETE: _AckComplete = true;

export type Ack<O extends ClientOp = ClientOp> = {
  [K in O]: { readonly op: 'ack'; readonly id: number; readonly for: K; readonly data: AckData[K] };
}[O];

export interface ErrorMessage {
  readonly op: 'error';
  /** The request id, or null when the frame had none that could be read. */
  readonly id: number | null;
  readonly code: ErrorCode;
  readonly message: string;
}

/** Pushed on connect: the protocol version and the server's limits. */
export interface Hello {
  readonly op: 'hello';
  readonly protocol: 1;
  readonly maxFrameBytes: number;
  /** Token bucket: sustained messages per second and burst. */
  readonly rate: { readonly perSecond: number; readonly burst: number };
}

export interface LobbyTableMessage {
  readonly op: 'lobby-table';
  readonly table: TableSummary;
}

/** The full view of a table for this receiver (after `table-open`, on resume, at hand start and end, on seat changes). */
export interface TableSnapshotMessage {
  readonly op: 'table-snapshot';
  readonly tableId: string;
  readonly view: TableView;
}

/** One event of the hand in progress, as this receiver may see it; `seq` counts the hand's events from 1. */
export interface TableEventMessage {
  readonly op: 'table-event';
  readonly tableId: string;
  readonly handId: number;
  readonly seq: number;
  readonly event: EventView;
}

/** Somebody is to act (sent to everybody at the table): his seat, clock and time bank. `deadline` in ms since the epoch, time bank not counted. */
export interface ClockMessage {
  readonly op: 'clock';
  readonly tableId: string;
  readonly handId: number;
  readonly seat: number;
  readonly deadline: number;
  readonly timeBankMs: number;
}

/** Sent only to the player to act: what he may do (the engine's legal actions; `to` amounts are street totals). */
export interface LegalActionsMessage {
  readonly op: 'legal-actions';
  readonly tableId: string;
  readonly handId: number;
  readonly legal: LegalView;
}

/** A hand is over: its summary as this receiver may see it. */
export interface HandSummaryMessage {
  readonly op: 'hand-summary';
  readonly tableId: string;
  readonly summary: HandRecap;
}

export interface BalancesMessage {
  readonly op: 'balances';
  readonly balances: Balances;
}

/** A seat opened at a table whose waiting list the player is first on; take it with `seat-take`. */
export interface WaitlistSeatMessage {
  readonly op: 'waitlist-seat';
  readonly tableId: string;
  readonly seat: number;
}

export interface SessionEndedMessage {
  readonly op: 'session-ended';
  readonly reason: SessionEndReason;
}

export type ServerMessage =
  | Ack
  | ErrorMessage
  | Hello
  | LobbyTableMessage
  | TableSnapshotMessage
  | TableEventMessage
  | ClockMessage
  | LegalActionsMessage
  | HandSummaryMessage
  | BalancesMessage
  | WaitlistSeatMessage
  | SessionEndedMessage;

/** A light check of server messages for clients: the envelope of each op (payloads are not deep-checked). */
export const ServerMessageSchema = union('op', [
  object({
    op: literal(ServerOp.ACK),
    id: RequestId,
    for: enumOf(Object.values(ClientOp)),
    data: unknownValue(),
  }),
  object({
    op: literal(ServerOp.ERROR),
    id: nullable(RequestId),
    code: enumOf(Object.values(ErrorCode)),
    message: string({ max: 10_000 }),
  }),
  object({ op: literal(ServerOp.HELLO), protocol: literal(1), maxFrameBytes: int(), rate: unknownValue() }),
  object({ op: literal(ServerOp.LOBBY_TABLE), table: unknownValue() }),
  object({ op: literal(ServerOp.TABLE_SNAPSHOT), tableId: TableId, view: unknownValue() }),
  object({
    op: literal(ServerOp.TABLE_EVENT),
    tableId: TableId,
    handId: HandId,
    seq: int(),
    event: unknownValue(),
  }),
  object({
    op: literal(ServerOp.CLOCK),
    tableId: TableId,
    handId: HandId,
    seat: int(),
    deadline: number(),
    timeBankMs: int(),
  }),
  object({ op: literal(ServerOp.LEGAL_ACTIONS), tableId: TableId, handId: HandId, legal: unknownValue() }),
  object({ op: literal(ServerOp.HAND_SUMMARY), tableId: TableId, summary: unknownValue() }),
  object({ op: literal(ServerOp.BALANCES), balances: unknownValue() }),
  object({ op: literal(ServerOp.WAITLIST_SEAT), tableId: TableId, seat: int() }),
  object({ op: literal(ServerOp.SESSION_ENDED), reason: enumOf(Object.values(SessionEndReason)) }),
]);

/**
 * Parses one text frame from a client: JSON, then the schema. On failure, the error to send back,
 * with the request id when one could be read.
 */
export function parseClientFrame(
  text: string,
):
  | { readonly ok: true; readonly message: ClientMessage }
  | { readonly ok: false; readonly id: number | null; readonly code: ErrorCode; readonly message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, id: null, code: ErrorCode.BAD_FRAME, message: 'not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, id: null, code: ErrorCode.BAD_FRAME, message: 'not a JSON object' };
  }
  const record = json as Record<string, unknown>;
  const rawId = Object.prototype.hasOwnProperty.call(record, 'id') ? record.id : undefined;
  const id = RequestId.parse(rawId);
  const requestId = id.ok ? id.value : null;
  if (requestId === null) {
    return { ok: false, id: null, code: ErrorCode.BAD_MESSAGE, message: 'id: expected an integer ≥ 0' };
  }
  const op = Object.prototype.hasOwnProperty.call(record, 'op') ? record.op : undefined;
  if (typeof op !== 'string' || !(CLIENT_OP_SET as ReadonlySet<string>).has(op)) {
    return { ok: false, id: requestId, code: ErrorCode.UNKNOWN_OP, message: 'op: unknown request' };
  }
  const parsed = ClientMessageSchema.parse(json);
  if (!parsed.ok) {
    return {
      ok: false,
      id: requestId,
      code: ErrorCode.BAD_MESSAGE,
      message: `${parsed.issue.path}: ${parsed.issue.message}`,
    };
  }
  return { ok: true, message: parsed.value };
}

const CLIENT_OP_SET: ReadonlySet<ClientOp> = new Set(Object.values(ClientOp));
