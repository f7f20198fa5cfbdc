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
import type { Lobby } from '../lobby/lobby.js';
import type { Storage } from '../storage/types.js';
import type { PlayerRef, Table, TableCommand, TableMessage } from '../table/types.js';
import { historyText } from '../table/history.js';
import type { Connection } from './connection.js';
import { textFrame } from './frame.js';
import type { Hub } from './hub.js';
import { toPlayerAction, toServerMessage } from './wire.js';

/** What the handlers work with. */
export interface Room {
  readonly storage: Storage;
  readonly accounts: Accounts;
  readonly lobby: Lobby;
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

function playerOf(connection: Connection): PlayerRef {
  const { account } = sessionOf(connection);
  return { account: account.id, name: account.name };
}

function tableOf(hub: Hub, tableId: string): Table {
  const table = hub.room.lobby.table(tableId);
  if (!table) throw new RequestError(ErrorCode.NO_SUCH_TABLE, `no table ${tableId}`);
  return table;
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
    const result = await hub.room.accounts.signUp(message.name, message.password);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    hub.attach(connection, { account: result.value.account, tokenHash: result.value.tokenHash });
    return { token: result.value.token, account: result.value.account, balances: result.value.balances };
  },

  async [ClientOp.LOGIN](hub, connection, message) {
    refuseIfLoggedIn(connection);
    const result = await hub.room.accounts.login(message.name, message.password);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    hub.attach(connection, { account: result.value.account, tokenHash: result.value.tokenHash });
    return { token: result.value.token, account: result.value.account, balances: result.value.balances };
  },

  /** Reconnect: the same account, back at every table where he still has a seat, with the full current view. */
  async [ClientOp.RESUME](hub, connection, message) {
    refuseIfLoggedIn(connection);
    const result = await hub.room.accounts.resume(message.token);
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    const { account, tokenHash, balances } = result.value;
    hub.attach(connection, { account, tokenHash });
    const tables: string[] = [];
    for (const tableId of hub.seatedAt.get(account.id) ?? []) {
      const table = hub.room.lobby.table(tableId);
      if (!table) continue;
      if (table.view(account.id).you === null) {
        rememberSeat(hub, account.id, tableId, false);
        continue;
      }
      tables.push(tableId);
    }
    // Subscribing sends each table's full view; after the ack, so the client knows the session first.
    queueMicrotask(() => {
      if (connection.session?.tokenHash !== tokenHash) return;
      for (const tableId of tables) {
        const table = hub.room.lobby.table(tableId);
        if (table) watch(connection, table);
      }
    });
    return { account, balances, tables };
  },

  async [ClientOp.LOGOUT](hub, connection) {
    const session = sessionOf(connection);
    await hub.room.accounts.logout(session.tokenHash);
    // Every connection on this token is logged out; the account's seats stay (he is disconnected).
    for (const other of hub.connectionsOf(session.account.id)) {
      if (other !== connection && other.session?.tokenHash === session.tokenHash) {
        hub.detach(other);
        other.send({ op: 'session-ended', reason: SessionEndReason.LOGOUT });
      }
    }
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
    const position = hub.room.lobby.waitlistJoin(message.tableId, sessionOf(connection).account.id);
    return Promise.resolve({ position });
  },

  async [ClientOp.WAITLIST_LEAVE](hub, connection, message) {
    tableOf(hub, message.tableId);
    hub.room.lobby.waitlistLeave(message.tableId, sessionOf(connection).account.id);
    return Promise.resolve(empty());
  },

  async [ClientOp.TABLE_OPEN](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    const { account } = sessionOf(connection);
    const seat = table.view(account.id).you;
    watch(connection, table);
    return Promise.resolve({ seat });
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
    hub.room.lobby.waitlistLeave(table.id, account.id);
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

  async [ClientOp.MUCK_LOSING](hub, connection, message) {
    await command(hub, connection, message.tableId, { type: 'muck-losing', on: message.enabled });
    return empty();
  },

  async [ClientOp.ACT](hub, connection, message) {
    const action = toPlayerAction(message.action);
    if (action === null) {
      throw new RequestError(
        ErrorCode.ILLEGAL_ACTION,
        'the table shows hands down in showdown order; the muck-losing option chooses show or muck',
      );
    }
    await command(hub, connection, message.tableId, {
      type: 'act',
      action,
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
    return { hand: { ...hand, text: historyText(hand.phh, hand.currency) } };
  },

  async [ClientOp.HAND_SUMMARY](hub, connection, message) {
    const table = tableOf(hub, message.tableId);
    return Promise.resolve({ summary: table.lastSummary(sessionOf(connection).account.id) });
  },

  async [ClientOp.PING]() {
    return Promise.resolve({ time: Date.now() });
  },
};
