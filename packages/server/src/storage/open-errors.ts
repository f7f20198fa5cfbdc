/**
 * Why the room's storage cannot be opened, told to the operator in words (`felt serve`, `felt admin`
 * print the message, no stack trace): the data folder is in use by another server, or the database file
 * is damaged. Either way nothing was changed.
 */
export const OpenErrorCode = {
  /** Another `felt serve` holds the data folder's lock (./data-lock.ts). */
  DATA_DIR_LOCKED: 'DATA_DIR_LOCKED',
  /** The database file fails SQLite's check at open, or is not a database at all. */
  CORRUPT_DATABASE: 'CORRUPT_DATABASE',
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
