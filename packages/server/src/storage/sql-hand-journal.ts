/**
 * The hand journal (./hand-journal.ts) over the portable query layer: the `hands`, `hand_players` and
 * `hand_actions` tables, posting to the ledger (./sql-ledger.ts) when a hand is settled or recovered.
 */
import { accountKey, isPositiveAmount } from '../ledger/accounts.js';
import { StorageErrorCode, type Currency, type HandId, type UserId } from './common.js';
import type {
  ChipMove,
  FairLink,
  HandActionRecord,
  HandJournal,
  HandStatus,
  NewHandFair,
  Settlement,
} from './hand-journal.js';
import {
  handCancelledMemo,
  handMemo,
  type LedgerAccount,
  type Posting,
  type TransactionKind,
} from './ledger.js';
import { atomically, currencyOf, refuse, requireUser, type SqlContext } from './sql-common.js';
import { balanceIn, emptySeat, seatsWithChips, transfer, type SeatAccount } from './sql-ledger.js';
import { intCol, lockingRead, textCol, textColOrNull, type SqlExecutor, type SqlRow } from './sql.js';

interface HandRow {
  readonly id: HandId;
  readonly tableId: string;
  readonly currency: Currency;
  readonly status: HandStatus;
}

const HAND_STATUSES: readonly HandStatus[] = ['in-progress', 'settled', 'cancelled'];

function statusOf(row: SqlRow): HandStatus {
  const status = textCol(row, 'status');
  const found = HAND_STATUSES.find((s) => s === status);
  if (found === undefined) throw new TypeError(`unknown hand status ${status}`);
  return found;
}

const seatOf = (hand: HandRow, userId: UserId): SeatAccount => ({
  kind: 'seat',
  currency: hand.currency,
  tableId: hand.tableId,
  userId,
});

const HAND = lockingRead('SELECT id, table_id, currency, status FROM hands WHERE id = ?');

/**
 * The hand, held until the commit: whatever a transaction does to a hand (record, settle, cancel, read
 * its contributions) it does on the status it read, and the hand's rows are then changed in one order:
 * the hand, its players, the seats' accounts.
 */
async function handRow(tx: SqlExecutor, handId: HandId): Promise<HandRow> {
  const row = await tx.get(HAND[tx.dialect], [handId]);
  if (row === undefined) return refuse(StorageErrorCode.UNKNOWN_HAND, `no hand ${handId}`);
  return {
    id: intCol(row, 'id'),
    tableId: textCol(row, 'table_id'),
    currency: currencyOf(row),
    status: statusOf(row),
  };
}

async function handInProgress(tx: SqlExecutor, handId: HandId): Promise<HandRow> {
  const hand = await handRow(tx, handId);
  if (hand.status !== 'in-progress') {
    refuse(StorageErrorCode.HAND_NOT_IN_PROGRESS, `hand ${handId} is ${hand.status}`);
  }
  return hand;
}

/**
 * A contribution is never below 0, nor more than the player's seat holds (a table deals one hand at a
 * time).
 */
async function requireCovered(
  tx: SqlExecutor,
  hand: HandRow,
  userId: UserId,
  contributed: number,
): Promise<void> {
  if (contributed < 0) {
    refuse(
      StorageErrorCode.INSUFFICIENT_FUNDS,
      `user ${userId} would take back more than he put into hand ${hand.id}`,
    );
  }
  if (contributed === 0) return;
  const seat = await balanceIn(tx, seatOf(hand, userId), true);
  if (contributed > seat) {
    refuse(
      StorageErrorCode.INSUFFICIENT_FUNDS,
      `user ${userId} would put ${contributed} into hand ${hand.id} from a seat holding ${seat}`,
    );
  }
}

/**
 * Adds one action's moves to the players' contributions to the hand. The chips stay in the seats' ledger
 * accounts until the hand is settled (one transaction) or cancelled (nothing to move).
 */
async function contribute(tx: SqlExecutor, hand: HandRow, moves: readonly ChipMove[]): Promise<void> {
  for (const { userId, amount } of moves) {
    if (!Number.isSafeInteger(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad chip move ${amount}`);
    if (amount === 0) continue;
    const row = await tx.get(
      'UPDATE hand_players SET contributed = contributed + ? WHERE hand_id = ? AND user_id = ? RETURNING contributed',
      [amount, hand.id, userId],
    );
    if (row === undefined)
      refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} does not play hand ${hand.id}`);
    await requireCovered(tx, hand, userId, intCol(row!, 'contributed'));
  }
}

async function recordIn(
  tx: SqlExecutor,
  clock: () => number,
  hand: HandRow,
  record: HandActionRecord,
): Promise<void> {
  if (!Number.isSafeInteger(record.seq) || record.seq < 0) {
    refuse(
      StorageErrorCode.BAD_REQUEST,
      `an action's sequence number is a whole number ≥ 0, got ${record.seq}`,
    );
  }
  const inserted = await tx.run(
    'INSERT INTO hand_actions (hand_id, seq, action, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hand_id, seq) DO NOTHING',
    [hand.id, record.seq, record.action, clock()],
  );
  if (inserted === 0) {
    refuse(StorageErrorCode.DUPLICATE_ACTION, `hand ${hand.id} already has an action number ${record.seq}`);
  }
  if (record.moves !== undefined) await contribute(tx, hand, record.moves);
}

async function settleIn(
  tx: SqlExecutor,
  clock: () => number,
  hand: HandRow,
  settlement: Settlement,
): Promise<void> {
  const { rake, awards, history } = settlement;
  if (!Number.isSafeInteger(rake) || rake < 0) refuse(StorageErrorCode.BAD_AMOUNT, `bad rake ${rake}`);
  if (rake > 0 && hand.currency === 'play') {
    refuse(StorageErrorCode.RAKE_ON_PLAY_MONEY, 'play money is not raked');
  }
  const won = new Map<UserId, number>();
  for (const { userId, amount } of awards) {
    if (!isPositiveAmount(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad award ${amount}`);
    won.set(userId, (won.get(userId) ?? 0) + amount);
  }
  const contributions = await tx.all('SELECT user_id, contributed FROM hand_players WHERE hand_id = ?', [
    hand.id,
  ]);
  const inPot = contributions.reduce((sum, row) => sum + intCol(row, 'contributed'), 0);
  const paid = [...won.values()].reduce((a, b) => a + b, rake);
  if (paid !== inPot) {
    refuse(
      StorageErrorCode.POT_MISMATCH,
      `hand ${hand.id}: the pot holds ${inPot}, the settlement pays ${paid}`,
    );
  }
  for (const [userId, amount] of won) {
    const changed = await tx.run('UPDATE hand_players SET won = won + ? WHERE hand_id = ? AND user_id = ?', [
      amount,
      hand.id,
      userId,
    ]);
    if (changed === 0) refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} did not play hand ${hand.id}`);
  }
  // The whole hand is one transaction: each seat gains what it won less what it put in, the house the rake.
  const postings: Posting[] = [];
  for (const row of contributions) {
    const userId = intCol(row, 'user_id');
    const net = (won.get(userId) ?? 0) - intCol(row, 'contributed');
    if (net !== 0) postings.push({ account: seatOf(hand, userId), amount: net });
  }
  if (postings.length > 0) await transfer(tx, clock, 'hand', postings, handMemo(hand.id), rake);
  for (const view of history.views) {
    const changed = await tx.run('UPDATE hand_players SET phh = ? WHERE hand_id = ? AND user_id = ?', [
      view.phh,
      hand.id,
      view.userId,
    ]);
    if (changed === 0)
      refuse(StorageErrorCode.NOT_IN_HAND, `user ${view.userId} did not play hand ${hand.id}`);
  }
  const now = clock();
  const revealAfter = settlement.fairRevealAfterMs;
  if (revealAfter !== undefined && (!Number.isSafeInteger(revealAfter) || revealAfter < 0))
    refuse(StorageErrorCode.BAD_REQUEST, `bad reveal delay ${revealAfter}`);
  await tx.run(
    "UPDATE hands SET status = 'settled', ended_at = ?, rake = ?, phh = ?, fair_reveal_at = ? WHERE id = ?",
    [now, rake, history.phh, revealAfter === undefined ? null : now + revealAfter, hand.id],
  );
  await tx.run('DELETE FROM hand_actions WHERE hand_id = ?', [hand.id]);
}

/**
 * Marks a hand cancelled: its contributions never left the seats, so every chip is back with the player
 * who put it in; returns how many. A hand begun by an earlier Felt moved its chips into its pot as they
 * were bet: those are returned to the seats.
 */
async function cancelIn(
  tx: SqlExecutor,
  clock: () => number,
  hand: HandRow,
  kind: TransactionKind,
): Promise<number> {
  const rows = await tx.all(
    'SELECT user_id, contributed FROM hand_players WHERE hand_id = ? AND contributed > 0',
    [hand.id],
  );
  const total = rows.reduce((sum, row) => sum + intCol(row, 'contributed'), 0);
  const pot: LedgerAccount = { kind: 'pot', currency: hand.currency, handId: hand.id };
  if ((await balanceIn(tx, pot)) > 0) {
    const postings: Posting[] = rows.map((row) => ({
      account: seatOf(hand, intCol(row, 'user_id')),
      amount: intCol(row, 'contributed'),
    }));
    postings.push({ account: pot, amount: -total });
    await transfer(tx, clock, kind, postings, handCancelledMemo(hand.id));
  }
  await tx.run("UPDATE hands SET status = 'cancelled', ended_at = ? WHERE id = ?", [clock(), hand.id]);
  await tx.run('DELETE FROM hand_actions WHERE hand_id = ?', [hand.id]);
  return total;
}

const HEX_32 = /^[0-9a-f]{64}$/;

function checkLink(link: FairLink): void {
  if (!Number.isSafeInteger(link.hand) || link.hand < 1)
    refuse(StorageErrorCode.BAD_REQUEST, `bad chain hand number ${link.hand}`);
  if (!HEX_32.test(link.previous) || !HEX_32.test(link.secret))
    refuse(StorageErrorCode.BAD_REQUEST, 'a chain link holds 64-hex-digit values');
}

function checkFair(fair: NewHandFair): void {
  if (!HEX_32.test(fair.secret) || !fair.contributions.every((c) => HEX_32.test(c)))
    refuse(StorageErrorCode.BAD_REQUEST, 'a fair hand holds 64-hex-digit values');
  checkLink(fair.next);
}

async function upsertLink(tx: SqlExecutor, tableId: string, link: FairLink): Promise<void> {
  checkLink(link);
  await tx.run(
    `INSERT INTO fair_chains (table_id, hand, previous, secret) VALUES (?, ?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET hand = excluded.hand, previous = excluded.previous, secret = excluded.secret`,
    [tableId, link.hand, link.previous, link.secret],
  );
}

export function sqlHandJournal({ driver, clock }: SqlContext): HandJournal {
  return {
    startHand(hand) {
      const currency = hand.currency;
      return atomically(driver, async (tx) => {
        if (currency === 'chips')
          return refuse(StorageErrorCode.BAD_REQUEST, 'tournament chips never enter the ledger');
        if (hand.participants.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a hand needs participants');
        if (hand.tableId.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a hand needs a table');
        const users = new Set(hand.participants.map((p) => p.userId));
        if (users.size !== hand.participants.length) {
          refuse(StorageErrorCode.BAD_REQUEST, 'a player may take part in a hand only once');
        }
        for (const userId of users) await requireUser(tx, userId);
        const posted = new Map<UserId, number>();
        for (const { userId, amount } of hand.posts ?? []) {
          if (!Number.isSafeInteger(amount)) refuse(StorageErrorCode.BAD_AMOUNT, `bad post ${amount}`);
          if (!users.has(userId))
            refuse(StorageErrorCode.NOT_IN_HAND, `user ${userId} posts but does not play`);
          posted.set(userId, (posted.get(userId) ?? 0) + amount);
        }
        const fair = hand.fair;
        if (fair !== undefined) checkFair(fair);
        const row = await tx.get(
          "INSERT INTO hands (table_id, currency, description, status, started_at, fair_secret, fair_contributions, start_state) VALUES (?, ?, ?, 'in-progress', ?, ?, ?, ?) RETURNING id",
          [
            hand.tableId,
            currency,
            hand.description,
            clock(),
            fair?.secret ?? null,
            fair === undefined ? null : JSON.stringify(fair.contributions),
            hand.start ?? null,
          ],
        );
        if (fair !== undefined) await upsertLink(tx, hand.tableId, fair.next);
        const started: HandRow = {
          id: intCol(row!, 'id'),
          tableId: hand.tableId,
          currency,
          status: 'in-progress',
        };
        for (const p of hand.participants) {
          const contributed = posted.get(p.userId) ?? 0;
          await tx.run(
            'INSERT INTO hand_players (hand_id, user_id, seat, position, contributed) VALUES (?, ?, ?, ?, ?)',
            [started.id, p.userId, p.seat, p.position, contributed],
          );
          await requireCovered(tx, started, p.userId, contributed);
        }
        return started.id;
      });
    },

    async fairLink(tableId) {
      const row = await driver.get('SELECT hand, previous, secret FROM fair_chains WHERE table_id = ?', [
        tableId,
      ]);
      if (row === undefined) return null;
      return {
        hand: intCol(row, 'hand'),
        previous: textCol(row, 'previous'),
        secret: textCol(row, 'secret'),
      };
    },

    saveFairLink(tableId, link) {
      return atomically(driver, async (tx) => {
        if (tableId.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a chain needs a table');
        await upsertLink(tx, tableId, link);
      });
    },

    recordAction(record) {
      return atomically(driver, async (tx) => {
        const hand = await handInProgress(tx, record.handId);
        await recordIn(tx, clock, hand, record);
        if (record.settlement !== undefined) await settleIn(tx, clock, hand, record.settlement);
      });
    },

    settleHand(settlement) {
      return atomically(driver, async (tx) => {
        await settleIn(tx, clock, await handInProgress(tx, settlement.handId), settlement);
      });
    },

    cancelHand(handId) {
      return atomically(driver, async (tx) => {
        await cancelIn(tx, clock, await handInProgress(tx, handId), 'crash-refund');
      });
    },

    contributions(handId) {
      return atomically(driver, async (tx) => {
        await handRow(tx, handId);
        const rows = await tx.all(
          'SELECT user_id, contributed FROM hand_players WHERE hand_id = ? ORDER BY position',
          [handId],
        );
        return rows.map((row) => ({ userId: intCol(row, 'user_id'), amount: intCol(row, 'contributed') }));
      });
    },

    async handStatus(handId) {
      const row = await driver.get('SELECT status FROM hands WHERE id = ?', [handId]);
      return row === undefined ? null : statusOf(row);
    },

    async handInPlay(tableId) {
      return driver.transaction(
        async (tx) => {
          const hand = await tx.get(
            "SELECT id, start_state FROM hands WHERE table_id = ? AND status = 'in-progress' ORDER BY id DESC LIMIT 1",
            [tableId],
          );
          if (hand === undefined) return null;
          const handId = intCol(hand, 'id');
          const actions = await tx.all('SELECT action FROM hand_actions WHERE hand_id = ? ORDER BY seq', [
            handId,
          ]);
          return {
            handId,
            start: textColOrNull(hand, 'start_state'),
            actions: actions.map((row) => textCol(row, 'action')),
          };
        },
        { readOnly: true },
      );
    },

    async tablesInPlay() {
      const rows = await driver.all(
        `SELECT table_id FROM hands WHERE status = 'in-progress'
          UNION SELECT table_id FROM ledger_accounts WHERE kind = 'seat' AND balance <> 0
          ORDER BY table_id`,
      );
      return rows.map((row) => textCol(row, 'table_id'));
    },

    async recoverTables(tableIds) {
      const tables = new Set(tableIds);
      let handsCancelled = 0;
      let refunded = 0;
      let seatsCashedOut = 0;
      let cashedOut = 0;
      const hands = await driver.all(
        "SELECT id, table_id FROM hands WHERE status = 'in-progress' ORDER BY id",
      );
      for (const row of hands) {
        if (!tables.has(textCol(row, 'table_id'))) continue;
        const id = intCol(row, 'id');
        const result = await atomically(driver, async (tx) => {
          const hand = await handRow(tx, id);
          return hand.status === 'in-progress' ? cancelIn(tx, clock, hand, 'crash-refund') : 0;
        });
        if (!result.ok) throw new Error(`recovery of hand ${id} failed: ${result.error.message}`);
        handsCancelled++;
        refunded += result.value;
      }
      for (const seat of await seatsWithChips(driver)) {
        if (!tables.has(seat.tableId)) continue;
        const account: SeatAccount = {
          kind: 'seat',
          currency: seat.currency,
          tableId: seat.tableId,
          userId: seat.userId,
        };
        const result = await atomically(driver, (tx) => emptySeat(tx, clock, 'crash-cash-out', account));
        if (!result.ok)
          throw new Error(`recovery of seat ${accountKey(account)} failed: ${result.error.message}`);
        if (result.value > 0) {
          seatsCashedOut++;
          cashedOut += result.value;
        }
      }
      return { handsCancelled, refunded, seatsCashedOut, cashedOut };
    },
  };
}
