/**
 * @felt/server — the Felt poker room: accounts, ledger, lobby, tables over WebSocket, on SQLite by
 * default. `startServer` is what `felt serve` runs.
 */
export { startServer, type ServerOptions, type RunningServer } from './server.js';
export type { BusConnectOptions } from './cluster/bus-connection.js';
export { createLogger, isLogLevel, silentLogger, LOG_LEVELS, type Logger, type LogLevel } from './log.js';
export { Accounts, type AccountsOptions } from './accounts/accounts.js';
export { DEFAULT_SCRYPT, type ScryptParams } from './accounts/passwords.js';
export { Lobby, kindOf } from './lobby/lobby.js';
export { defaultTableSet, loadTableSet, checkTableSet } from './lobby/config.js';
export { Hub } from './transport/hub.js';
export { DEFAULT_RATE_LIMIT, type RateLimit } from './transport/rate-limit.js';
export {
  DEFAULT_DATA_DIR,
  databaseFile,
  openSqliteStorage,
  openMigratedSqliteStorage,
  openPostgresStorage,
  openMigratedPostgresStorage,
  isPostgresUrl,
  STAFF_ROLES,
} from './storage/index.js';
export { StorageOpenError, OpenErrorCode } from './storage/open-errors.js';
export type {
  Storage,
  AuditReport,
  Balances,
  Currency,
  HandActionRecord,
  RecoveryReport,
  StaffRole,
} from './storage/types.js';
export * from './ledger/admin.js';
export * from './staff/roles.js';
export * from './staff/mute.js';
export {
  createTable,
  resolveTable,
  realClock,
  manualClock,
  memoryAllInCounter,
  cryptoRandomSource,
} from './table/index.js';
export type { Table, TableConfig } from './table/types.js';
export * from './bots/index.js';
export { adminIntegrity } from './integrity/admin.js';
export { roomIntegrity, type IntegrityDocument } from './integrity/index.js';
export {
  TournamentDirector,
  type DirectorDeps,
  type Placed,
  type TournamentFigures,
} from './tournament/director.js';
export { TournamentBots, countingClockDecisions } from './tournament/bots.js';
export { ledgerMoney } from './tournament/money.js';
export type { Level, TournamentDefinition } from './tournament/structure.js';
export type { TournamentEntry } from './tournament/schedule.js';
export { editTournamentFile, loadTournamentFile } from './tournament/table-file.js';
