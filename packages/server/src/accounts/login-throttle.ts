/**
 * The login throttle, in two parts:
 *
 * - **per account** (the name as typed, in any case; unknown names alike, so the throttle tells nothing
 *   about which names exist): after `freeFailures` wrong passwords in a row, each further attempt must
 *   wait a delay that doubles with every failure (`baseDelayMs`, 2×, 4×, … up to `maxDelayMs`) after the
 *   last one. It only ever slows: the right password is accepted as soon as the delay has passed, and
 *   an address (not a shared, exempt one) that has signed in to the account before is not slowed, so an attacker who keeps
 *   failing cannot lock the owner out. A success clears the count; failures are forgotten after
 *   `forgetMs`.
 * - **per address**: a token bucket of password attempts (sign-up and login), `burst` at most, refilled
 *   at `perMinute`; exempt addresses (loopback, trusted) are not counted.
 *
 * Kept in memory: a restart forgets it, which gives an attacker nothing he lacks after `forgetMs`.
 */
export interface LoginThrottleOptions {
  /** Wrong passwords in a row before attempts are slowed; default 5. */
  readonly freeFailures?: number;
  /** The first delay; default 1,000 ms. */
  readonly baseDelayMs?: number;
  /** The longest delay; default 30,000 ms. */
  readonly maxDelayMs?: number;
  /** Failures older than this are forgotten; default 15 minutes. */
  readonly forgetMs?: number;
  /** Password attempts per address: the bucket's size; default 20. */
  readonly addressBurst?: number;
  /** Password attempts per address: refill per minute; default 20. */
  readonly addressPerMinute?: number;
  readonly clock?: () => number;
}

export const DEFAULT_LOGIN_THROTTLE = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  forgetMs: 15 * 60_000,
  addressBurst: 20,
  addressPerMinute: 20,
} as const;

/** Who is trying: the peer's address and whether it is exempt from per-address limits. */
export interface Caller {
  readonly address: string;
  /**
   * What the per-address limits count it under when not the address itself: an IPv6 client's prefix
   * (transport/address-groups.ts), since one subscriber holds a whole /64.
   */
  readonly group?: string;
  readonly exempt: boolean;
}

const groupOf = (caller: Caller): string => caller.group ?? caller.address;

/** In-process callers (tests, tools): exempt. */
export const LOCAL_CALLER: Caller = { address: 'local', exempt: true };

/** Entries kept at most per map; the oldest go first (an attacker cycling names cannot grow memory). */
const MAX_ENTRIES = 100_000;
/** Addresses remembered per account as having signed in. */
const KNOWN_ADDRESSES = 8;

interface AccountRecord {
  failures: number;
  lastFailure: number;
  readonly known: string[];
}

interface AddressRecord {
  tokens: number;
  at: number;
}

export type ThrottleVerdict = { readonly ok: true } | { readonly ok: false; readonly retryMs: number };

export class LoginThrottle {
  readonly #options: Required<Omit<LoginThrottleOptions, 'clock'>>;
  readonly #clock: () => number;
  readonly #accounts = new Map<string, AccountRecord>();
  readonly #addresses = new Map<string, AddressRecord>();

  constructor(options: LoginThrottleOptions = {}) {
    this.#options = {
      freeFailures: options.freeFailures ?? DEFAULT_LOGIN_THROTTLE.freeFailures,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_LOGIN_THROTTLE.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_LOGIN_THROTTLE.maxDelayMs,
      forgetMs: options.forgetMs ?? DEFAULT_LOGIN_THROTTLE.forgetMs,
      addressBurst: options.addressBurst ?? DEFAULT_LOGIN_THROTTLE.addressBurst,
      addressPerMinute: options.addressPerMinute ?? DEFAULT_LOGIN_THROTTLE.addressPerMinute,
    };
    this.#clock = options.clock ?? Date.now;
  }

  /** Takes one password attempt from the caller's address (sign-up or login). */
  takeAddress(caller: Caller): ThrottleVerdict {
    if (caller.exempt) return { ok: true };
    const now = this.#clock();
    const { addressBurst, addressPerMinute } = this.#options;
    const key = groupOf(caller);
    const record = this.#addresses.get(key) ?? { tokens: addressBurst, at: now };
    record.tokens = Math.min(addressBurst, record.tokens + ((now - record.at) / 60_000) * addressPerMinute);
    record.at = now;
    this.#remember(this.#addresses, key, record);
    if (record.tokens >= 1) {
      record.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryMs: Math.ceil(((1 - record.tokens) * 60_000) / addressPerMinute) };
  }

  /** Whether a login on `name` may be checked now. */
  checkAccount(name: string, caller: Caller): ThrottleVerdict {
    const record = this.#account(name);
    if (record === undefined || record.known.includes(groupOf(caller))) return { ok: true };
    const wait = this.delayAfter(record.failures) - (this.#clock() - record.lastFailure);
    return wait > 0 ? { ok: false, retryMs: wait } : { ok: true };
  }

  /** The delay owed after `failures` wrong passwords in a row. */
  delayAfter(failures: number): number {
    const { freeFailures, baseDelayMs, maxDelayMs } = this.#options;
    if (failures < freeFailures) return 0;
    return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(30, failures - freeFailures));
  }

  failed(name: string): void {
    const key = name.toLowerCase();
    const record = this.#account(name) ?? { failures: 0, lastFailure: 0, known: [] };
    record.failures++;
    record.lastFailure = this.#clock();
    this.#remember(this.#accounts, key, record);
  }

  succeeded(name: string, caller: Caller): void {
    const key = name.toLowerCase();
    const record = this.#accounts.get(key) ?? { failures: 0, lastFailure: 0, known: [] };
    record.failures = 0;
    // A shared address (loopback, a trusted proxy) stands for everybody behind it: never "known".
    if (!caller.exempt && !record.known.includes(groupOf(caller))) {
      record.known.push(groupOf(caller));
      if (record.known.length > KNOWN_ADDRESSES) record.known.shift();
    }
    this.#remember(this.#accounts, key, record);
  }

  /** The account's record, its failures forgotten when old. */
  #account(name: string): AccountRecord | undefined {
    const record = this.#accounts.get(name.toLowerCase());
    if (record !== undefined && this.#clock() - record.lastFailure > this.#options.forgetMs) {
      record.failures = 0;
    }
    return record;
  }

  #remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_ENTRIES) {
      const oldest = map.keys().next();
      if (oldest.done !== true) map.delete(oldest.value);
    }
  }
}
