/** The hand histories (./hand-histories.ts) over the portable query layer: settled rows of `hands` and `hand_players`. */
import type {
  FairReveal,
  HandHistories,
  PlayedHand,
  SettledHandItem,
  StoredHandPlayer,
} from './hand-histories.js';
import { currencyOf, type SqlContext } from './sql-common.js';
import { intCol, intColOr, textCol, textColOrNull, type SqlRow } from './sql.js';

function playedHandOf(row: SqlRow): PlayedHand {
  return {
    handId: intCol(row, 'id'),
    tableId: textCol(row, 'table_id'),
    currency: currencyOf(row),
    description: textCol(row, 'description'),
    startedAt: intCol(row, 'started_at'),
    endedAt: intColOr(row, 'ended_at', 0),
    net: intCol(row, 'won') - intCol(row, 'contributed'),
  };
}

/** The hand's secret and contributions once its reveal time (the storage's clock) has come. */
function revealDue(row: SqlRow, now: number): FairReveal | null {
  const secret = textColOrNull(row, 'fair_secret');
  const contributions = textColOrNull(row, 'fair_contributions');
  const at = row['fair_reveal_at'];
  if (secret === null || contributions === null || at === null || at === undefined) return null;
  if (intCol(row, 'fair_reveal_at') > now) return null;
  return { secret, contributions: JSON.parse(contributions) as string[] };
}

export function sqlHandHistories({ driver, clock }: SqlContext): HandHistories {
  return {
    async handsOf(userId, options = {}) {
      const limit = Math.max(1, Math.min(Math.trunc(options.limit ?? 50), 1000));
      const select = `SELECT h.id, h.table_id, h.currency, h.description, h.started_at, h.ended_at, hp.won, hp.contributed
         FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
        WHERE hp.user_id = ? AND h.status = 'settled'`;
      const rows =
        options.before === undefined
          ? await driver.all(`${select} ORDER BY hp.hand_id DESC LIMIT ?`, [userId, limit])
          : await driver.all(`${select} AND hp.hand_id < ? ORDER BY hp.hand_id DESC LIMIT ?`, [
              userId,
              options.before,
              limit,
            ]);
      return rows.map(playedHandOf);
    },

    async handsWhere(options) {
      const limit = Math.max(1, Math.min(Math.trunc(options.limit ?? 50), 500));
      const where = ["status = 'settled'"];
      const params: (string | number)[] = [];
      if (options.tableId !== undefined) {
        where.push('table_id = ?');
        params.push(options.tableId);
      }
      if (options.endedFrom !== undefined) {
        where.push('ended_at >= ?');
        params.push(options.endedFrom);
      }
      if (options.endedTo !== undefined) {
        where.push('ended_at <= ?');
        params.push(options.endedTo);
      }
      const rows = await driver.all(
        `SELECT id, table_id, currency, description, started_at, ended_at FROM hands
          WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
        [...params, limit],
      );
      return rows.map((row): SettledHandItem => ({
        handId: intCol(row, 'id'),
        tableId: textCol(row, 'table_id'),
        currency: currencyOf(row),
        description: textCol(row, 'description'),
        startedAt: intCol(row, 'started_at'),
        endedAt: intColOr(row, 'ended_at', 0),
      }));
    },

    async handFor(handId, userId) {
      const row = await driver.get(
        `SELECT h.id, h.table_id, h.currency, h.description, h.started_at, h.ended_at, hp.won, hp.contributed, hp.phh,
                h.fair_secret, h.fair_contributions, h.fair_reveal_at
           FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
          WHERE hp.hand_id = ? AND hp.user_id = ? AND h.status = 'settled'`,
        [handId, userId],
      );
      if (row === undefined) return null;
      const phh = textColOrNull(row, 'phh');
      return phh === null ? null : { ...playedHandOf(row), phh, fairReveal: revealDue(row, clock()) };
    },

    async handFull(handId) {
      const row = await driver.get(
        `SELECT id, table_id, currency, description, started_at, ended_at, 0 AS won, 0 AS contributed, phh
           FROM hands WHERE id = ? AND status = 'settled'`,
        [handId],
      );
      if (row === undefined) return null;
      // The operator's copy holds every card and the secret already.
      return { ...playedHandOf(row), phh: textColOrNull(row, 'phh') ?? '', fairReveal: null };
    },

    async settledHands(options = {}) {
      const limit = Math.max(1, Math.min(Math.trunc(options.limit ?? 500), 5000));
      return driver.transaction(
        async (tx) => {
          const hands = await tx.all(
            `SELECT id, table_id, currency, started_at, ended_at, phh FROM hands
              WHERE status = 'settled' AND id > ? ORDER BY id LIMIT ?`,
            [options.after ?? 0, limit],
          );
          if (hands.length === 0) return [];
          const first = intCol(hands[0]!, 'id');
          const last = intCol(hands.at(-1)!, 'id');
          const rows = await tx.all(
            `SELECT hp.hand_id, hp.user_id, u.name, hp.seat, hp.position, hp.contributed, hp.won
               FROM hand_players hp JOIN users u ON u.id = hp.user_id
              WHERE hp.hand_id >= ? AND hp.hand_id <= ? ORDER BY hp.hand_id, hp.position`,
            [first, last],
          );
          const players = new Map<number, StoredHandPlayer[]>();
          for (const row of rows) {
            const handId = intCol(row, 'hand_id');
            const list = players.get(handId) ?? [];
            list.push({
              userId: intCol(row, 'user_id'),
              name: textCol(row, 'name'),
              seat: intCol(row, 'seat'),
              position: intCol(row, 'position'),
              contributed: intCol(row, 'contributed'),
              won: intCol(row, 'won'),
            });
            players.set(handId, list);
          }
          return hands.map((row) => ({
            handId: intCol(row, 'id'),
            tableId: textCol(row, 'table_id'),
            currency: currencyOf(row),
            startedAt: intCol(row, 'started_at'),
            endedAt: intColOr(row, 'ended_at', 0),
            phh: textColOrNull(row, 'phh') ?? '',
            players: players.get(intCol(row, 'id')) ?? [],
          }));
        },
        { readOnly: true },
      );
    },
  };
}
