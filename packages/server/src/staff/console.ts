/**
 * What the staff do over the protocol (the console's requests, `staff-*`): look up a player, move real
 * money with a reason, list finished hands by table and time and look one up with every card, suspend,
 * end sessions, pause tables, run the ledger's audit and the game-security reports. Each is refused to an account that is not staff — its role read
 * from storage at each request, so a revoke takes effect at once — and each is written to the staff
 * audit log with the staff member's id before its answer is given. (The live figures, which name no
 * player, are the one staff request not logged: the console asks for them every few seconds.)
 */
import {
  ErrorCode,
  type Balances,
  type HandHistoryPayload,
  type IntegrityView,
  type LedgerAccountView,
  type LedgerTransactionView,
  type SettledHandView,
  type StaffAuditView,
  type StaffPlayerView,
} from '@felt/protocol';
import { roomIntegrity } from '../integrity/index.js';
import { handOfMemo, type LedgerTransactionRecord } from '../storage/ledger.js';
import type { Storage, UserId, UserRecord } from '../storage/types.js';
import { historyText } from '../table/history.js';
import type { Table } from '../table/types.js';
import { ClusterTable } from '../cluster/cluster-table.js';
import { checkStacks } from '../ledger/live-stacks.js';

/** How many of his last hands a player lookup lists. */
export const STAFF_PLAYER_HANDS = 20;

export type StaffResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string } };

const refuse = (code: ErrorCode, message: string): StaffResult<never> => ({
  ok: false,
  error: { code, message },
});

/** The account, if it is staff. */
export async function requireStaff(storage: Storage, accountId: UserId): Promise<StaffResult<UserRecord>> {
  const user = await storage.userById(accountId);
  if (user?.role == null) return refuse(ErrorCode.NOT_STAFF, 'this request is for the room’s staff');
  return { ok: true, value: user };
}

async function logged<T>(
  storage: Storage,
  staff: UserRecord,
  action: string,
  detail: Readonly<Record<string, unknown>>,
  value: T,
): Promise<StaffResult<T>> {
  const entry = await storage.appendStaffAction({
    staffId: staff.id,
    action,
    detail: JSON.stringify(detail),
  });
  return entry.ok ? { ok: true, value } : refuse(ErrorCode.INTERNAL, 'the staff log refused the entry');
}

/** `addresses`: the addresses of the account's open connections (the caller holds them). */
export async function staffPlayer(
  storage: Storage,
  staff: UserRecord,
  name: string,
  addresses: (userId: UserId) => readonly string[] = () => [],
): Promise<StaffResult<StaffPlayerView>> {
  const user = await storage.userByName(name);
  if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${name}`);
  const seats = (await storage.seats())
    .filter((seat) => seat.userId === user.id)
    .map(({ tableId, currency, amount }) => ({ tableId, currency, amount }));
  const sessions = (await storage.sessionsOf(user.id)).map(({ createdAt, expiresAt }) => ({
    createdAt,
    expiresAt,
  }));
  const view: StaffPlayerView = {
    id: user.id,
    name: user.name,
    role: user.role,
    suspendedAt: user.suspendedAt,
    balances: await storage.balances(user.id),
    seats,
    sessions,
    addresses: addresses(user.id),
    hands: (await storage.handsOf(user.id, { limit: STAFF_PLAYER_HANDS })).map((hand) => ({ ...hand })),
  };
  return logged(storage, staff, 'player-lookup', { userId: user.id }, view);
}

export async function staffCashier(
  storage: Storage,
  staff: UserRecord,
  request: {
    readonly name: string;
    readonly direction: 'credit' | 'debit';
    readonly amount: number;
    readonly reason: string;
  },
): Promise<StaffResult<Balances>> {
  const user = await storage.userByName(request.name);
  if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${request.name}`);
  const moved = await storage.cashier(user.id, request.direction, request.amount);
  if (!moved.ok) {
    const code =
      moved.error.code === 'INSUFFICIENT_FUNDS' || moved.error.code === 'STAFF_ACCOUNT'
        ? moved.error.code
        : ErrorCode.BAD_AMOUNT;
    return refuse(
      code,
      code === 'INSUFFICIENT_FUNDS' ? 'the balance is lower than that' : moved.error.message,
    );
  }
  const { direction, amount, reason } = request;
  return logged(storage, staff, `cashier-${direction}`, { userId: user.id, amount, reason }, moved.value);
}

/** A settled hand only: a hand still being played has no history yet, and its hole cards stay hidden. */
export async function staffHand(
  storage: Storage,
  staff: UserRecord,
  handId: number,
): Promise<StaffResult<HandHistoryPayload>> {
  const hand = await storage.handFull(handId);
  if (hand === null) return refuse(ErrorCode.NO_SUCH_HAND, `no finished hand ${handId}`);
  return logged(storage, staff, 'hand-lookup', { handId }, { ...hand, text: historyText(hand.phh) });
}

/** Finished hands by player, table and time; the lookup is logged with its filter. */
export async function staffHands(
  storage: Storage,
  staff: UserRecord,
  filter: {
    readonly name?: string;
    readonly tableId?: string;
    readonly endedFrom?: number;
    readonly endedTo?: number;
    readonly limit?: number;
  },
): Promise<StaffResult<SettledHandView[]>> {
  const { name, ...where } = filter;
  let hands: SettledHandView[];
  if (name === undefined) hands = await storage.handsWhere(where);
  else {
    const user = await storage.userByName(name);
    if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${name}`);
    hands = await playersHandsWhere(storage, user.id, where);
  }
  return logged(storage, staff, 'hands-lookup', { ...filter, found: hands.length }, hands);
}

/** Pages of a player's hands read, newest first, while looking for those that match. */
const PAGE = 500;

/**
 * A player's settled hands, newest first, that match the table and span, at most `limit` (default 50):
 * his hands read page by page (a narrow filter over an old span reads far, as `handsWhere` does).
 */
async function playersHandsWhere(
  storage: Storage,
  userId: UserId,
  where: {
    readonly tableId?: string;
    readonly endedFrom?: number;
    readonly endedTo?: number;
    readonly limit?: number;
  },
): Promise<SettledHandView[]> {
  const limit = where.limit ?? 50;
  const found: SettledHandView[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await storage.handsOf(userId, { limit: PAGE, ...(before !== undefined ? { before } : {}) });
    for (const played of page) {
      const hand: SettledHandView = {
        handId: played.handId,
        tableId: played.tableId,
        currency: played.currency,
        description: played.description,
        startedAt: played.startedAt,
        endedAt: played.endedAt,
      };
      const matches =
        (where.tableId === undefined || hand.tableId === where.tableId) &&
        (where.endedFrom === undefined || hand.endedAt >= where.endedFrom) &&
        (where.endedTo === undefined || hand.endedAt <= where.endedTo);
      if (matches) found.push(hand);
      if (found.length === limit) return found;
    }
    if (page.length < PAGE) return found;
    before = page[page.length - 1]!.handId;
  }
}

/**
 * Suspends a player or lifts it; storage ends his sessions. What happens at his tables (folded at his
 * turn, cashed out when the hand is over) is the caller's, which holds the tables.
 */
export async function staffSuspend(
  storage: Storage,
  staff: UserRecord,
  request: { readonly name: string; readonly suspended: boolean; readonly reason: string },
): Promise<StaffResult<UserRecord>> {
  const user = await storage.userByName(request.name);
  if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${request.name}`);
  if (user.id === staff.id) return refuse(ErrorCode.BAD_MESSAGE, 'staff do not suspend themselves');
  const set = await storage.setSuspended(user.id, request.suspended);
  if (!set.ok) return refuse(ErrorCode.UNKNOWN_USER, set.error.message);
  const action = request.suspended ? 'suspend' : 'unsuspend';
  return logged(storage, staff, action, { userId: user.id, reason: request.reason }, user);
}

/** Logs a broadcast; sending it is the caller's, which holds the connections. */
export function staffBroadcast(
  storage: Storage,
  staff: UserRecord,
  request: { readonly tableId?: string; readonly text: string },
): Promise<StaffResult<null>> {
  const detail = { tableId: request.tableId ?? null, text: request.text };
  return logged(storage, staff, 'broadcast', detail, null);
}

/** Logs a pause or a resume (of one table, or of every table: null); pausing is the caller's, which holds the tables. */
export function staffPause(
  storage: Storage,
  staff: UserRecord,
  request: { readonly tableId?: string; readonly paused: boolean; readonly reason: string },
): Promise<StaffResult<null>> {
  const detail = { tableId: request.tableId ?? null, reason: request.reason };
  return logged(storage, staff, request.paused ? 'pause' : 'resume', detail, null);
}

/** Logs a table the staff open or close (after its hand); doing it is the caller's, which holds the lobby. */
export function staffTable(
  storage: Storage,
  staff: UserRecord,
  action: 'table-open' | 'table-close',
  request: { readonly tableId: string; readonly reason: string },
): Promise<StaffResult<null>> {
  return logged(storage, staff, action, { tableId: request.tableId, reason: request.reason }, null);
}

/** Ends every session of a player (he may sign in again); closing his connections is the caller's. */
export async function staffEndSessions(
  storage: Storage,
  staff: UserRecord,
  request: { readonly name: string; readonly reason: string },
): Promise<StaffResult<{ readonly user: UserRecord; readonly ended: number }>> {
  const user = await storage.userByName(request.name);
  if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${request.name}`);
  const ended = (await storage.sessionsOf(user.id)).length;
  await storage.deleteSessionsOf(user.id);
  const detail = { userId: user.id, ended, reason: request.reason };
  return logged(storage, staff, 'end-sessions', detail, { user, ended });
}

/** How many transactions a lookup of a player's or a hand's lists at most, unless asked for fewer. */
export const STAFF_TRANSACTIONS = 50;

/** As the staff see it: the players' names beside their ids, the hand it is of, the postings' sum. */
async function transactionView(
  storage: Storage,
  record: LedgerTransactionRecord,
): Promise<LedgerTransactionView> {
  const names = new Map<UserId, string>();
  for (const { account } of record.postings) {
    if ('userId' in account && !names.has(account.userId)) {
      names.set(account.userId, (await storage.userById(account.userId))?.name ?? `#${account.userId}`);
    }
  }
  const postings = record.postings.map(({ account, amount }) => {
    const view: LedgerAccountView = {
      kind: account.kind,
      ...('userId' in account ? { userId: account.userId, userName: names.get(account.userId)! } : {}),
      ...('tableId' in account ? { tableId: account.tableId } : {}),
      ...('handId' in account ? { handId: account.handId } : {}),
      ...('tournamentId' in account ? { tournamentId: account.tournamentId } : {}),
    };
    return { account: view, amount };
  });
  return {
    id: record.id,
    kind: record.kind,
    currency: record.currency,
    memo: record.memo,
    handId: handOfMemo(record.memo),
    createdAt: record.createdAt,
    postings,
    sum: record.postings.reduce((total, posting) => total + posting.amount, 0),
  };
}

/** One ledger transaction with every posting; the lookup is logged. */
export async function staffTransaction(
  storage: Storage,
  staff: UserRecord,
  transactionId: number,
): Promise<StaffResult<LedgerTransactionView>> {
  const record = await storage.ledgerTransaction(transactionId);
  if (record === null) return refuse(ErrorCode.NO_SUCH_TRANSACTION, `no ledger transaction ${transactionId}`);
  const view = await transactionView(storage, record);
  return logged(storage, staff, 'transaction-lookup', { transactionId }, view);
}

/** The newest transactions of a player or of a hand; the lookup is logged with its filter. */
export async function staffTransactions(
  storage: Storage,
  staff: UserRecord,
  request: { readonly name?: string; readonly handId?: number; readonly limit?: number },
): Promise<StaffResult<LedgerTransactionView[]>> {
  const limit = request.limit ?? STAFF_TRANSACTIONS;
  let about: { readonly userId: UserId } | { readonly handId: number };
  if (request.name !== undefined && request.handId === undefined) {
    const user = await storage.userByName(request.name);
    if (user === null) return refuse(ErrorCode.UNKNOWN_USER, `no player ${request.name}`);
    about = { userId: user.id };
  } else if (request.handId !== undefined && request.name === undefined) {
    about = { handId: request.handId };
  } else {
    return refuse(ErrorCode.BAD_MESSAGE, 'the transactions of a player (name) or of a hand (handId)');
  }
  const records = await storage.ledgerTransactionsOf(about, limit);
  const views: LedgerTransactionView[] = [];
  for (const record of records) views.push(await transactionView(storage, record));
  return logged(storage, staff, 'transactions-lookup', { ...about, found: views.length }, views);
}

/**
 * The ledger's audit and the staff log's chain, as `felt admin audit` prints them, and the seats of the
 * live `tables` (this process's and, on a cluster, every other's, asked of their owners) against their
 * ledger accounts.
 */
export async function staffAudit(
  storage: Storage,
  staff: UserRecord,
  tables: readonly Table[] = [],
): Promise<StaffResult<StaffAuditView>> {
  const report = await storage.audit();
  const live = await Promise.all(
    tables.map((table) => (table instanceof ClusterTable ? table.checkStacks() : checkStacks(table))),
  );
  const problems = [...report.problems, ...live.flatMap((found) => found ?? [])];
  const { currencies, transactions, handsInProgress } = report;
  const conserved = problems.length === 0;
  const staffLog = await storage.checkStaffLog();
  const view = { conserved, currencies, transactions, handsInProgress, problems, staffLog };
  return logged(storage, staff, 'audit', { conserved, intact: staffLog.intact }, view);
}

/** The game-security reports, as `felt admin integrity` prints them. */
export async function staffIntegrity(
  storage: Storage,
  staff: UserRecord,
): Promise<StaffResult<IntegrityView>> {
  const { alpha, hands, unreadable, players, seating, chipDumping, softPlay, winRate } =
    await roomIntegrity(storage);
  const report = { alpha, hands, unreadable, players, seating, chipDumping, softPlay, winRate };
  return logged(storage, staff, 'integrity', { hands }, report);
}
