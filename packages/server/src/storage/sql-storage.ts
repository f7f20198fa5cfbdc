/**
 * The room's storage written once over the portable query layer (./sql.ts): the five parts on one
 * driver, each method one SQL transaction on it. The SQLite implementation is this on the SQLite
 * driver; a PostgreSQL one would be this on a PostgreSQL driver, or its parts one at a time.
 */
import { migrate } from './migrations.js';
import { sqlAccountStore } from './sql-account-store.js';
import { sqlHandHistories } from './sql-hand-histories.js';
import { sqlHandJournal } from './sql-hand-journal.js';
import { sqlLedger } from './sql-ledger.js';
import { sqlLedgerLookups } from './sql-ledger-lookups.js';
import { sqlPlayerNotes } from './sql-player-notes.js';
import { sqlStaffAudit } from './sql-staff-audit.js';
import { sqlTournamentStore } from './sql-tournament-store.js';
import type { SqlDriver } from './sql.js';
import type { Storage } from './types.js';

export function sqlStorage(driver: SqlDriver, clock: () => number = Date.now): Storage {
  const context = { driver, clock };
  return {
    ...sqlAccountStore(context),
    ...sqlLedger(context),
    ...sqlLedgerLookups(context),
    ...sqlHandJournal(context),
    ...sqlHandHistories(context),
    ...sqlStaffAudit(context),
    ...sqlTournamentStore(context),
    ...sqlPlayerNotes(context),
    async migrate() {
      await migrate(driver, clock);
    },
    close: () => driver.close(),
  };
}
