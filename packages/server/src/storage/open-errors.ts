/**
 * Why the room's storage cannot be opened, told to the operator in words (`felt serve`, `felt admin`
 * print the message, no stack trace): the data folder or the database is in use by another server, the
 * database belongs to the other kind of room, or the database file is damaged. Nothing was changed.
 */
export const OpenErrorCode = {
  /** Another `felt serve` holds the data folder's lock (./data-lock.ts). */
  DATA_DIR_LOCKED: 'DATA_DIR_LOCKED',
  /** The database file fails SQLite's check at open, or is not a database at all. */
  CORRUPT_DATABASE: 'CORRUPT_DATABASE',
  /** A server of the other kind (one process, or a cluster's member) runs on the database (./room-mode.ts). */
  ROOM_IN_USE: 'ROOM_IN_USE',
  /** The database belongs to the other kind of room and `--switch-mode` was not given (./room-mode.ts). */
  WRONG_MODE: 'WRONG_MODE',
} as const;
export type OpenErrorCode = (typeof OpenErrorCode)[keyof typeof OpenErrorCode];

export class StorageOpenError extends Error {
  constructor(
    readonly code: OpenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StorageOpenError';
  }
}
