/**
 * Accounts: sign-up, login, sessions (resume by token), logout, change password, balances and the
 * play-money top-up. Money itself lives in the ledger (storage); real money moves only through the
 * operator's cashier (`felt admin credit|debit`), never through this module.
 */
import { ErrorCode, PASSWORD_MAX, PASSWORD_MIN, type AccountInfo } from '@felt/protocol';
import type { Balances, Storage, UserId } from '../storage/types.js';
import {
  DEFAULT_SCRYPT,
  hashPassword,
  newToken,
  tokenHash,
  verifyPassword,
  type ScryptParams,
} from './passwords.js';

export interface AccountsOptions {
  readonly scrypt?: ScryptParams;
  /** Session lifetime; default 30 days. */
  readonly sessionMs?: number;
  /** Play money given at sign-up; default 100,000 chips (1,000.00). */
  readonly signUpPlayMoney?: number;
  /** A play-money top-up may bring the balance up to this ceiling, no further; default 1,000,000 chips (10,000.00). */
  readonly playMoneyCeiling?: number;
  readonly clock?: () => number;
}

export type AccountError = { readonly code: ErrorCode; readonly message: string };
export type AccountResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AccountError };

const ok = <T>(value: T): AccountResult<T> => ({ ok: true, value });
const refuse = <T>(code: ErrorCode, message: string): AccountResult<T> => ({
  ok: false,
  error: { code, message },
});

export interface Session {
  readonly account: AccountInfo;
  readonly tokenHash: string;
}

export interface LoggedIn extends Session {
  /** The token itself: handed to the client once, never stored. */
  readonly token: string;
  readonly balances: Balances;
}

export class Accounts {
  readonly #storage: Storage;
  readonly #scrypt: ScryptParams;
  readonly #sessionMs: number;
  readonly #signUpPlayMoney: number;
  readonly #ceiling: number;
  readonly #clock: () => number;
  /** A hash to spend the same time on when the name is unknown (no user enumeration by timing). */
  #dummy: Promise<{ hash: string; salt: string }> | null = null;
  readonly #topUps = new Map<UserId, Promise<void>>();

  constructor(storage: Storage, options: AccountsOptions = {}) {
    this.#storage = storage;
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.#sessionMs = options.sessionMs ?? 30 * 24 * 3600 * 1000;
    this.#signUpPlayMoney = options.signUpPlayMoney ?? 100_000;
    this.#ceiling = options.playMoneyCeiling ?? 1_000_000;
    this.#clock = options.clock ?? Date.now;
  }

  get playMoneyCeiling(): number {
    return this.#ceiling;
  }

  async signUp(name: string, password: string): Promise<AccountResult<LoggedIn>> {
    const weak = checkPassword(password);
    if (weak !== null) return refuse(ErrorCode.WEAK_PASSWORD, weak);
    if ((await this.#storage.userByName(name)) !== null)
      return refuse(ErrorCode.NAME_TAKEN, `${name} is taken`);
    const { hash, salt } = await hashPassword(password, this.#scrypt);
    const created = await this.#storage.createUser({ name, passwordHash: hash, passwordSalt: salt });
    if (!created.ok) {
      return created.error.code === 'NAME_TAKEN'
        ? refuse(ErrorCode.NAME_TAKEN, `${name} is taken`)
        : refuse(ErrorCode.BAD_MESSAGE, created.error.message);
    }
    if (this.#signUpPlayMoney > 0) {
      const topped = await this.#storage.topUp(created.value.id, this.#signUpPlayMoney);
      if (!topped.ok) throw new Error(`sign-up play money: ${topped.error.message}`);
    }
    return ok(await this.#openSession(created.value.id, created.value.name));
  }

  async login(name: string, password: string): Promise<AccountResult<LoggedIn>> {
    const user = await this.#storage.userByName(name);
    if (user === null) {
      this.#dummy ??= hashPassword('not a password', this.#scrypt);
      await verifyPassword(password, await this.#dummy);
      return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong name or password');
    }
    if (!(await verifyPassword(password, { hash: user.passwordHash, salt: user.passwordSalt }))) {
      return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong name or password');
    }
    return ok(await this.#openSession(user.id, user.name));
  }

  /** The session of a token (reconnect), if it exists and has not expired. */
  async resume(token: string): Promise<AccountResult<Session & { readonly balances: Balances }>> {
    const hash = tokenHash(token);
    const session = await this.#storage.sessionByTokenHash(hash, this.#clock());
    if (session === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown or expired session');
    const user = await this.#storage.userById(session.userId);
    if (user === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown or expired session');
    return ok({
      account: { id: user.id, name: user.name },
      tokenHash: hash,
      balances: await this.#storage.balances(user.id),
    });
  }

  /** Whether the session still exists and has not expired. */
  async valid(hash: string): Promise<boolean> {
    return (await this.#storage.sessionByTokenHash(hash, this.#clock())) !== null;
  }

  async logout(hash: string): Promise<void> {
    await this.#storage.deleteSession(hash);
  }

  /** Changes the password (the old one is needed); every other session of the account ends. */
  async changePassword(
    session: Session,
    oldPassword: string,
    newPassword: string,
  ): Promise<AccountResult<null>> {
    const user = await this.#storage.userById(session.account.id);
    if (user === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown account');
    if (!(await verifyPassword(oldPassword, { hash: user.passwordHash, salt: user.passwordSalt }))) {
      return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong password');
    }
    const weak = checkPassword(newPassword);
    if (weak !== null) return refuse(ErrorCode.WEAK_PASSWORD, weak);
    const { hash, salt } = await hashPassword(newPassword, this.#scrypt);
    const set = await this.#storage.setPassword(user.id, hash, salt);
    if (!set.ok) return refuse(ErrorCode.INTERNAL, set.error.message);
    await this.#storage.deleteSessionsOf(user.id, session.tokenHash);
    return ok(null);
  }

  balances(userId: UserId): Promise<Balances> {
    return this.#storage.balances(userId);
  }

  /** Play money only, up to the ceiling (the balance after the top-up may not exceed it). */
  topUp(userId: UserId, amount: number): Promise<AccountResult<Balances>> {
    // One top-up per account at a time, so that two connections cannot both pass the ceiling check.
    const previous = this.#topUps.get(userId) ?? Promise.resolve();
    const next = previous.then(() => this.#topUp(userId, amount));
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.#topUps.set(userId, settled);
    void settled.then(() => {
      if (this.#topUps.get(userId) === settled) this.#topUps.delete(userId);
    });
    return next;
  }

  async #topUp(userId: UserId, amount: number): Promise<AccountResult<Balances>> {
    const before = await this.#storage.balances(userId);
    if (before.play + amount > this.#ceiling) {
      return refuse(
        ErrorCode.TOP_UP_LIMIT,
        `play money tops up to at most ${this.#ceiling} (balance ${before.play}); at most ${Math.max(0, this.#ceiling - before.play)} now`,
      );
    }
    const topped = await this.#storage.topUp(userId, amount);
    if (!topped.ok) return refuse(ErrorCode.BAD_AMOUNT, topped.error.message);
    return ok(topped.value);
  }

  async #openSession(userId: UserId, name: string): Promise<LoggedIn> {
    const token = newToken();
    const hash = tokenHash(token);
    const created = await this.#storage.createSession({
      tokenHash: hash,
      userId,
      expiresAt: this.#clock() + this.#sessionMs,
    });
    if (!created.ok) throw new Error(`session: ${created.error.message}`);
    return {
      token,
      tokenHash: hash,
      account: { id: userId, name },
      balances: await this.#storage.balances(userId),
    };
  }
}

function checkPassword(password: string): string | null {
  const length = Array.from(password).length;
  if (length < PASSWORD_MIN) return `a password has at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `a password has at most ${PASSWORD_MAX} characters`;
  return null;
}
