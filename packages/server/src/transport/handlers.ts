/**
 * One handler per request op. A handler gets a message that already passed its schema (and, except
 * for the public ops, belongs to a logged-in connection); it returns the ack's data or throws a
 * {@link RequestError} with a protocol error code. Table commands go to the table's own mailbox
 * (`table.handle`), which runs them one at a time; the hub only routes.
 */
import {
  ClientOp,
  ErrorCode,
  SessionEndReason,
  type AckData,
  type ClientMessageOf,
  type HandListItem,
} from '@felt/protocol';
import type { Accounts, Session } from '../accounts/accounts.js';
import type { TableChat } from '../chat/chat.js';
import type { Lobby } from '../lobby/lobby.js';
import type { LiveFigures } from './live-figures.js';
import type { DeskRequest, DeskValues, TournamentDesk } from '../tournament/desk.js';
import type { Storage, UserRecord } from '../storage/types.js';
import {
  requireStaff,
  staffAudit,
  staffBroadcast,
  staffCashier,
  staffEndSessions,
  staffHand,
  staffHands,
  staffIntegrity,
  staffPause,
  staffPlayer,
  staffSuspend,
  staffTable,
  staffTransaction,
  staffTransactions,
  type StaffResult,
} from '../staff/console.js';
import type { AccountId, PlayerRef, Table, TableCommand, TableConfig, TableMessage } from '../table/types.js';
import { resolveTable } from '../table/config.js';
import { houseBotsOf } from '../practice/config.js';
import { closeAfterHand } from '../staff/close-table.js';
import { historyText, revealedHistory } from '../table/history.js';
import type { Connection } from './connection.js';
import { textFrame } from './frame.js';
import type { Hub } from './hub.js';
import { toServerMessage } from './wire.js';

/** What the handlers work with. */
export interface Room {
  readonly storage: Storage;
  readonly accounts: Accounts;
  readonly lobby: Lobby;
  /** The live view of the staff's console. */
  readonly figures: LiveFigures;
  readonly chat: TableChat;
  readonly tournaments: TournamentDesk;
  /**
   * The tables where the account is seated, also those he sat down at through another process (a room
   * on several processes, src/cluster/); absent in a room of one process, which seated everybody itself.
   */
  readonly seatedAnywhere?: (account: AccountId) => readonly string[];
}

export class RequestError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

type Handler<O extends ClientOp> = (
  hub: Hub,
  connection: Connection,
  message: ClientMessageOf<O>,
) => Promise<AckData[O]>;
type Handlers = { readonly [O in ClientOp]: Handler<O> };

const empty = (): Record<string, never> => ({});

function sessionOf(connection: Connection): Session {
  if (connection.session === null) throw new RequestError(ErrorCode.NOT_AUTHENTICATED, 'log in first');
  return connection.session;
}

async function staffOf(hub: Hub, connection: Connection): Promise<UserRecord> {
  return answer(await requireStaff(hub.room.storage, sessionOf(connection).account.id));
}

function answer<T>(result: StaffResult<T>): T {
  if (!result.ok) throw new RequestError(result.error.code, result.error.message);
  return result.value;
}

function playerOf(connection: Connection): PlayerRef {
  const { account } = sessionOf(connection);
  return { account: account.id, name: account.name };
}

const NO_PLAYER_MET = 'no player you have met at a table';

/**
 * Whether `owner` has met `about` at a table: seated at a table this connection has open (its view
 * names him already), or dealt into one hand with him.
 */
async function metAtTable(hub: Hub, connection: Connection, owner: number, about: number): Promise<boolean> {
  for (const tableId of connection.tables.keys()) {
    const seats = findTable(hub, tableId)?.view(owner).seats ?? [];
    if (seats.some((seat) => seat?.account === about)) return true;
  }
  return hub.room.storage.playedTogether(owner, about);
}

/** A cash table of the lobby or a tournament's table: the table ops work at both. */
function findTable(hub: Hub, tableId: string): Table | undefined {
  return hub.room.lobby.table(tableId) ?? hub.room.tournaments.table(tableId);
}

function tableOf(hub: Hub, tableId: string): Table {
  const table = findTable(hub, tableId);
  if (!table) throw new RequestError(ErrorCode.NO_SUCH_TABLE, `no table ${tableId}`);
  return table;
}

/** Asks the tournaments (directed by this process or another); its refusal as the request's error. */
async function askDesk<R extends DeskRequest>(hub: Hub, request: R): Promise<DeskValues[R['kind']]> {
  const answer = await hub.room.tournaments.ask(request);
  if (!answer.ok) throw new RequestError(answer.code, answer.message);
  return answer.value;
}

/** A request of the connection's player that changes his balances (registering, a purchase): them after it. */
async function withBalances(hub: Hub, account: AccountId, request: DeskRequest) {
  await askDesk(hub, request);
  return { balances: await hub.room.accounts.balances(account) };
}

function refuseIfLoggedIn(connection: Connection): void {
  if (connection.session !== null) {
    throw new RequestError(ErrorCode.ALREADY_AUTHENTICATED, 'this connection is logged in; log out first');
  }
}

/**
 * The wire frame of each table message, made once: a table hands the same message object to every
 * subscriber entitled to exactly that view (see the table's broadcast), so it is serialised, UTF-8
 * encoded and framed once per broadcast and view rather than once per connection.
 */
const wireFrames = new WeakMap<TableMessage, Buffer>();

function wireFrameOf(message: TableMessage): Buffer {
  let frame = wireFrames.get(message);
  if (frame === undefined) {
    frame = textFrame(JSON.stringify(toServerMessage(message)));
    wireFrames.set(message, frame);
  }
  return frame;
}

/** Watches the table from this connection as its account (seated or not); idempotent. */
function watch(connection: Connection, table: Table): void {
  if (connection.tables.has(table.id)) return;
  const { account } = sessionOf(connection);
  const unsubscribe = table.subscribe(account.id, (message) => {
    connection.sendFrame(() => wireFrameOf(message));
  });
  connection.tables.set(table.id, unsubscribe);
}

/** Runs a table command; a refusal becomes the request's typed error. */
async function command(hub: Hub, connection: Connection, tableId: string, cmd: TableCommand): Promise<Table> {
  const table = tableOf(hub, tableId);
  const result = await table.handle(playerOf(connection), cmd);
  if (!result.ok) throw new RequestError(result.error.code, result.error.message);
  return table;
}

function rememberSeat(hub: Hub, account: number, tableId: string, seated: boolean): void {
  const set = hub.seatedAt.get(account) ?? new Set<string>();
  if (seated) set.add(tableId);
  else set.delete(tableId);
  if (set.size === 0) hub.seatedAt.delete(account);
  else hub.seatedAt.set(account, set);
}

export const HANDLERS: Handlers = {
  async [ClientOp.SIGN_UP](hub, connection, message) {
    refuseIfLoggedIn(connection);
    const result = await hub.room.accounts.signUp(message.name, message.password, connection.peer.caller);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    hub.attach(connection, { account: result.value.account, tokenHash: result.value.tokenHash });
    return { token: result.value.token, account: result.value.account, balances: result.value.balances };
  },

  async [ClientOp.LOGIN](hub, connection, message) {
    refuseIfLoggedIn(connection);
    const result = await hub.room.accounts.login(
      message.name,
      message.password,
      connection.peer.caller,
      message.totp,
    );
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    hub.attach(connection, { account: result.value.account, tokenHash: result.value.tokenHash });
    return { token: result.value.token, account: result.value.account, balances: result.value.balances };
  },

  /**
   * Reconnect: the same account, back at every table where he still has a seat, with the full current
   * view. Without a token, the browser's: the session cookie of the socket's upgrade.
   */
  async [ClientOp.RESUME](hub, connection, message) {
    refuseIfLoggedIn(connection);
    const token = message.token ?? connection.peer.cookieToken;
    if (token === null) throw new RequestError(ErrorCode.BAD_TOKEN, 'no session: sign in');
    const result = await hub.room.accounts.resume(token);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    const { account, tokenHash, balances } = result.value;
    hub.attach(connection, { account, tokenHash });
    const tables: string[] = [];
    const known = hub.seatedAt.get(account.id) ?? [];
    for (const tableId of new Set([...known, ...(hub.room.seatedAnywhere?.(account.id) ?? [])])) {
      const table = findTable(hub, tableId);
      if (!table || table.view(account.id).you === null) {
        rememberSeat(hub, account.id, tableId, false);
        continue;
      }
      rememberSeat(hub, account.id, tableId, true);
      tables.push(tableId);
    }
    // Subscribing sends each table's full view; after the ack, so the client knows the session first.
    queueMicrotask(() => {
      if (connection.session?.tokenHash !== tokenHash) return;
      for (const tableId of tables) {
        const table = findTable(hub, tableId);
        if (table) watch(connection, table);
      }
    });
    return { account, balances, tables };
  },

  async [ClientOp.LOGOUT](hub, connection) {
    const session = sessionOf(connection);
    await hub.room.accounts.logout(session.tokenHash);
    // Every connection on this token is logged out; the account's seats stay (he is disconnected).
    hub.endToken(session.tokenHash, connection);
    hub.detach(connection);
    return empty();
  },

  async [ClientOp.CHANGE_PASSWORD](hub, connection, message) {
    const session = sessionOf(connection);
    const result = await hub.room.accounts.changePassword(session, message.oldPassword, message.newPassword);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    hub.endSessions(session.account.id, session.tokenHash, SessionEndReason.PASSWORD_CHANGED);
    return empty();
  },

  async [ClientOp.BALANCES](hub, connection) {
    return { balances: await hub.room.accounts.balances(sessionOf(connection).account.id) };
  },

  async [ClientOp.TOP_UP](hub, connection, message) {
    const result = await hub.room.accounts.topUp(sessionOf(connection).account.id, message.amount);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    return { balances: result.value };
  },

  async [ClientOp.LOBBY_LIST](hub, _connection, message) {
    return Promise.resolve({
      tables: hub.room.lobby.list({
        ...(message.game !== undefined ? { game: message.game } : {}),
        ...(message.structure !== undefined ? { structure: message.structure } : {}),
        ...(message.currency !== undefined ? { currency: message.currency } : {}),
      }),
    });
  },

  async [ClientOp.LOBBY_SUBSCRIBE](hub, connection) {
    connection.lobbyUnsubscribe ??= hub.room.lobby.subscribe((update) => {
      connection.send(update);
    });
    return Promise.resolve({ tables: hub.room.lobby.list() });
  },

  async [ClientOp.LOBBY_UNSUBSCRIBE](_hub, connection) {
    connection.lobbyUnsubscribe?.();
    connection.lobbyUnsubscribe = null;
    return Promise.resolve(empty());
  },

  async [ClientOp.WAITLIST_JOIN](hub, connection, message) {
    tableOf(hub, message.tableId);
    const position = await hub.room.lobby.waitlistJoin(message.tableId, sessionOf(connection).account.id);
    return { position };
  },

  async [ClientOp.WAITLIST_LEAVE](hub, connection, message) {
    tableOf(hub, message.tableId);
    await hub.room.lobby.waitlistLeave(message.tableId, sessionOf(connection).account.id);
    return empty();
  },

  async [ClientOp.TABLE_OPEN](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    const { account } = sessionOf(connection);
    const seat = table.view(account.id).you;
    watch(connection, table);
    return Promise.resolve({ seat });
  },

  async [ClientOp.TABLE_PREVIEW](hub, _connection, message) {
    // What a spectator sees at the seats, and nothing of the hand but the stacks: no cards, whoever asks.
    const view = tableOf(hub, message.tableId).view(null);
    const inHand = new Map((view.hand?.players ?? []).map((player) => [player.seat, player.stack]));
    const seats = view.seats
      .filter((seat) => seat !== null)
      .map((seat) => ({
        seat: seat.seat,
        name: seat.name,
        stack: inHand.get(seat.seat) ?? seat.stack,
        bot: seat.bot,
        status: seat.status,
      }));
    return Promise.resolve({ tableId: message.tableId, seats });
  },

  async [ClientOp.TABLE_CLOSE](_hub, connection, message) {
    connection.tables.get(message.tableId)?.();
    connection.tables.delete(message.tableId);
    return Promise.resolve(empty());
  },

  async [ClientOp.SEAT_TAKE](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    const { account } = sessionOf(connection);
    // Watch first, so the new player sees everything from his first hand on.
    watch(connection, table);
    await command(hub, connection, message.tableId, {
      type: 'sit',
      seat: message.seat,
      buyIn: message.buyIn,
      ...(message.post !== undefined ? { post: message.post } : {}),
      ...(message.autoPost !== undefined ? { autoPost: message.autoPost } : {}),
      ...(message.muckLosing !== undefined ? { muckLosing: message.muckLosing } : {}),
    });
    rememberSeat(hub, account.id, table.id, true);
    // Seated already: a waiting list that cannot be changed now (the database away) must not undo that.
    hub.room.lobby.waitlistLeave(table.id, account.id).catch((error: unknown) => {
      hub.logError('waiting list not left', error, { tableId: table.id });
    });
    hub.room.lobby.seatsChanged(table.id);
    return { seat: message.seat, balances: await hub.room.accounts.balances(account.id) };
  },

  async [ClientOp.REBUY](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'top-up', amount: message.amount });
    return { balances: await hub.room.accounts.balances(sessionOf(connection).account.id) };
  },

  async [ClientOp.SIT_OUT](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'sit-out' });
    return empty();
  },

  async [ClientOp.SIT_IN](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'sit-in' });
    return empty();
  },

  async [ClientOp.SEAT_LEAVE](hub, connection, message) {
    const { account } = sessionOf(connection);
    await command(hub, connection, message.tableId, { type: 'leave' });
    rememberSeat(hub, account.id, message.tableId, false);
    hub.room.lobby.seatsChanged(message.tableId);
    return { balances: await hub.room.accounts.balances(account.id) };
  },

  async [ClientOp.MISSED_BLINDS](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'sit-in', post: message.choice });
    return empty();
  },

  async [ClientOp.AUTO_POST](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'auto-post', on: message.enabled });
    return empty();
  },

  async [ClientOp.POST_BLIND](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'post-blind', post: message.post });
    return empty();
  },

  async [ClientOp.RUN_TWICE](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'run-twice', accept: message.accept });
    return empty();
  },

  async [ClientOp.MUCK_LOSING](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'muck-losing', on: message.enabled });
    return empty();
  },

  async [ClientOp.ACT](hub, connection, message) {
    await command(hub, connection, message.tableId, {
      type: 'act',
      action: message.action,
      ...(message.handId !== undefined ? { handId: message.handId } : {}),
    });
    return empty();
  },

  async [ClientOp.HISTORY_LIST](hub, connection, message) {
    const hands = await hub.room.storage.handsOf(sessionOf(connection).account.id, {
      limit: message.limit ?? 20,
      ...(message.before !== undefined ? { before: message.before } : {}),
    });
    return { hands: hands.map((hand): HandListItem => ({ ...hand })) };
  },

  async [ClientOp.HISTORY_FETCH](hub, connection, message) {
    const hand = await hub.room.storage.handFor(message.handId, sessionOf(connection).account.id);
    if (hand === null) throw new RequestError(ErrorCode.NO_SUCH_HAND, `no hand ${message.handId} of yours`);
    // The hand's secret and contributions join its history once storage says their time has come.
    const { fairReveal, ...played } = hand;
    const phh = revealedHistory(hand.phh, fairReveal);
    return { hand: { ...played, phh, text: historyText(phh) } };
  },

  async [ClientOp.HAND_SUMMARY](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    return { summary: await table.lastSummary(sessionOf(connection).account.id) };
  },

  async [ClientOp.FAIR_CONTRIBUTE](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    const result = await table.handle(playerOf(connection), {
      type: 'fair-contribute',
      commitment: message.commitment,
      bytes: message.bytes,
    });
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    if (result.contribution === undefined) throw new RequestError(ErrorCode.INTERNAL, 'no receipt');
    return { ...result.contribution };
  },

  async [ClientOp.CHAT_SEND](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    const said = await hub.room.chat.say(table, playerOf(connection), message.text, Date.now());
    if (!said.ok) throw new RequestError(said.error.code, said.error.message);
    hub.broadcast(said.value, table.id);
    return {};
  },

  async [ClientOp.NOTES_LIST](hub, connection) {
    const notes = await hub.room.storage.notesOf(sessionOf(connection).account.id);
    return {
      notes: notes.map((note) => ({
        about: { id: note.about, name: note.aboutName },
        colour: note.colour,
        note: note.note,
        updatedAt: note.updatedAt,
      })),
    };
  },

  async [ClientOp.NOTE_SET](hub, connection, message) {
    const owner = sessionOf(connection).account.id;
    const removing = message.note === '' && message.colour === null;
    // notes-list names the player a note is about: only one the writer has met at a table, or any
    // account id would give its name. Unmet and unknown are refused alike, so neither is told apart.
    if (!removing && !(await metAtTable(hub, connection, owner, message.about)))
      throw new RequestError(ErrorCode.UNKNOWN_USER, NO_PLAYER_MET);
    const set = await hub.room.storage.setNote(owner, message.about, {
      colour: message.colour,
      note: message.note,
    });
    if (!set.ok) {
      const code = set.error.code === 'UNKNOWN_USER' ? ErrorCode.UNKNOWN_USER : ErrorCode.BAD_MESSAGE;
      throw new RequestError(code, set.error.code === 'UNKNOWN_USER' ? NO_PLAYER_MET : set.error.message);
    }
    return {};
  },

  async [ClientOp.TOURNAMENT_LIST](hub, connection) {
    const { account } = playerOf(connection);
    return { tournaments: [...(await askDesk(hub, { kind: 'list', account }))] };
  },

  async [ClientOp.TOURNAMENT_GET](hub, connection, message) {
    const { account } = playerOf(connection);
    return { tournament: await askDesk(hub, { kind: 'get', id: message.tournamentId, account }) };
  },

  async [ClientOp.TOURNAMENT_REGISTER](hub, connection, message) {
    const player = playerOf(connection);
    return withBalances(hub, player.account, { kind: 'register', id: message.tournamentId, player });
  },

  async [ClientOp.TOURNAMENT_UNREGISTER](hub, connection, message) {
    const { account } = playerOf(connection);
    return withBalances(hub, account, { kind: 'unregister', id: message.tournamentId, account });
  },

  async [ClientOp.TOURNAMENT_REBUY](hub, connection, message) {
    const { account } = playerOf(connection);
    return withBalances(hub, account, { kind: 'buy', id: message.tournamentId, account, purchase: 'rebuy' });
  },

  async [ClientOp.TOURNAMENT_ADDON](hub, connection, message) {
    const { account } = playerOf(connection);
    return withBalances(hub, account, { kind: 'buy', id: message.tournamentId, account, purchase: 'add-on' });
  },

  async [ClientOp.TOURNAMENT_REENTER](hub, connection, message) {
    const { account } = playerOf(connection);
    const purchase = 're-entry';
    return withBalances(hub, account, { kind: 'buy', id: message.tournamentId, account, purchase });
  },

  async [ClientOp.TOURNAMENT_DEAL_PROPOSE](hub, connection, message) {
    const { account } = playerOf(connection);
    const id = message.tournamentId;
    return { deal: await askDesk(hub, { kind: 'propose', id, account, deal: message.kind }) };
  },

  async [ClientOp.TOURNAMENT_DEAL_ACCEPT](hub, connection, message) {
    const { account } = playerOf(connection);
    await askDesk(hub, { kind: 'accept', id: message.tournamentId, account });
    return {};
  },

  async [ClientOp.TOURNAMENT_DEAL_DECLINE](hub, connection, message) {
    const { account } = playerOf(connection);
    await askDesk(hub, { kind: 'decline', id: message.tournamentId, account });
    return {};
  },

  async [ClientOp.PING]() {
    return Promise.resolve({ time: Date.now() });
  },

  async [ClientOp.STAFF_PLAYER](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const addresses = (userId: number) => [
      ...new Set(hub.connectionsOf(userId).map((open) => open.peer.caller.address)),
    ];
    return { player: answer(await staffPlayer(hub.room.storage, staff, message.name, addresses)) };
  },

  async [ClientOp.STAFF_CASHIER](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    return { balances: answer(await staffCashier(hub.room.storage, staff, message)) };
  },

  /** The player's connections end; at each table the table's own leave: folded at his turn, cashed out after. */
  async [ClientOp.STAFF_SUSPEND](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const user = answer(await staffSuspend(hub.room.storage, staff, message));
    if (!message.suspended) return { tables: [] };
    hub.endSessions(user.id, null, SessionEndReason.SUSPENDED);
    const tables = [...(hub.seatedAt.get(user.id) ?? [])];
    for (const tableId of tables) {
      const table = hub.room.lobby.table(tableId);
      if (!table) continue;
      const left = await table.handle({ account: user.id, name: user.name }, { type: 'leave' });
      if (!left.ok) throw new RequestError(left.error.code, left.error.message);
      rememberSeat(hub, user.id, tableId, false);
      hub.room.lobby.seatsChanged(tableId);
    }
    return { tables };
  },

  async [ClientOp.STAFF_BROADCAST](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const tableId = message.tableId ?? null;
    if (tableId !== null) tableOf(hub, tableId);
    answer(await staffBroadcast(hub.room.storage, staff, message));
    return { reached: hub.broadcast({ op: 'broadcast', tableId, text: message.text }, tableId) };
  },

  async [ClientOp.STAFF_HAND](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    return { hand: answer(await staffHand(hub.room.storage, staff, message.handId)) };
  },

  async [ClientOp.STAFF_HANDS](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const filter = {
      ...(message.name !== undefined ? { name: message.name } : {}),
      ...(message.tableId !== undefined ? { tableId: message.tableId } : {}),
      ...(message.endedFrom !== undefined ? { endedFrom: message.endedFrom } : {}),
      ...(message.endedTo !== undefined ? { endedTo: message.endedTo } : {}),
      ...(message.limit !== undefined ? { limit: message.limit } : {}),
    };
    return { hands: answer(await staffHands(hub.room.storage, staff, filter)) };
  },

  /** His connections are told `session-ended` and signed out; his seats stay, as for any disconnection. */
  async [ClientOp.STAFF_END_SESSIONS](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const { user, ended } = answer(await staffEndSessions(hub.room.storage, staff, message));
    hub.endSessions(user.id, null, SessionEndReason.ENDED_BY_STAFF);
    return { ended };
  },

  async [ClientOp.STAFF_FIGURES](hub, connection) {
    await staffOf(hub, connection);
    return { figures: hub.room.figures.view() };
  },

  async [ClientOp.STAFF_AUDIT](hub, connection) {
    const staff = await staffOf(hub, connection);
    return { audit: answer(await staffAudit(hub.room.storage, staff, hub.room.lobby.allTables())) };
  },

  /** One table, or every table (a drain): each finishes the hand in play and starts no other. */
  async [ClientOp.STAFF_PAUSE](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const tables =
      message.tableId === undefined ? hub.room.lobby.allTables() : [tableOf(hub, message.tableId)];
    answer(await staffPause(hub.room.storage, staff, message));
    for (const table of tables) {
      const paused = await table.control({ type: 'pause', paused: message.paused });
      if (!paused.ok) throw new RequestError(paused.error.code, paused.error.message);
    }
    return { tables: tables.map((table) => table.id) };
  },

  async [ClientOp.STAFF_TABLE_OPEN](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const config: TableConfig = message.table;
    try {
      resolveTable(config);
    } catch (error) {
      throw new RequestError(ErrorCode.BAD_MESSAGE, error instanceof Error ? error.message : String(error));
    }
    if (hub.room.lobby.table(config.id) !== undefined)
      throw new RequestError(ErrorCode.BAD_MESSAGE, `a table ${config.id} is in the room already`);
    answer(
      await staffTable(hub.room.storage, staff, 'table-open', { tableId: config.id, reason: message.reason }),
    );
    hub.room.lobby.open(config);
    hub.logger.info({ tableId: config.id, account: staff.id, reason: message.reason }, 'table opened');
    return { tableId: config.id };
  },

  /** Paused now; once its hand is over, its players cashed out and the table taken out of the room. */
  async [ClientOp.STAFF_TABLE_CLOSE](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const table = tableOf(hub, message.tableId);
    if (houseBotsOf(table.config) > 0)
      throw new RequestError(ErrorCode.WRONG_STATE, 'a practice table is turned off in the table file');
    answer(await staffTable(hub.room.storage, staff, 'table-close', message));
    const paused = await table.control({ type: 'pause', paused: true });
    if (!paused.ok) throw new RequestError(paused.error.code, paused.error.message);
    hub.logger.info(
      { tableId: table.id, account: staff.id, reason: message.reason },
      'table closing after its hand',
    );
    closeAfterHand(table, {
      leave: async (seat) => {
        const left = await table.handle(seat, { type: 'leave' });
        if (!left.ok) return;
        rememberSeat(hub, seat.account, table.id, false);
        hub.sendToAccount(seat.account, {
          op: 'balances',
          balances: await hub.room.storage.balances(seat.account),
        });
      },
      remove: () => hub.room.lobby.remove(table.id),
    }).catch((error: unknown) => {
      hub.logError('closing the table failed', error, { tableId: table.id });
    });
    return { tableId: table.id };
  },

  async [ClientOp.STAFF_TRANSACTION](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    return {
      transaction: answer(await staffTransaction(hub.room.storage, staff, message.transactionId)),
    };
  },

  async [ClientOp.STAFF_TRANSACTIONS](hub, connection, message) {
    const staff = await staffOf(hub, connection);
    const request = {
      ...(message.name !== undefined ? { name: message.name } : {}),
      ...(message.handId !== undefined ? { handId: message.handId } : {}),
      ...(message.limit !== undefined ? { limit: message.limit } : {}),
    };
    return { transactions: answer(await staffTransactions(hub.room.storage, staff, request)) };
  },

  async [ClientOp.STAFF_INTEGRITY](hub, connection) {
    const staff = await staffOf(hub, connection);
    return { report: answer(await staffIntegrity(hub.room.storage, staff)) };
  },
};
