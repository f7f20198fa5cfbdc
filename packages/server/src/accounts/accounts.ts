/**
 * Accounts: sign-up, login, sessions (resume by token), logout, change password, balances and the
 * play-money top-up. Money itself lives in the ledger (storage); real money moves only through the
 * operator's cashier (`felt admin credit|debit`), never through this module.
 */
import { ErrorCode, PASSWORD_MAX, PASSWORD_MIN, type AccountInfo } from '@felt/protocol';
import type { Balances, StaffRole, Storage, UserId } from '../storage/types.js';
import { HashQueue, type HashQueueOptions } from './hash-queue.js';
import {
  LOCAL_CALLER,
  LoginThrottle,
  type Caller,
  type LoginThrottleOptions,
  type ThrottleVerdict,
} from './login-throttle.js';
import {
  DEFAULT_SCRYPT,
  hashPassword,
  newToken,
  tokenHash,
  verifyPassword,
  type ScryptParams,
} from './passwords.js';
import { totpStep } from './totp.js';
import { silentLogger, type Logger } from '../log.js';

export interface AccountsOptions {
  readonly scrypt?: ScryptParams;
  /** Session lifetime; default 30 days. */
  readonly sessionMs?: number;
  /** Play money given at sign-up; default 100,000 chips (1,000.00). */
  readonly signUpPlayMoney?: number;
  /**
   * A play-money top-up may bring the balance and the chips at tables up to this ceiling, no further;
   * default 1,000,000 chips (10,000.00).
   */
  readonly playMoneyCeiling?: number;
  readonly clock?: () => number;
  /** Password attempts slowed per account and per address (./login-throttle.ts). */
  readonly throttle?: LoginThrottleOptions;
  /** How many password hashes run and wait at once (./hash-queue.ts). */
  readonly hashing?: HashQueueOptions;
  /** Logins accepted and refused (with the address: an attack shows there); default none. */
  readonly logger?: Logger;
}

export type AccountError = { readonly code: ErrorCode; readonly message: string };
export type AccountResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AccountError };

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

function throttled<T>(verdict: ThrottleVerdict, what: string): AccountResult<T> | null {
  if (verdict.ok) return null;
  return refuse(
    ErrorCode.TOO_MANY_ATTEMPTS,
    `too many password attempts ${what}; try again in ${seconds(verdict.retryMs)} s`,
  );
}

const BUSY = 'the room is busy signing players in; try again in a moment';

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
  readonly #logger: Logger;
  readonly #storage: Storage;
  readonly #scrypt: ScryptParams;
  readonly #sessionMs: number;
  readonly #signUpPlayMoney: number;
  readonly #ceiling: number;
  readonly #clock: () => number;
  /** A hash to spend the same time on when the name is unknown (no user enumeration by timing). */
  #dummy: Promise<{ hash: string; salt: string }> | null = null;
  readonly throttle: LoginThrottle;
  readonly hashing: HashQueue;

  constructor(storage: Storage, options: AccountsOptions = {}) {
    this.#storage = storage;
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    this.#sessionMs = options.sessionMs ?? 30 * 24 * 3600 * 1000;
    this.#signUpPlayMoney = options.signUpPlayMoney ?? 100_000;
    this.#ceiling = options.playMoneyCeiling ?? 1_000_000;
    this.#clock = options.clock ?? Date.now;
    this.throttle = new LoginThrottle({ clock: this.#clock, ...options.throttle });
    this.hashing = new HashQueue(options.hashing);
    this.#logger = options.logger ?? silentLogger;
  }

  get playMoneyCeiling(): number {
    return this.#ceiling;
  }

  async signUp(
    name: string,
    password: string,
    caller: Caller = LOCAL_CALLER,
  ): Promise<AccountResult<LoggedIn>> {
    const weak = checkPassword(password);
    if (weak !== null) return refuse(ErrorCode.WEAK_PASSWORD, weak);
    const slowed = throttled<LoggedIn>(this.throttle.takeAddress(caller), 'from your address');
    if (slowed !== null) return slowed;
    if ((await this.#storage.userByName(name)) !== null)
      return refuse(ErrorCode.NAME_TAKEN, `${name} is taken`);
    const hashed = await this.hashing.run(() => hashPassword(password, this.#scrypt));
    if (hashed === null) return refuse(ErrorCode.BUSY, BUSY);
    const { hash, salt } = hashed.value;
    // The account and its play chips in one transaction: never an account without them.
    const created = await this.#storage.createUser({
      name,
      passwordHash: hash,
      passwordSalt: salt,
      ...(this.#signUpPlayMoney > 0 ? { playMoney: this.#signUpPlayMoney } : {}),
    });
    if (!created.ok) {
      return created.error.code === 'NAME_TAKEN'
        ? refuse(ErrorCode.NAME_TAKEN, `${name} is taken`)
        : refuse(ErrorCode.BAD_MESSAGE, created.error.message);
    }
    return ok(await this.#openSession(created.value.id, created.value.name));
  }

  /**
   * Checks the password, throttled (per account, then per address: an attempt refused by the account's
   * delay costs the address nothing) and hashed through the bounded queue. A staff account needs its
   * authenticator's code too, asked for only once the password was right.
   */
  async login(
    name: string,
    password: string,
    caller: Caller = LOCAL_CALLER,
    totp?: string,
  ): Promise<AccountResult<LoggedIn>> {
    const result = await this.#checkLogin(name, password, caller, totp);
    if (result.ok) this.#logger.info({ account: result.value.account.id, address: caller.address }, 'login');
    else this.#logger.info({ name, address: caller.address, code: result.error.code }, 'login refused');
    return result;
  }

  async #checkLogin(
    name: string,
    password: string,
    caller: Caller,
    totp: string | undefined,
  ): Promise<AccountResult<LoggedIn>> {
    const slowed =
      throttled<LoggedIn>(this.throttle.checkAccount(name, caller), 'on this account') ??
      throttled<LoggedIn>(this.throttle.takeAddress(caller), 'from your address');
    if (slowed !== null) return slowed;
    const user = await this.#storage.userByName(name);
    let stored: { hash: string; salt: string };
    if (user === null) {
      this.#dummy ??= hashPassword('not a password', this.#scrypt);
      stored = await this.#dummy;
    } else {
      stored = { hash: user.passwordHash, salt: user.passwordSalt };
    }
    const checked = await this.hashing.run(() => verifyPassword(password, stored));
    if (checked === null) return refuse(ErrorCode.BUSY, BUSY);
    if (user === null || !checked.value) {
      this.throttle.failed(name);
      return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong name or password');
    }
    if (user.suspendedAt !== null) return refuse(ErrorCode.SUSPENDED, 'this account is suspended');
    if (user.totpSecret !== null) {
      if (totp === undefined) {
        return refuse(ErrorCode.TOTP_REQUIRED, 'a staff account signs in with its authenticator’s code too');
      }
      const step = totpStep(user.totpSecret, totp, this.#clock());
      if (step === null) {
        // A wrong code slows the account like a wrong password: six digits are no secret to guess at.
        this.throttle.failed(name);
        return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong name, password or code');
      }
      // A code seen once (over a shoulder, in a proxy's log) must not sign anybody in again.
      if (!(await this.#storage.takeTotpStep(user.id, step))) {
        this.throttle.failed(name);
        return refuse(ErrorCode.BAD_CREDENTIALS, 'that code was used already: wait for the next one');
      }
    }
    this.throttle.succeeded(name, caller);
    return ok(await this.#openSession(user.id, user.name, user.role));
  }

  /** The session of a token (reconnect), if it exists and has not expired. */
  async resume(token: string): Promise<AccountResult<Session & { readonly balances: Balances }>> {
    const hash = tokenHash(token);
    const session = await this.#storage.sessionByTokenHash(hash, this.#clock());
    if (session === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown or expired session');
    const user = await this.#storage.userById(session.userId);
    if (user === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown or expired session');
    if (user.suspendedAt !== null) return refuse(ErrorCode.SUSPENDED, 'this account is suspended');
    return ok({
      account: accountInfo(user.id, user.name, user.role),
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

  /** Ends the session of a token (the browser's cookie); its hash, to tell its connections. */
  async logoutToken(token: string): Promise<string> {
    const hash = tokenHash(token);
    await this.#storage.deleteSession(hash);
    return hash;
  }

  get sessionMs(): number {
    return this.#sessionMs;
  }

  /** Changes the password (the old one is needed); every other session of the account ends. */
  async changePassword(
    session: Session,
    oldPassword: string,
    newPassword: string,
  ): Promise<AccountResult<null>> {
    const user = await this.#storage.userById(session.account.id);
    if (user === null) return refuse(ErrorCode.BAD_TOKEN, 'unknown account');
    const slowed = throttled<null>(this.throttle.checkAccount(user.name, LOCAL_CALLER), 'on this account');
    if (slowed !== null) return slowed;
    const checked = await this.hashing.run(() =>
      verifyPassword(oldPassword, { hash: user.passwordHash, salt: user.passwordSalt }),
    );
    if (checked === null) return refuse(ErrorCode.BUSY, BUSY);
    if (!checked.value) {
      // A stolen session must not become a way round the login throttle.
      this.throttle.failed(user.name);
      return refuse(ErrorCode.BAD_CREDENTIALS, 'wrong password');
    }
    const weak = checkPassword(newPassword);
    if (weak !== null) return refuse(ErrorCode.WEAK_PASSWORD, weak);
    const hashed = await this.hashing.run(() => hashPassword(newPassword, this.#scrypt));
    if (hashed === null) return refuse(ErrorCode.BUSY, BUSY);
    const { hash, salt } = hashed.value;
    const set = await this.#storage.setPassword(user.id, hash, salt);
    if (!set.ok) return refuse(ErrorCode.INTERNAL, set.error.message);
    await this.#storage.deleteSessionsOf(user.id, session.tokenHash);
    return ok(null);
  }

  balances(userId: UserId): Promise<Balances> {
    return this.#storage.balances(userId);
  }

  /** Play money only, up to the ceiling, which counts his balance and his chips at tables. */
  async topUp(userId: UserId, amount: number): Promise<AccountResult<Balances>> {
    const topped = await this.#storage.topUp(userId, amount, this.#ceiling);
    if (topped.ok) return ok(topped.value);
    return topped.error.code === 'TOP_UP_LIMIT'
      ? refuse(ErrorCode.TOP_UP_LIMIT, topped.error.message)
      : refuse(ErrorCode.BAD_AMOUNT, topped.error.message);
  }

  async #openSession(userId: UserId, name: string, role: StaffRole | null = null): Promise<LoggedIn> {
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
      account: accountInfo(userId, name, role),
      balances: await this.#storage.balances(userId),
    };
  }
}

/** The account as its client is told: a staff member's role too, so that his client offers the console. */
function accountInfo(id: UserId, name: string, role: StaffRole | null): AccountInfo {
  return role === null ? { id, name } : { id, name, role };
}

function checkPassword(password: string): string | null {
  const length = Array.from(password).length;
  if (length < PASSWORD_MIN) return `a password has at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `a password has at most ${PASSWORD_MAX} characters`;
  return null;
}
