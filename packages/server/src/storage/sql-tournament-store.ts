/** The tournament store (./tournament-store.ts) over the portable query layer: one row a tournament. */
import type { SqlContext } from './sql-common.js';
import { textCol } from './sql.js';
import type { TournamentStore } from './tournament-store.js';

export function sqlTournamentStore({ driver, clock }: SqlContext): TournamentStore {
  return {
    async saveTournament(id, checkpoint, over) {
      await driver.run(
        `INSERT INTO tournaments (id, checkpoint, over, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET checkpoint = excluded.checkpoint, over = excluded.over,
           updated_at = excluded.updated_at`,
        [id, checkpoint, over ? 1 : 0, clock()],
      );
    },

    async tournamentsInPlay() {
      const rows = await driver.all('SELECT id, checkpoint FROM tournaments WHERE over = 0 ORDER BY id');
      return rows.map((row) => ({ id: textCol(row, 'id'), checkpoint: textCol(row, 'checkpoint') }));
    },

    async tournamentIdsInPlay() {
      const rows = await driver.all('SELECT id FROM tournaments WHERE over = 0 ORDER BY id');
      return rows.map((row) => textCol(row, 'id'));
    },

    async endedTournamentIds(count) {
      const rows = await driver.all(
        'SELECT id FROM tournaments WHERE over = 1 ORDER BY updated_at DESC, id DESC LIMIT ?',
        [count],
      );
      return rows.map((row) => textCol(row, 'id'));
    },

    async storedTournament(id) {
      const row = await driver.get('SELECT id, checkpoint FROM tournaments WHERE id = ?', [id]);
      return row === undefined ? null : { id: textCol(row, 'id'), checkpoint: textCol(row, 'checkpoint') };
    },
  };
}
