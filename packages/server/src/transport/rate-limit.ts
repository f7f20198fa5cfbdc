/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`; each message takes one. A
 * connection whose bucket is empty gets RATE_LIMITED answers; one that keeps sending far past that
 * (its debt beyond `burst` more) is closed.
 */
export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

/** Generous for a person or a bot (a decision every 500 ms), tight for a flood. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 20, burst: 40 };

export class TokenBucket {
  readonly #limit: RateLimit;
  readonly #now: () => number;
  #tokens: number;
  #at: number;
  /** Messages refused since the bucket was last non-empty. */
  #refused = 0;

  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#now = now;
    this.#tokens = limit.burst;
    this.#at = now();
  }

  /** Takes a token: 'ok', 'refused' (answer RATE_LIMITED), or 'abuse' (close the connection). */
  take(): 'ok' | 'refused' | 'abuse' {
    const now = this.#now();
    this.#tokens = Math.min(
      this.#limit.burst,
      this.#tokens + ((now - this.#at) / 1000) * this.#limit.perSecond,
    );
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      this.#refused = 0;
      return 'ok';
    }
    this.#refused++;
    return this.#refused > this.#limit.burst ? 'abuse' : 'refused';
  }
}
