/**
 * Accounts and sessions: who may log in, and the sessions they hold. Its own two tables (`users`,
 * `sessions`), which the other parts refer to by user id; a new account's play chips are posted to the
 * ledger in the transaction that creates it.
 */
import type { StaffRole, StorageResult, UserId } from './common.js';

/** A user as stored. The password hash and salt are produced by the accounts module (scrypt); storage keeps them opaque. */
export interface UserRecord {
  readonly id: UserId;
  readonly name: string;
  readonly passwordHash: string;
  readonly passwordSalt: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** A staff member's role; null for a player. */
  readonly role: StaffRole | null;
  /** A staff member's TOTP key (base32), which his sign-in needs; null for a player. */
  readonly totpSecret: string | null;
  /** When the staff suspended the account (ms since the epoch); null when it is not suspended. */
  readonly suspendedAt: number | null;
  /** When the staff muted the account at the tables' chat (ms since the epoch); null when it may chat. */
  readonly mutedAt: number | null;
}

export interface NewUser {
  readonly name: string;
  readonly passwordHash: string;
  readonly passwordSalt: string;
  /**
   * Play chips the account starts with, from the play-money source, in the same transaction as the
   * account: a sign-up never leaves an account without them (default none).
   */
  readonly playMoney?: number;
}

/** A login session. Only a hash of the token is stored; the token itself never touches the disk. */
export interface SessionRecord {
  readonly tokenHash: string;
  readonly userId: UserId;
  readonly createdAt: number;
  /** Milliseconds since the epoch; the session is void from this instant on. */
  readonly expiresAt: number;
}

export interface NewSession {
  readonly tokenHash: string;
  readonly userId: UserId;
  readonly expiresAt: number;
}

/** Users and their sessions. Each method is one atomic transaction, durable when it resolves. */
export interface AccountStore {
  /** Refused with NAME_TAKEN when a user's name equals this one regardless of case. */
  createUser(user: NewUser): Promise<StorageResult<UserRecord>>;
  userById(id: UserId): Promise<UserRecord | null>;
  /** The user whose name equals this one regardless of case (names are unique so). */
  userByName(name: string): Promise<UserRecord | null>;
  setPassword(id: UserId, passwordHash: string, passwordSalt: string): Promise<StorageResult<void>>;
  /**
   * Makes the user staff with this role and TOTP key, or a player again (`null`, `null`). Every session
   * of his ends in the same transaction: none opened under his old standing outlives it.
   */
  setRole(
    id: UserId,
    staff: { readonly role: StaffRole; readonly totpSecret: string } | null,
  ): Promise<StorageResult<void>>;
  /**
   * Takes the TOTP step of a code just checked: true and kept as the account's last when it is after
   * the last one taken, false when it is not (a code already used, or an older one). One conditional
   * write, so two processes of a cluster cannot both take the same step.
   */
  takeTotpStep(id: UserId, step: number): Promise<boolean>;
  /** Suspends the account (ending every session of it in the same transaction) or lifts the suspension. */
  setSuspended(id: UserId, suspended: boolean): Promise<StorageResult<void>>;
  /** Mutes the account at every table's chat, or lets it chat again; his sessions go on. */
  setMuted(id: UserId, muted: boolean): Promise<StorageResult<void>>;
  createSession(session: NewSession): Promise<StorageResult<SessionRecord>>;
  /** The session with this token hash if it exists and has not expired at `now` (default: the clock). */
  sessionByTokenHash(tokenHash: string, now?: number): Promise<SessionRecord | null>;
  /** The user's sessions that have not expired at `now` (default: the clock), oldest first. */
  sessionsOf(userId: UserId, now?: number): Promise<SessionRecord[]>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Logs a user out everywhere (e.g. after a password change), optionally keeping one session. */
  deleteSessionsOf(userId: UserId, keepTokenHash?: string): Promise<void>;
  /** Removes expired sessions; returns how many. */
  deleteExpiredSessions(now?: number): Promise<number>;
}
