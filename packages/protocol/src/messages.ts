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
import type {
  IntegrityView,
  LiveFiguresView,
  SettledHandView,
  StaffAuditView,
  LedgerTransactionView,
  StaffPlayerView,
  StaffRoleName,
} from './staff.js';
import type {
  EventView,
  FairHandView,
  FairNextView,
  HandRecap,
  LegalView,
  SeatStatus,
  TableStakes,
  TableView,
} from './views.js';
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
/** A table: a cash table's id, or a tournament table's (its tournament's id with `@`, then `-` and its number). */
export const TableId = string({ min: 1, max: 96, pattern: /^[A-Za-z0-9_.:@-]+$/ });
/** A hand: its id in the room's storage (in table messages and hand histories alike). */
export const HandId = int({ min: 1 });
export const UserName = string({ min: NAME_MIN, max: NAME_MAX, pattern: /^[A-Za-z0-9_.-]+$/ });
/** Checked for length by the handler (WEAK_PASSWORD), so the schema only bounds it. */
export const Password = string({ min: 1, max: PASSWORD_MAX });
export const Token = string({ min: 16, max: 128, pattern: /^[A-Za-z0-9_-]+$/ });
/** A staff member's one-time code from his authenticator (TOTP, six digits). */
export const TotpCode = string({ min: 6, max: 6, pattern: /^[0-9]{6}$/ });
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
/** `totp`: a staff account's second factor, which its sign-in needs; a player's sign-in ignores it. */
export const Login = request(ClientOp.LOGIN, {
  name: UserName,
  password: Password,
  totp: optional(TotpCode),
});
/** The body of the browser's `POST /api/signup` and `POST /api/login` (docs/security.md). */
export const Credentials = object({ name: UserName, password: Password, totp: optional(TotpCode) });
/** Without `token`: the session of the cookie the WebSocket was opened with (the browser). */
export const Resume = request(ClientOp.RESUME, { token: optional(Token) });
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
/** Who sits at a table (the lobby's preview of a row), without watching it. */
export const TablePreview = request(ClientOp.TABLE_PREVIEW, { tableId: TableId });
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
/** Answers the hand's run-it-twice offer (`HandView.runTwice`): agree, or decline (the board is run once). */
export const RunTwice = request(ClientOp.RUN_TWICE, { tableId: TableId, accept: boolean() });
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
/**
 * A seated player's 32 random bytes (`bytes`: 64 lower-case hex digits) for the table's next hand,
 * naming its commitment (`commitment`, hex: the view's `fair.commitment`). Checked by the table
 * (BAD_CONTRIBUTION, WRONG_COMMITMENT, NOT_SEATED), so the schema only bounds the texts.
 */
export const FairContribute = request(ClientOp.FAIR_CONTRIBUTE, {
  tableId: TableId,
  commitment: string({ min: 1, max: 128 }),
  bytes: string({ min: 1, max: 128 }),
});
/**
 * A line in the table's chat, from a player seated there, to everyone watching it. The server cleans
 * it to one line (control characters become spaces) and refuses it when nothing or more than 200
 * characters are left (BAD_MESSAGE), from a player not seated (NOT_SEATED), muted by the staff (MUTED)
 * or past his allowance (RATE_LIMITED: five at once, then one every three seconds).
 */
export const ChatSend = request(ClientOp.CHAT_SEND, {
  tableId: TableId,
  text: string({ min: 1, max: 1000 }),
});
/** The colour tags of players' notes. */
export const NOTE_COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'] as const;
export type NoteColour = (typeof NOTE_COLOURS)[number];
/** His own notes on other players, with their colour tags (kept with his account, seen by nobody else). */
export const NotesList = request(ClientOp.NOTES_LIST, {});
/**
 * His note on the player `about` (an account id, as in table views), replacing the last one; an empty
 * note without a colour removes it. UNKNOWN_USER for no such account.
 */
export const NoteSet = request(ClientOp.NOTE_SET, {
  about: int({ min: 1 }),
  colour: nullable(enumOf(NOTE_COLOURS)),
  note: string({ max: 500 }),
});
/** A tournament run: its entry's id, and for a scheduled or sit & go run `@` its start (docs/tournaments.md). */
export const TournamentId = string({ min: 1, max: 80, pattern: /^[A-Za-z0-9_.:@-]+$/ });
/** The tournaments open for registration, running, or over since the room started. */
export const TournamentList = request(ClientOp.TOURNAMENT_LIST, {});
/** One tournament: structure, payouts, entrants with chips and rank, tables, results. */
export const TournamentGet = request(ClientOp.TOURNAMENT_GET, { tournamentId: TournamentId });
/** Enter: the buy-in to the prize pool and the fee to the house, from the balance of its currency. */
export const TournamentRegister = request(ClientOp.TOURNAMENT_REGISTER, { tournamentId: TournamentId });
/** Before the start only: the buy-in and fee back. */
export const TournamentUnregister = request(ClientOp.TOURNAMENT_UNREGISTER, { tournamentId: TournamentId });
/** A rebuy (a player still in, his stack at most the rebuy's limit): its cost to the pool, its fee to the house; its chips before his next hand. */
export const TournamentRebuy = request(ClientOp.TOURNAMENT_REBUY, { tournamentId: TournamentId });
/** An add-on (a player still in): its cost to the pool, its fee to the house; its chips before his next hand. */
export const TournamentAddOn = request(ClientOp.TOURNAMENT_ADDON, { tournamentId: TournamentId });
/** A re-entry (a player who is out): a new entry at the buy-in and fee, seated with a starting stack. */
export const TournamentReEnter = request(ClientOp.TOURNAMENT_REENTER, { tournamentId: TournamentId });
/** At the final table: a deal of the prizes left, by ICM or chip chop; play pauses while it is open. */
export const TournamentDealPropose = request(ClientOp.TOURNAMENT_DEAL_PROPOSE, {
  tournamentId: TournamentId,
  kind: enumOf(['icm', 'chip-chop'] as const),
});
/** The open deal accepted by one of its players; when all have, the prizes are paid and it is over. */
export const TournamentDealAccept = request(ClientOp.TOURNAMENT_DEAL_ACCEPT, { tournamentId: TournamentId });
/** The open deal declined: it is off, and play goes on. */
export const TournamentDealDecline = request(ClientOp.TOURNAMENT_DEAL_DECLINE, {
  tournamentId: TournamentId,
});
export const Ping = request(ClientOp.PING, {});
/** Staff: a player by name (any case) — balances, seats, sessions. */
export const StaffPlayer = request(ClientOp.STAFF_PLAYER, { name: UserName });
/** Staff: real money into or out of a player's balance, with the reason the staff log keeps. */
export const StaffCashier = request(ClientOp.STAFF_CASHIER, {
  name: UserName,
  direction: enumOf(['credit', 'debit'] as const),
  amount: int({ min: 1, max: MAX_AMOUNT }),
  reason: string({ min: 1, max: 200 }),
});
/** Staff: a finished hand with every card (never one still being played); the lookup is logged. */
export const StaffHand = request(ClientOp.STAFF_HAND, { handId: HandId });
/** Staff: a message from the room to every connection, or to those watching one table. */
export const StaffBroadcast = request(ClientOp.STAFF_BROADCAST, {
  tableId: optional(TableId),
  text: string({ min: 1, max: 500 }),
});
/**
 * Staff: finished hands, newest first, played by one player and/or at one table and/or ended within a
 * span (ms since the epoch, both ends included); at most `limit` (default 50).
 */
export const StaffHands = request(ClientOp.STAFF_HANDS, {
  name: optional(UserName),
  tableId: optional(TableId),
  endedFrom: optional(int({ min: 0 })),
  endedTo: optional(int({ min: 0 })),
  limit: optional(int({ min: 1, max: 500 })),
});
/** Staff: one ledger transaction with every posting; the lookup is logged. */
export const StaffTransaction = request(ClientOp.STAFF_TRANSACTION, { transactionId: int({ min: 1 }) });
/**
 * Staff: the newest ledger transactions (at most `limit`, default 50) of one player (his balances and
 * seats) or of one hand (its settlement or cancellation): exactly one of `name` and `handId`.
 */
export const StaffTransactions = request(ClientOp.STAFF_TRANSACTIONS, {
  name: optional(UserName),
  handId: optional(HandId),
  limit: optional(int({ min: 1, max: 500 })),
});
/**
 * Staff: suspend a player (his sessions end; at each table he is folded when his turn comes and cashed
 * out when the hand is over) or lift it (`suspended: false`), with the reason the staff log keeps.
 */
export const StaffSuspend = request(ClientOp.STAFF_SUSPEND, {
  name: UserName,
  suspended: boolean(),
  reason: string({ min: 1, max: 200 }),
});
/** Staff: end every session of a player (a stolen password, a shared account); he may sign in again. */
export const StaffEndSessions = request(ClientOp.STAFF_END_SESSIONS, {
  name: UserName,
  reason: string({ min: 1, max: 200 }),
});
/** Staff: the room's live figures (those of `/metrics` and `/health`) and their recent history. */
export const StaffFigures = request(ClientOp.STAFF_FIGURES, {});
/** Staff: the ledger's audit (conserved or not, and where not) and the staff log's chain. */
export const StaffAudit = request(ClientOp.STAFF_AUDIT, {});
/** Staff: the game-security reports over every stored hand (as `felt admin integrity`). */
export const StaffIntegrity = request(ClientOp.STAFF_INTEGRITY, {});
/**
 * Staff: pause a table (the hand in play finishes, no other starts) or resume it (`paused: false`);
 * without `tableId`, every table of the room — a drain before a restart.
 */
export const StaffPause = request(ClientOp.STAFF_PAUSE, {
  tableId: optional(TableId),
  paused: boolean(),
  reason: string({ min: 1, max: 200 }),
});
/**
 * Staff: a new table, with the fields of a table in the table file (docs/tables.md); BAD_MESSAGE naming
 * what no table could run with, or an id already in the room.
 */
export const StaffTableOpen = request(ClientOp.STAFF_TABLE_OPEN, {
  table: object({
    id: string({ min: 1, max: 48, pattern: /^[A-Za-z0-9_.:-]+$/ }),
    name: string({ min: 1, max: 80 }),
    game: Game,
    structure: Structure,
    currency: CurrencySchema,
    stakes: object({
      small: int({ min: 1, max: MAX_AMOUNT }),
      big: int({ min: 1, max: MAX_AMOUNT }),
      ante: optional(int({ min: 0, max: MAX_AMOUNT })),
      bringIn: optional(int({ min: 0, max: MAX_AMOUNT })),
    }),
    seats: optional(int({ min: 2, max: 10 })),
    minBuyIn: optional(int({ min: 1, max: MAX_AMOUNT })),
    maxBuyIn: optional(int({ min: 1, max: MAX_AMOUNT })),
  }),
  reason: string({ min: 1, max: 200 }),
});
/**
 * Staff: closes a table after its hand: it is paused at once (no new hand), and once the hand in play is
 * over every seated player is cashed out (the table's own leave), its waiting list dropped and the table
 * taken out of the room (`lobby-table-removed`). Practice tables are the table file's (WRONG_STATE).
 */
export const StaffTableClose = request(ClientOp.STAFF_TABLE_CLOSE, {
  tableId: TableId,
  reason: string({ min: 1, max: 200 }),
});

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
  TablePreview,
  SeatTake,
  Rebuy,
  SitOut,
  SitIn,
  SeatLeave,
  MissedBlindsRequest,
  AutoPost,
  PostBlind,
  RunTwice,
  MuckLosing,
  Act,
  HistoryList,
  HistoryFetch,
  HandSummaryRequest,
  FairContribute,
  ChatSend,
  NotesList,
  NoteSet,
  TournamentList,
  TournamentGet,
  TournamentRegister,
  TournamentUnregister,
  TournamentRebuy,
  TournamentAddOn,
  TournamentReEnter,
  TournamentDealPropose,
  TournamentDealAccept,
  TournamentDealDecline,
  Ping,
  StaffPlayer,
  StaffCashier,
  StaffHand,
  StaffSuspend,
  StaffBroadcast,
  StaffEndSessions,
  StaffFigures,
  StaffAudit,
  StaffIntegrity,
  StaffPause,
  StaffTableOpen,
  StaffTableClose,
  StaffHands,
  StaffTransaction,
  StaffTransactions,
]);
export type ClientMessage = Infer<typeof ClientMessageSchema>;
/** The request with op `O`. */
export type ClientMessageOf<O extends ClientOp> = Extract<ClientMessage, { readonly op: O }>;

// ─── Server → client payloads ─────────────────────────────────────────────────────────────────────

export interface AccountInfo {
  /** The account id (as in table views). */
  readonly id: number;
  readonly name: string;
  /** A staff account's role (it may open the console); absent for a player. */
  readonly role?: StaffRoleName;
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
  /** The room's staff paused the table (`staff-pause`): no new hand starts until it is resumed. */
  readonly paused: boolean;
}

export type TournamentState = 'registering' | 'running' | 'finished' | 'cancelled';

/** A tournament as the tournament lobby lists it. Money in cents (real) or play chips. */
export interface TournamentSummary {
  readonly tournamentId: string;
  readonly name: string;
  readonly kind: 'sit-and-go' | 'scheduled';
  /** One pair, or the rotation of a mixed game. */
  readonly games: readonly { readonly game: RoomGame; readonly structure: StructureName }[];
  readonly currency: Currency;
  readonly buyIn: number;
  readonly fee: number;
  readonly entrants: number;
  readonly minEntrants: number;
  readonly maxEntrants: number;
  /** A scheduled tournament's start (ms since the epoch); null for a sit & go (it starts when full). */
  readonly startsAt: number | null;
  readonly state: TournamentState;
  readonly playersLeft: number;
  /** Whether the account asking is an entrant (registered, playing, or out). */
  readonly registered: boolean;
}

/** A player's place: shared with `tied` players in all (1 = alone), his prize in cents or play chips. */
export interface TournamentPlace {
  readonly account: number;
  readonly name: string;
  readonly place: number;
  readonly tied: number;
  readonly prize: number;
}

/**
 * The level clock as of the answer: the phase (a break due waits for every table's hand to end), the
 * time left in a level by minutes or a break, the hands left in a level by hands (null where the other
 * counts), whether a break follows the level being played, and whether the time is stopped (a deal is
 * being talked over at the final table: `remainingMs` stays as it is until the deal is off).
 */
export interface TournamentClockView {
  readonly phase: 'level' | 'break-due' | 'break';
  readonly remainingMs: number | null;
  readonly remainingHands: number | null;
  readonly breakNext: boolean;
  readonly paused: boolean;
}

export interface TournamentLevelWindow {
  readonly fromLevel: number;
  readonly untilLevel: number;
}

/** A rebuy or add-on: `cost` to the prize pool and `fee` to the house (cents or play chips), `chips` to the stack. */
export interface TournamentChipPurchase {
  readonly cost: number;
  readonly fee: number;
  readonly chips: number;
  readonly maxPerPlayer: number;
  readonly window: TournamentLevelWindow;
}

/**
 * A deal proposed at the final table: its kind, who proposed it, and for each player left his chips,
 * his prize in cents (null until the table has finished its hand) and whether he has accepted;
 * `expiresAt` (ms since the epoch, null until the amounts are known): unanswered by then, it is off.
 */
export interface TournamentDealView {
  readonly kind: 'icm' | 'chip-chop';
  readonly proposer: number;
  readonly expiresAt: number | null;
  readonly players: readonly {
    readonly account: number;
    readonly name: string;
    readonly chips: number;
    readonly amount: number | null;
    readonly accepted: boolean;
  }[];
}

/** The tournament page. */
export interface TournamentDetail extends TournamentSummary {
  readonly startingChips: number;
  readonly seatsPerTable: number;
  /** The levels as defined (blinds, ante, bring-in, limits in chips). */
  readonly levels: readonly unknown[];
  readonly levelLength: { readonly unit: 'minutes' | 'hands'; readonly value: number };
  readonly breaks: { readonly everyLevels: number; readonly minutes: number } | null;
  /** The level being played (0-based), null before the start. */
  readonly level: number | null;
  /** The level clock while it runs, else null. */
  readonly clock: TournamentClockView | null;
  /** The prizes by place, first place first, for the entrants so far and everything they bought. */
  readonly prizes: readonly number[];
  /** What it sells once it runs (`tournament-rebuy`, `-addon`, `-reenter`), in the levels of `window` (0-based, both included); null: not sold. */
  readonly rebuy: (TournamentChipPurchase & { readonly maxStack: number }) | null;
  readonly addOn: TournamentChipPurchase | null;
  /** At the buy-in and fee, for a starting stack. */
  readonly reEntry: { readonly maxPerPlayer: number; readonly window: TournamentLevelWindow } | null;
  /**
   * Every entrant: chips as of his table's last finished hand and those he has bought since (0 once
   * out); `rank` among the players still in, by chips (equal stacks share it), null once out; what he
   * has bought.
   */
  readonly players: readonly {
    readonly account: number;
    readonly name: string;
    readonly chips: number;
    readonly rank: number | null;
    readonly rebuys: number;
    readonly addOns: number;
    readonly reEntries: number;
  }[];
  readonly tables: readonly { readonly tableId: string; readonly players: number }[];
  /** The places decided so far, best first (all of them once finished). */
  readonly results: readonly TournamentPlace[];
  /** The deal proposed at the final table while it is open, else null. */
  readonly deal: TournamentDealView | null;
}

/** A taken seat as the lobby's preview shows it: what any spectator of the table sees of it. */
export interface SeatPreview {
  readonly seat: number;
  readonly name: string;
  /** His chips as the table shows them now (during a hand, less what he has put in it). */
  readonly stack: number;
  readonly bot: boolean;
  readonly status: SeatStatus;
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
  /** `seats`: the taken seats, in seat order. */
  readonly 'table-preview': { readonly tableId: string; readonly seats: readonly SeatPreview[] };
  readonly 'seat-take': { readonly seat: number; readonly balances: Balances };
  readonly rebuy: { readonly balances: Balances };
  readonly 'sit-out': Record<string, never>;
  readonly 'sit-in': Record<string, never>;
  readonly 'seat-leave': { readonly balances: Balances };
  readonly 'missed-blinds': Record<string, never>;
  readonly 'auto-post': Record<string, never>;
  readonly 'post-blind': Record<string, never>;
  readonly 'run-twice': Record<string, never>;
  readonly 'muck-losing': Record<string, never>;
  readonly act: Record<string, never>;
  readonly 'history-list': { readonly hands: readonly HandListItem[] };
  readonly 'history-fetch': { readonly hand: HandHistoryPayload };
  /** Null when no hand has finished at the table since the server started. */
  readonly 'hand-summary': { readonly summary: HandRecap | null };
  /** The hand the contribution goes to, and the hash its first message will list for the seat. */
  readonly 'fair-contribute': { readonly hand: number; readonly seat: number; readonly hash: string };
  readonly 'chat-send': Record<string, never>;
  readonly 'notes-list': { readonly notes: readonly PlayerNoteView[] };
  readonly 'note-set': Record<string, never>;
  readonly 'tournament-list': { readonly tournaments: readonly TournamentSummary[] };
  readonly 'tournament-get': { readonly tournament: TournamentDetail };
  readonly 'tournament-register': { readonly balances: Balances };
  readonly 'tournament-unregister': { readonly balances: Balances };
  readonly 'tournament-rebuy': { readonly balances: Balances };
  readonly 'tournament-addon': { readonly balances: Balances };
  readonly 'tournament-reenter': { readonly balances: Balances };
  readonly 'tournament-deal-propose': { readonly deal: TournamentDealView };
  readonly 'tournament-deal-accept': Record<string, never>;
  readonly 'tournament-deal-decline': Record<string, never>;
  readonly ping: { readonly time: number };
  readonly 'staff-player': { readonly player: StaffPlayerView };
  readonly 'staff-cashier': { readonly balances: Balances };
  /** `phh`, `text`: every card of the hand. */
  readonly 'staff-hand': { readonly hand: HandHistoryPayload };
  /** `tables`: the tables he was seated at, which fold him at his turn and cash him out. */
  readonly 'staff-suspend': { readonly tables: readonly string[] };
  /** `reached`: how many connections it was sent to. */
  readonly 'staff-broadcast': { readonly reached: number };
  /** `ended`: how many of his sessions there were. */
  readonly 'staff-end-sessions': { readonly ended: number };
  readonly 'staff-figures': { readonly figures: LiveFiguresView };
  readonly 'staff-audit': { readonly audit: StaffAuditView };
  readonly 'staff-integrity': { readonly report: IntegrityView };
  /** `tables`: the tables paused or resumed. */
  readonly 'staff-pause': { readonly tables: readonly string[] };
  readonly 'staff-table-open': { readonly tableId: string };
  /** Closing: the table is paused now and leaves the room once its hand is over. */
  readonly 'staff-table-close': { readonly tableId: string };
  readonly 'staff-hands': { readonly hands: readonly SettledHandView[] };
  readonly 'staff-transaction': { readonly transaction: LedgerTransactionView };
  /** Newest first. */
  readonly 'staff-transactions': { readonly transactions: readonly LedgerTransactionView[] };
}

/** A note of his on another player. */
export interface PlayerNoteView {
  readonly about: AccountInfo;
  readonly colour: NoteColour | null;
  readonly note: string;
  /** Ms since the epoch. */
  readonly updatedAt: number;
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

/** A table the staff closed has left the room: lobby subscribers drop its row. */
export interface LobbyTableRemovedMessage {
  readonly op: 'lobby-table-removed';
  readonly tableId: string;
}

/**
 * The full view of a table for this receiver (after `table-open`, on resume, at hand start and end, on
 * seat changes). `seq`: the table's stream number it stands at: the view reflects exactly the table's
 * broadcast messages 1..seq (a client replaces its view and takes this number). A snapshot sent to one
 * receiver only carries the current number; a broadcast one advances it like any broadcast.
 */
export interface TableSnapshotMessage {
  readonly op: 'table-snapshot';
  readonly tableId: string;
  readonly seq: number;
  readonly view: TableView;
}

/**
 * A hand's first message, before its forced bets and any card (the same for everybody): its place in
 * the table's fair-dealing chain (commitment, previous commitment, contributions' hashes in seat
 * order) and the next hand's commitment, which contributions go to from now on. `seq` as for events.
 */
export interface HandStartMessage {
  readonly op: 'hand-start';
  readonly tableId: string;
  readonly seq: number;
  readonly handId: number;
  /** The table's hand number (as `HandView.number`). */
  readonly number: number;
  readonly fair: FairHandView;
  readonly next: FairNextView;
}

/**
 * One event of the hand in progress, as this receiver may see it. `seq`: the table's stream number
 * (every broadcast of a table advances it by one, from 1 when the table is created, never reset); a
 * client applies a message only when its `seq` is greater than the last one it applied.
 */
export interface TableEventMessage {
  readonly op: 'table-event';
  readonly tableId: string;
  readonly handId: number;
  readonly seq: number;
  readonly event: EventView;
}

/**
 * Somebody is to act (sent to everybody at the table): his seat, clock and time bank. `deadline` in ms
 * since the epoch, time bank not counted. `seq`: the table's stream number (see `TableEventMessage`).
 */
export interface ClockMessage {
  readonly op: 'clock';
  readonly tableId: string;
  readonly seq: number;
  readonly handId: number;
  readonly seat: number;
  readonly deadline: number;
  readonly timeBankMs: number;
}

/**
 * Sent only to the player to act: what he may do (the engine's legal actions; `to` amounts are street
 * totals). It does not advance the stream: `seq` is the number of the `clock` it goes with (apply it
 * when it equals the last number applied).
 */
export interface LegalActionsMessage {
  readonly op: 'legal-actions';
  readonly tableId: string;
  readonly seq: number;
  readonly handId: number;
  readonly legal: LegalView;
}

/** A hand is over: its summary as this receiver may see it. `seq`: the table's stream number. */
export interface HandSummaryMessage {
  readonly op: 'hand-summary';
  readonly tableId: string;
  readonly seq: number;
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

/** A message from the room's staff; `tableId`: the table it is for, or null for the whole room. */
export interface BroadcastMessage {
  readonly op: 'broadcast';
  readonly tableId: string | null;
  readonly text: string;
}

/**
 * A line of a table's chat, to everyone watching the table (outside its numbered stream: it changes
 * nothing of the table). `text` is as the server cleaned it; `at`: when it was said, ms since the epoch.
 */
export interface ChatMessage {
  readonly op: 'chat';
  readonly tableId: string;
  readonly from: AccountInfo;
  readonly text: string;
  readonly at: number;
}

/**
 * To an entrant: the table and seat the tournament gives him — at the start, when he is moved, when his
 * table is opened again (another game of a rotation, the final table, after a restart). `moved`: he came
 * from another table of the tournament. Open the table with `table-open` to see and play his hand.
 */
export interface TournamentSeatMessage {
  readonly op: 'tournament-seat';
  readonly tournamentId: string;
  readonly tableId: string;
  readonly seat: number;
  readonly moved: boolean;
}

/** To an entrant: he is out (or has won): his place and prize. */
export interface TournamentOutMessage {
  readonly op: 'tournament-out';
  readonly tournamentId: string;
  readonly result: TournamentPlace;
}

/** To every entrant: the tournament is over (finished, or cancelled with every buy-in and fee back). */
export interface TournamentEndMessage {
  readonly op: 'tournament-end';
  readonly tournamentId: string;
  readonly state: 'finished' | 'cancelled';
  readonly results: readonly TournamentPlace[];
}

export type ServerMessage =
  | Ack
  | ErrorMessage
  | Hello
  | LobbyTableMessage
  | LobbyTableRemovedMessage
  | TableSnapshotMessage
  | HandStartMessage
  | TableEventMessage
  | ClockMessage
  | LegalActionsMessage
  | HandSummaryMessage
  | BalancesMessage
  | WaitlistSeatMessage
  | SessionEndedMessage
  | BroadcastMessage
  | ChatMessage
  | TournamentSeatMessage
  | TournamentOutMessage
  | TournamentEndMessage;

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
  object({ op: literal(ServerOp.LOBBY_TABLE_REMOVED), tableId: TableId }),
  object({ op: literal(ServerOp.TABLE_SNAPSHOT), tableId: TableId, seq: int(), view: unknownValue() }),
  object({
    op: literal(ServerOp.HAND_START),
    tableId: TableId,
    handId: HandId,
    seq: int(),
    number: int(),
    fair: unknownValue(),
    next: unknownValue(),
  }),
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
    seq: int(),
    seat: int(),
    deadline: number(),
    timeBankMs: int(),
  }),
  object({
    op: literal(ServerOp.LEGAL_ACTIONS),
    tableId: TableId,
    handId: HandId,
    seq: int(),
    legal: unknownValue(),
  }),
  object({ op: literal(ServerOp.HAND_SUMMARY), tableId: TableId, seq: int(), summary: unknownValue() }),
  object({ op: literal(ServerOp.BALANCES), balances: unknownValue() }),
  object({ op: literal(ServerOp.WAITLIST_SEAT), tableId: TableId, seat: int() }),
  object({ op: literal(ServerOp.SESSION_ENDED), reason: enumOf(Object.values(SessionEndReason)) }),
  object({ op: literal(ServerOp.BROADCAST), tableId: nullable(TableId), text: string({ max: 500 }) }),
  object({
    op: literal(ServerOp.CHAT),
    tableId: TableId,
    from: object({ id: int(), name: string({ max: 100 }) }),
    text: string({ max: 200 }),
    at: int(),
  }),
  object({
    op: literal(ServerOp.TOURNAMENT_SEAT),
    tournamentId: TournamentId,
    tableId: TableId,
    seat: int(),
    moved: boolean(),
  }),
  object({ op: literal(ServerOp.TOURNAMENT_OUT), tournamentId: TournamentId, result: unknownValue() }),
  object({
    op: literal(ServerOp.TOURNAMENT_END),
    tournamentId: TournamentId,
    state: enumOf(['finished', 'cancelled'] as const),
    results: unknownValue(),
  }),
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
