/**
 * The limit on artificial all-ins (RULES.md §1) across the processes of a room: each grant is a row of
 * `all_in_grants` in PostgreSQL, and each process reads the last 24 hours' rows every tick. PostgreSQL,
 * not NATS: the count must outlive any process (a table moves to a process started after the grant),
 * and NATS core keeps nothing. The tables ask synchronously, so a process answers from what it read at
 * its last load plus its own grants since: two processes granting the same player's last allowance in the
 * same second may both grant it — one all-in too many at worst, never a player refused one he has.
 */
import type { Logger } from '../log.js';
import { intCol, type SqlExecutor } from '../storage/sql.js';
import type { AccountId, AllInCounter } from '../table/types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Grant {
  readonly account: AccountId;
  readonly at: number;
}

export class SharedAllInCounter implements AllInCounter {
  /** The grants of the last day as the last load read them, and this process's grants since. */
  #loaded: Grant[] = [];
  #own: Grant[] = [];

  constructor(
    private readonly db: SqlExecutor,
    private readonly logger: Logger,
  ) {}

  take(account: AccountId, now: number, perDay: number): boolean {
    if (this.left(account, now, perDay) <= 0) return false;
    const grant = { account, at: now };
    this.#own.push(grant);
    this.db
      .run('INSERT INTO all_in_grants (account, granted_at) VALUES (?, ?)', [account, now])
      .catch((error: unknown) => {
        // Still counted here; the other processes miss it (one more all-in for him at worst).
        this.logger.error({ err: error, account }, 'all-in grant not stored');
      });
    return true;
  }

  left(account: AccountId, now: number, perDay: number): number {
    const recent = (grants: readonly Grant[]) =>
      grants.filter((grant) => grant.account === account && now - grant.at < DAY_MS).length;
    return Math.max(0, perDay - recent(this.#loaded) - recent(this.#own));
  }

  /**
   * Reads the last day's grants (every process's) and forgets the older rows. This process's grants
   * written before the read are in it; those not yet written stay counted on their own.
   */
  async load(now: number): Promise<void> {
    const since = now - DAY_MS;
    const rows = await this.db.all('SELECT account, granted_at FROM all_in_grants WHERE granted_at > ?', [
      since,
    ]);
    const loaded = rows.map((row) => ({ account: intCol(row, 'account'), at: intCol(row, 'granted_at') }));
    const stored = new Set(loaded.map((grant) => `${grant.account}@${grant.at}`));
    this.#loaded = loaded;
    // Kept: its grants whose row the read did not see yet (written since, or still on the way).
    this.#own = this.#own.filter((grant) => !stored.has(`${grant.account}@${grant.at}`));
    await this.db.run('DELETE FROM all_in_grants WHERE granted_at <= ?', [since]);
  }
}
