/**
 * What every part of the storage shares (./types.ts composes them): the two currencies, the ids, and the
 * typed errors a caller can cause.
 *
 * Money: integer cents (real money) or integer play chips, never fractions. Real and play money are two
 * currencies that never mix: every ledger transaction is in one currency.
 *
 * Errors that a caller can cause (unknown user, insufficient funds, bad amount, …) are values with a
 * {@link StorageErrorCode}; only I/O failures and broken invariants throw.
 */
import type { Result } from '@felt/engine';

/** The two currencies. Real money is in cents; play money in play chips. */
export const CURRENCIES = ['play', 'real'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** What a table's amounts count: a currency, or a tournament's chips (whole units, never in the ledger). */
export type TableCurrency = Currency | 'chips';

export type UserId = number;

/** The roles of the room's staff; a player has none. */
export const STAFF_ROLES = ['operator', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type HandId = number;

export const StorageErrorCode = {
  /** A user with this name exists already (names are unique regardless of case). */
  NAME_TAKEN: 'NAME_TAKEN',
  /** No such user. */
  UNKNOWN_USER: 'UNKNOWN_USER',
  /** An amount that is not a positive safe integer (or not a non-negative one where 0 is allowed). */
  BAD_AMOUNT: 'BAD_AMOUNT',
  /** The movement would leave a balance, seat, pot or contribution below zero. Nothing was changed. */
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  /** The postings of a transaction do not add up to 0, or mix currencies. Nothing was changed. */
  UNBALANCED: 'UNBALANCED',
  /** No hand with this id. */
  UNKNOWN_HAND: 'UNKNOWN_HAND',
  /** The hand is already settled or cancelled. */
  HAND_NOT_IN_PROGRESS: 'HAND_NOT_IN_PROGRESS',
  /** The user is not a participant of this hand. */
  NOT_IN_HAND: 'NOT_IN_HAND',
  /** An action with this sequence number was already recorded for the hand. */
  DUPLICATE_ACTION: 'DUPLICATE_ACTION',
  /** A settlement's awards plus rake do not add up to the chips in the pot. */
  POT_MISMATCH: 'POT_MISMATCH',
  /** A play-money top-up past the ceiling, which counts the balance and the chips at tables. */
  TOP_UP_LIMIT: 'TOP_UP_LIMIT',
  /** Rake on a play-money hand (RULES.md §1: play money is free). */
  RAKE_ON_PLAY_MONEY: 'RAKE_ON_PLAY_MONEY',
  /** A staff account (operator or admin) plays no real money: no buy-in, no credit in it. */
  STAFF_ACCOUNT: 'STAFF_ACCOUNT',
  /**
   * A write for a table whose lease the writer no longer holds (a room of several processes: another
   * member took the table over with a newer epoch, or the lease ran out). Nothing was changed.
   */
  FENCED: 'FENCED',
  /** Anything else malformed in the input (empty name, duplicate participant, …). */
  BAD_REQUEST: 'BAD_REQUEST',
} as const;
export type StorageErrorCode = (typeof StorageErrorCode)[keyof typeof StorageErrorCode];
export type StorageResult<T> = Result<T, StorageErrorCode>;
