/**
 * Whether the room's storage takes writes, for `/health`'s readiness: each part that met a write the
 * storage refused (./unavailable.ts) says so under its own name — a table waiting to go on, the
 * requests' storage — and says so again once a write of its own succeeded. The room is ready while no
 * part waits; a load balancer then sends players elsewhere instead of to a room that cannot keep their
 * chips moving.
 *
 * A table tries again by itself until a write succeeds. The requests do not: a refusal of theirs holds
 * only for a while (`holdMs`), or an idle room taken out of the balancer would never see the write that
 * makes it ready again.
 */
import type { Storage } from './types.js';
import { isStorageUnavailable } from './unavailable.js';

export interface StorageOutage {
  /** Who met it: `requests`, or a table's id. */
  readonly source: string;
  readonly error: string;
  /** When it began (ms since the epoch). */
  readonly since: number;
}

/** How long a refused request keeps the room not ready without a refusal since. */
export const REQUEST_OUTAGE_HOLD_MS = 10_000;

interface Held extends StorageOutage {
  /** When it ends unless refused again (null: when its source says it recovered). */
  readonly until: number | null;
}

export class StorageReadiness {
  readonly #outages = new Map<string, Held>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** True while no part waits for the storage to take writes again. */
  get ready(): boolean {
    return this.#current().length === 0;
  }

  outages(): StorageOutage[] {
    return this.#current().map(({ source, error, since }) => ({ source, error, since }));
  }

  /** `source` met a refused write; with `holdMs`, it counts until that long after its last one. */
  failed(source: string, error: unknown, holdMs?: number): void {
    const now = this.#now();
    const words = error instanceof Error ? error.message : String(error);
    const since = this.#current().find((outage) => outage.source === source)?.since ?? now;
    this.#outages.set(source, {
      source,
      error: words,
      since,
      until: holdMs === undefined ? null : now + holdMs,
    });
  }

  recovered(source: string): void {
    this.#outages.delete(source);
  }

  #current(): Held[] {
    const now = this.#now();
    for (const [source, outage] of this.#outages)
      if (outage.until !== null && outage.until <= now) this.#outages.delete(source);
    return [...this.#outages.values()];
  }
}

/**
 * The calls that write: one of them succeeding shows the storage takes writes again (a read succeeds on
 * a full disk too, so it shows nothing).
 */
const WRITES: ReadonlySet<string> = new Set([
  'createUser',
  'setPassword',
  'createSession',
  'deleteSession',
  'deleteSessionsOf',
  'deleteExpiredSessions',
  'setRole',
  'setSuspended',
  'setMuted',
  'post',
  'cashier',
  'topUp',
  'buyIn',
  'cashOut',
  'startHand',
  'recordAction',
  'settleHand',
  'cancelHand',
  'saveFairLink',
  'appendStaffAction',
  'saveTournament',
  'setNote',
]);

/**
 * `storage` reporting to `readiness` as `requests`: a call the storage refuses for want of space or
 * reach marks it, a write that succeeds clears it. Every call and answer passes through unchanged.
 */
export function watchedStorage(storage: Storage, readiness: StorageReadiness): Storage {
  const SOURCE = 'requests';
  // One wrapper per method, made once: the tables call storage thousands of times a second.
  const wrappers = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const known = wrappers.get(property);
      if (known !== undefined) return known;
      const method = value as (...args: unknown[]) => unknown;
      const writes = WRITES.has(property);
      const wrapper = (...args: unknown[]): unknown => {
        const answer = method.apply(target, args);
        if (!(answer instanceof Promise)) return answer;
        return answer.then(
          (result: unknown) => {
            if (writes) readiness.recovered(SOURCE);
            return result;
          },
          (error: unknown) => {
            if (isStorageUnavailable(error)) readiness.failed(SOURCE, error, REQUEST_OUTAGE_HOLD_MS);
            throw error;
          },
        );
      };
      wrappers.set(property, wrapper);
      return wrapper;
    },
  });
}
