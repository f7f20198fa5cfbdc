/**
 * Password hashing, bounded. scrypt runs on libuv's thread pool (4 threads by default), which the
 * room shares with file reads and DNS: a login flood with unbounded hashing fills the pool and every
 * other sign-in and static file waits behind it. So at most `concurrency` hashes run at once (default
 * 2, half the pool), at most `maxWaiting` more wait their turn, and beyond that a sign-in is refused at
 * once (nothing hashed) instead of queueing without end.
 */
export interface HashQueueOptions {
  /** Hashes running at once; default 2. */
  readonly concurrency?: number;
  /** Hashes waiting for a slot; more are refused; default 64. */
  readonly maxWaiting?: number;
}

export const DEFAULT_HASH_CONCURRENCY = 2;
export const DEFAULT_HASH_WAITING = 64;

export class HashQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  #running = 0;
  #peak = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: HashQueueOptions = {}) {
    this.concurrency = options.concurrency ?? DEFAULT_HASH_CONCURRENCY;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_HASH_WAITING;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** The most hashes that ever ran at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Runs `job` when a slot is free; null (job not run) when the queue is full. */
  async run<T>(job: () => Promise<T>): Promise<{ readonly value: T } | null> {
    if (this.#running >= this.concurrency) {
      if (this.#waiting.length >= this.maxWaiting) return null;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    this.#peak = Math.max(this.#peak, this.#running);
    try {
      return { value: await job() };
    } finally {
      // The slot passes straight to the next waiter (running stays the same), else it is freed.
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#running--;
    }
  }
}
