/**
 * @felt/server — the Felt poker room: accounts, ledger, lobby, tables over WebSocket, on SQLite by
 * default. `startServer` is what `felt serve` runs.
 */
export { startServer, type ServerOptions, type RunningServer } from './server.js';
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
} from './storage/index.js';
export type {
  Storage,
  AuditReport,
  Balances,
  Currency,
  HandActionRecord,
  RecoveryReport,
} from './storage/types.js';
export * from './ledger/admin.js';
export { createTable, resolveTable, realClock, manualClock, memoryAllInCounter } from './table/index.js';
export type { Table, TableConfig } from './table/types.js';
export * from './bots/index.js';
