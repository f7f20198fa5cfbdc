/**
 * The live side of the audit: the chips each seat of a running table holds in memory against its seat
 * account in the ledger. Between hands a seat's stack is its account's balance; during a hand the table
 * keeps the stack it was dealt (what it holds now plus what it put in), and the put-in chips stay in the
 * account until the settlement — so at every moment the table's stack for a seat equals its account, and
 * a player who left a hand he had folded is owed nothing but what he put into it. A seat whose stack no
 * ledger entry paid for (a forged `restore-seat`) breaks it.
 *
 * The table's memory runs ahead of the database while a write is in flight, so each table's writes are
 * counted ({@link WriteTracker}) and its seats are read only while none is: the view taken with nothing
 * in flight, then the ledger read, and the pair kept only if no write began meanwhile.
 */
import type { Storage, TableSeatAccount } from '../storage/types.js';
import type { Table, TableStorage } from '../table/types.js';

/** How many times a busy table is looked at before it is left unchecked. */
const ATTEMPTS = 50;
/** The wait between two looks at a table with a write in flight. */
const RETRY_MS = 10;

/** A table's writes: how many are in flight, and how many have begun. */
export class WriteTracker {
  inFlight = 0;
  begun = 0;

  /**
   * Counts `write` while it runs, and a turn of the event loop after: the table goes on with what it
   * wrote (steps its memory) in the promise callbacks that follow it, before the next turn.
   */
  track<T>(write: Promise<T>): Promise<T> {
    this.inFlight++;
    this.begun++;
    const done = () => {
      setImmediate(() => {
        this.inFlight--;
      });
    };
    write.then(done, done);
    return write;
  }
}

/** The table's storage with each write counted by `tracker` (reads pass through). */
export function trackedStorage(storage: TableStorage, tracker: WriteTracker): TableStorage {
  return {
    buyIn: (...args) => tracker.track(storage.buyIn(...args)),
    cashOut: (...args) => tracker.track(storage.cashOut(...args)),
    startHand: (...args) => tracker.track(storage.startHand(...args)),
    recordAction: (...args) => tracker.track(storage.recordAction(...args)),
    saveFairLink: (...args) => tracker.track(storage.saveFairLink(...args)),
    fairLink: (...args) => storage.fairLink(...args),
  };
}

interface Watched {
  readonly tracker: WriteTracker;
  readonly ledger: Pick<Storage, 'seatsAt'>;
}

const watched = new WeakMap<Table, Watched>();

/** Lets the audit check `table`, an actor this process runs whose writes `tracker` counts. */
export function watchStacks(table: Table, tracker: WriteTracker, ledger: Pick<Storage, 'seatsAt'>): void {
  watched.set(table, { tracker, ledger });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The problems of `table`'s seats against the ledger (none: every stack paid for), or null when it cannot
 * be checked here: not a table this process runs with the ledger's chips, or never still long enough.
 */
export async function checkStacks(table: Table): Promise<string[] | null> {
  const watch = watched.get(table);
  if (watch === undefined || table.config.currency === 'chips') return null;
  const { tracker, ledger } = watch;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (tracker.inFlight > 0) {
      await sleep(RETRY_MS);
      continue;
    }
    const view = table.view(null);
    const begun = tracker.begun;
    const accounts = await ledger.seatsAt(table.id);
    if (tracker.begun === begun) return stackProblems(table.id, view.seats, accounts);
  }
  return null;
}

interface SeatStack {
  readonly seat: number;
  readonly account: number;
  readonly stack: number;
}

/** Each seat's stack against its account, and each account with chips against its seat. */
export function stackProblems(
  tableId: string,
  seats: readonly (SeatStack | null)[],
  accounts: readonly TableSeatAccount[],
): string[] {
  const problems: string[] = [];
  const byUser = new Map(accounts.map((account) => [account.userId, account]));
  const seated = new Set<number>();
  for (const seat of seats) {
    if (seat === null) continue;
    seated.add(seat.account);
    const balance = byUser.get(seat.account)?.balance ?? 0;
    if (seat.stack !== balance) {
      problems.push(
        `table ${tableId} seat ${seat.seat}: user ${seat.account} has ${seat.stack} at the table but his seat account holds ${balance}`,
      );
    }
  }
  for (const account of accounts) {
    if (seated.has(account.userId) || account.balance === account.committed) continue;
    problems.push(
      `table ${tableId}: user ${account.userId}'s seat account holds ${account.balance} but he is not seated there (${account.committed} of it in the hand in progress)`,
    );
  }
  return problems;
}
