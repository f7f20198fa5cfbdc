/**
 * Opcodes and error codes: `as const` objects with derived union types. The wire carries the string
 * values; see docs/protocol.md for each message.
 */

/** Client → server requests. Every request carries `op` and a request `id`. */
export const ClientOp = {
  SIGN_UP: 'signup',
  LOGIN: 'login',
  RESUME: 'resume',
  LOGOUT: 'logout',
  CHANGE_PASSWORD: 'change-password',
  BALANCES: 'balances',
  TOP_UP: 'top-up',
  LOBBY_LIST: 'lobby-list',
  LOBBY_SUBSCRIBE: 'lobby-subscribe',
  LOBBY_UNSUBSCRIBE: 'lobby-unsubscribe',
  WAITLIST_JOIN: 'waitlist-join',
  WAITLIST_LEAVE: 'waitlist-leave',
  TABLE_OPEN: 'table-open',
  TABLE_CLOSE: 'table-close',
  TABLE_PREVIEW: 'table-preview',
  SEAT_TAKE: 'seat-take',
  REBUY: 'rebuy',
  SIT_OUT: 'sit-out',
  SIT_IN: 'sit-in',
  SEAT_LEAVE: 'seat-leave',
  MISSED_BLINDS: 'missed-blinds',
  AUTO_POST: 'auto-post',
  POST_BLIND: 'post-blind',
  RUN_TWICE: 'run-twice',
  MUCK_LOSING: 'muck-losing',
  ACT: 'act',
  HISTORY_LIST: 'history-list',
  HISTORY_FETCH: 'history-fetch',
  HAND_SUMMARY: 'hand-summary',
  FAIR_CONTRIBUTE: 'fair-contribute',
  CHAT_SEND: 'chat-send',
  NOTES_LIST: 'notes-list',
  NOTE_SET: 'note-set',
  TOURNAMENT_LIST: 'tournament-list',
  TOURNAMENT_GET: 'tournament-get',
  TOURNAMENT_REGISTER: 'tournament-register',
  TOURNAMENT_UNREGISTER: 'tournament-unregister',
  TOURNAMENT_REBUY: 'tournament-rebuy',
  TOURNAMENT_ADDON: 'tournament-addon',
  TOURNAMENT_REENTER: 'tournament-reenter',
  TOURNAMENT_DEAL_PROPOSE: 'tournament-deal-propose',
  TOURNAMENT_DEAL_ACCEPT: 'tournament-deal-accept',
  TOURNAMENT_DEAL_DECLINE: 'tournament-deal-decline',
  PING: 'ping',
  STAFF_PLAYER: 'staff-player',
  STAFF_CASHIER: 'staff-cashier',
  STAFF_HAND: 'staff-hand',
  STAFF_SUSPEND: 'staff-suspend',
  STAFF_BROADCAST: 'staff-broadcast',
  STAFF_END_SESSIONS: 'staff-end-sessions',
  STAFF_FIGURES: 'staff-figures',
  STAFF_AUDIT: 'staff-audit',
  STAFF_INTEGRITY: 'staff-integrity',
  STAFF_PAUSE: 'staff-pause',
  STAFF_TABLE_OPEN: 'staff-table-open',
  STAFF_TABLE_CLOSE: 'staff-table-close',
  STAFF_HANDS: 'staff-hands',
  STAFF_TRANSACTION: 'staff-transaction',
  STAFF_TRANSACTIONS: 'staff-transactions',
} as const;
export type ClientOp = (typeof ClientOp)[keyof typeof ClientOp];
export const CLIENT_OPS: readonly ClientOp[] = Object.values(ClientOp);

/** Requests allowed before authentication; every other request needs a logged-in connection. */
export const PUBLIC_OPS: ReadonlySet<ClientOp> = new Set<ClientOp>([
  ClientOp.SIGN_UP,
  ClientOp.LOGIN,
  ClientOp.RESUME,
  ClientOp.PING,
]);

/** Requests only a staff account (operator or admin) may make; anyone else gets NOT_STAFF. */
export const STAFF_OPS: ReadonlySet<ClientOp> = new Set<ClientOp>([
  ClientOp.STAFF_PLAYER,
  ClientOp.STAFF_CASHIER,
  ClientOp.STAFF_HAND,
  ClientOp.STAFF_SUSPEND,
  ClientOp.STAFF_BROADCAST,
  ClientOp.STAFF_END_SESSIONS,
  ClientOp.STAFF_FIGURES,
  ClientOp.STAFF_AUDIT,
  ClientOp.STAFF_INTEGRITY,
  ClientOp.STAFF_PAUSE,
  ClientOp.STAFF_TABLE_OPEN,
  ClientOp.STAFF_TABLE_CLOSE,
  ClientOp.STAFF_HANDS,
  ClientOp.STAFF_TRANSACTION,
  ClientOp.STAFF_TRANSACTIONS,
]);

/** Server → client messages. `ack` and `error` answer a request; the others are pushed. */
export const ServerOp = {
  ACK: 'ack',
  ERROR: 'error',
  HELLO: 'hello',
  LOBBY_TABLE: 'lobby-table',
  TABLE_SNAPSHOT: 'table-snapshot',
  HAND_START: 'hand-start',
  TABLE_EVENT: 'table-event',
  CLOCK: 'clock',
  LEGAL_ACTIONS: 'legal-actions',
  HAND_SUMMARY: 'hand-summary',
  BALANCES: 'balances',
  WAITLIST_SEAT: 'waitlist-seat',
  SESSION_ENDED: 'session-ended',
  BROADCAST: 'broadcast',
  CHAT: 'chat',
  LOBBY_TABLE_REMOVED: 'lobby-table-removed',
  TOURNAMENT_SEAT: 'tournament-seat',
  TOURNAMENT_OUT: 'tournament-out',
  TOURNAMENT_END: 'tournament-end',
} as const;
export type ServerOp = (typeof ServerOp)[keyof typeof ServerOp];

/** Why a request was refused. Every refusal changes nothing. */
export const ErrorCode = {
  /** The frame is not a JSON object (binary, not UTF-8 JSON, not an object) or is too large. */
  BAD_FRAME: 'BAD_FRAME',
  /** The message does not match its schema (field, type, range); `message` names the field. */
  BAD_MESSAGE: 'BAD_MESSAGE',
  /** `op` is not a known request. */
  UNKNOWN_OP: 'UNKNOWN_OP',
  /** Too many messages: the connection's token bucket is empty. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The request needs a logged-in connection. */
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  /** signup/login/resume on a connection that is already logged in. */
  ALREADY_AUTHENTICATED: 'ALREADY_AUTHENTICATED',
  /** Wrong name or password. */
  BAD_CREDENTIALS: 'BAD_CREDENTIALS',
  /** A staff account's password was right; its sign-in needs the code of its authenticator (`totp`) too. */
  TOTP_REQUIRED: 'TOTP_REQUIRED',
  /** A staff account (operator or admin) plays no real money: no real-money buy-in, no credit. */
  STAFF_ACCOUNT: 'STAFF_ACCOUNT',
  /** The account is suspended by the room's staff: it cannot sign in. */
  SUSPENDED: 'SUSPENDED',
  /** The room's staff muted this account at the tables' chat (`felt admin mute`); he still plays. */
  MUTED: 'MUTED',
  /** A staff request from an account that is not staff. */
  NOT_STAFF: 'NOT_STAFF',
  /** No account by that name (a staff lookup). */
  UNKNOWN_USER: 'UNKNOWN_USER',
  /**
   * Too many password attempts: on this account (wrong passwords in a row slow it down, never lock it)
   * or from this address; nothing was checked. The message says when to try again.
   */
  TOO_MANY_ATTEMPTS: 'TOO_MANY_ATTEMPTS',
  /** The room is busy checking passwords (too many sign-ins at once); nothing was done, try again. */
  BUSY: 'BUSY',
  /** The session token is unknown, expired or revoked. */
  BAD_TOKEN: 'BAD_TOKEN',
  /** The account name is taken. */
  NAME_TAKEN: 'NAME_TAKEN',
  /** The password is too short or too long. */
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  /** Play-money top-up beyond the ceiling. */
  TOP_UP_LIMIT: 'TOP_UP_LIMIT',
  /** Not enough money in the account (buy-in). */
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  NO_SUCH_TABLE: 'NO_SUCH_TABLE',
  /** The seat is taken or outside the table. */
  SEAT_TAKEN: 'SEAT_TAKEN',
  /** The account already has a seat at this table. */
  ALREADY_SEATED: 'ALREADY_SEATED',
  /** The request needs a seat at this table. */
  NOT_SEATED: 'NOT_SEATED',
  /** Buy-in outside the table's minimum and maximum. */
  BAD_BUY_IN: 'BAD_BUY_IN',
  /** The table has no free seat (join the waiting list). */
  TABLE_FULL: 'TABLE_FULL',
  /** Not now: wrong phase of the hand or of the seat (e.g. sit in while not sitting out). */
  WRONG_STATE: 'WRONG_STATE',
  /** The hand waits for another player. */
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  /** The action is not among the legal actions. */
  ILLEGAL_ACTION: 'ILLEGAL_ACTION',
  /** A bet or raise amount outside the legal range. */
  BAD_AMOUNT: 'BAD_AMOUNT',
  /** Discarded cards not in the player's hand. */
  BAD_CARDS: 'BAD_CARDS',
  /** The hand id is not the hand in progress, or the hand is unknown / not visible to the account. */
  NO_SUCH_HAND: 'NO_SUCH_HAND',
  /** A staff lookup of a ledger transaction by an id the ledger does not hold. */
  NO_SUCH_TRANSACTION: 'NO_SUCH_TRANSACTION',
  /** A fair-dealing contribution names another commitment than the next hand's (docs/fairness.md). */
  WRONG_COMMITMENT: 'WRONG_COMMITMENT',
  /** A fair-dealing contribution is not 32 bytes as 64 lower-case hex digits. */
  BAD_CONTRIBUTION: 'BAD_CONTRIBUTION',
  /** No tournament by that id is open, running, or finished since the room started. */
  NO_SUCH_TOURNAMENT: 'NO_SUCH_TOURNAMENT',
  /** The tournament takes no more entries: full, over, or past its late registration. */
  REGISTRATION_CLOSED: 'REGISTRATION_CLOSED',
  /** The account is already an entrant of this tournament. */
  ALREADY_REGISTERED: 'ALREADY_REGISTERED',
  /** The account is not an entrant of this tournament. */
  NOT_REGISTERED: 'NOT_REGISTERED',
  /** Unregistering after the tournament has started. */
  TOURNAMENT_STARTED: 'TOURNAMENT_STARTED',
  /** The tournament sells no rebuy, add-on or re-entry of that kind. */
  NOT_OFFERED: 'NOT_OFFERED',
  /** A rebuy, add-on or re-entry outside the levels it is sold in, or after prizes began to be paid. */
  OUT_OF_WINDOW: 'OUT_OF_WINDOW',
  /** The player has bought as many of that kind as one player may. */
  LIMIT_REACHED: 'LIMIT_REACHED',
  /** A rebuy with more chips than the rebuy allows. */
  STACK_TOO_BIG: 'STACK_TOO_BIG',
  /** A re-entry by a player still in. */
  STILL_PLAYING: 'STILL_PLAYING',
  /** A rebuy or add-on by a player who is out (he may re-enter), or a purchase while the tournament is not running. */
  NOT_PLAYING: 'NOT_PLAYING',
  /** A deal proposed away from the final table (more than one table plays, or it is not running). */
  NOT_FINAL_TABLE: 'NOT_FINAL_TABLE',
  /** A deal proposed while another is open, or a purchase while one is open. */
  DEAL_OPEN: 'DEAL_OPEN',
  /** A deal accepted or declined when none is open (or by a player not in it). */
  NO_DEAL_OPEN: 'NO_DEAL_OPEN',
  /** A deal accepted before its amounts are known: the final table is finishing its hand. */
  DEAL_PENDING: 'DEAL_PENDING',
  /** The ledger refused the buy-in for another reason than the balance (e.g. a staff account, real money). */
  PAYMENT_REFUSED: 'PAYMENT_REFUSED',
  /** The server is shutting down and accepts nothing new. */
  SHUTTING_DOWN: 'SHUTTING_DOWN',
  /**
   * The room's storage refuses writes for now (disk full, database unreachable): the request changed
   * nothing and every chip stays where it was; ask again once the room is ready (`/health`).
   */
  STORAGE_UNAVAILABLE: 'STORAGE_UNAVAILABLE',
  /** Something went wrong on the server; the request changed nothing. */
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ERROR_CODES: readonly ErrorCode[] = Object.values(ErrorCode);

/** Why the server ended a session (`session-ended`). */
export const SessionEndReason = {
  LOGOUT: 'logout',
  PASSWORD_CHANGED: 'password-changed',
  /** The same account resumed or logged in elsewhere with this session's token. */
  REPLACED: 'replaced',
  SHUTDOWN: 'shutdown',
  /** The room's staff suspended the account. */
  SUSPENDED: 'suspended',
  /** The room's staff ended the account's sessions (it may sign in again). */
  ENDED_BY_STAFF: 'ended-by-staff',
} as const;
export type SessionEndReason = (typeof SessionEndReason)[keyof typeof SessionEndReason];
