/**
 * The audit: proof that no chip was created or lost. Read-only; runs in one transaction so it sees one
 * consistent state even while the room is playing.
 *
 * Invariants checked (each failure is one line of `problems`):
 * 1. per currency, the balances of all accounts — players, seats, pots, house and the external source —
 *    add up to 0 (the source is minus what the cashier or the top-up paid in);
 * 2. every transaction's postings add up to 0 and are all in the transaction's currency;
 * 3. every account's balance equals the sum of its postings (the running balance was kept right);
 * 4. no account but an external source is below 0;
 * 5. every seat holds at least what its player has put into the hands in progress at its table (those
 *    chips stay in the seat's account until the hand is settled);
 * 6. every settled hand paid out (awards and rake) exactly what was put into it;
 * 7. a pot account (an earlier Felt moved a hand's chips into one as they were bet) holds chips only for
 *    a hand in progress, and then exactly its contributions;
 * 8. every tournament's prize pool holds what its entries brought in less the prizes paid and the
 *    refunds (each reported: entered, paid, refunded, held), and is moved by tournament transactions only;
 * 9. every player of a hand in progress was dealt in with the chips his seat account holds (or, having
 *    left after folding, it holds just what he put in): a stack the table dealt that no ledger entry paid
 *    for; and every player of a settled hand whose settlement moved his seat had that much in it just
 *    before. (Between hands only the tables know their stacks: the console's audit asks them,
 *    ./live-stacks.ts.)
 *
 * The totals show where the chips are: what the hands in progress hold is counted in `pots`, not `seats`.
 */
import {
  CURRENCIES,
  type AuditReport,
  type Currency,
  type CurrencyTotals,
  type PrizePoolReport,
} from '../storage/types.js';
import { intCol, intColOr, textCol, type SqlExecutor } from '../storage/sql.js';

interface MutableTotals {
  accounts: number;
  seats: number;
  pots: number;
  house: number;
  prizePools: number;
  external: number;
}

const isCurrency = (value: string): value is Currency => (CURRENCIES as readonly string[]).includes(value);

export async function auditLedger(tx: SqlExecutor): Promise<AuditReport> {
  const problems: string[] = [];
  const totals: Record<Currency, MutableTotals> = {
    play: { accounts: 0, seats: 0, pots: 0, house: 0, prizePools: 0, external: 0 },
    real: { accounts: 0, seats: 0, pots: 0, house: 0, prizePools: 0, external: 0 },
  };
  const byKind = await tx.all(
    'SELECT currency, kind, SUM(balance) AS total FROM ledger_accounts GROUP BY currency, kind',
  );
  for (const row of byKind) {
    const currency = textCol(row, 'currency');
    const kind = textCol(row, 'kind');
    const total = intColOr(row, 'total', 0);
    if (!isCurrency(currency)) {
      problems.push(`accounts in an unknown currency ${JSON.stringify(currency)}: ${total}`);
      continue;
    }
    const t = totals[currency];
    switch (kind) {
      case 'user':
        t.accounts += total;
        break;
      case 'seat':
        t.seats += total;
        break;
      case 'pot':
        t.pots += total;
        break;
      case 'house':
        t.house += total;
        break;
      case 'prize-pool':
        t.prizePools += total;
        break;
      case 'cashier':
      case 'top-up':
        t.external += total;
        break;
      default:
        problems.push(`accounts of an unknown kind ${JSON.stringify(kind)}: ${total}`);
    }
  }
  // What each player has put into the hands in progress at a table, but for a hand whose pot
  // account holds them (begun by an earlier Felt).
  const committed = await tx.all(
    `SELECT h.currency, h.table_id, hp.user_id,
            SUM(CASE WHEN COALESCE(pot.balance, 0) = 0 THEN hp.contributed ELSE 0 END) AS committed,
            COALESCE(MAX(seat.balance), 0) AS seat
       FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
       LEFT JOIN ledger_accounts pot ON pot.account_key = 'pot:' || h.currency || ':' || CAST(h.id AS TEXT)
       LEFT JOIN ledger_accounts seat
         ON seat.account_key = 'seat:' || h.currency || ':' || CAST(hp.user_id AS TEXT) || ':' || h.table_id
      WHERE h.status = 'in-progress'
      GROUP BY h.currency, h.table_id, hp.user_id`,
  );
  for (const row of committed) {
    const currency = textCol(row, 'currency');
    const amount = intCol(row, 'committed');
    const seat = intCol(row, 'seat');
    if (amount > seat) {
      problems.push(
        `user ${intCol(row, 'user_id')} has put ${amount} into hands in progress at ${textCol(row, 'table_id')} but his seat holds ${seat}`,
      );
    }
    if (isCurrency(currency)) {
      totals[currency].seats -= amount;
      totals[currency].pots += amount;
    }
  }
  const currencies = {} as Record<Currency, CurrencyTotals>;
  for (const currency of CURRENCIES) {
    const t = totals[currency];
    const sum = t.accounts + t.seats + t.pots + t.house + t.prizePools + t.external;
    if (sum !== 0) problems.push(`${currency}: the accounts add up to ${sum}, not 0`);
    currencies[currency] = { ...t, sum };
  }

  const unbalanced = await tx.all(
    'SELECT transaction_id, SUM(amount) AS total FROM ledger_postings GROUP BY transaction_id HAVING SUM(amount) <> 0',
  );
  for (const row of unbalanced) {
    problems.push(`transaction ${intCol(row, 'transaction_id')} is unbalanced by ${intCol(row, 'total')}`);
  }
  const mixed = await tx.all(
    `SELECT DISTINCT p.transaction_id FROM ledger_postings p
       JOIN ledger_transactions t ON t.id = p.transaction_id
       JOIN ledger_accounts a ON a.account_key = p.account_key
      WHERE a.currency <> t.currency`,
  );
  for (const row of mixed) problems.push(`transaction ${intCol(row, 'transaction_id')} mixes currencies`);

  const drifted = await tx.all(
    `SELECT a.account_key, a.balance, COALESCE(SUM(p.amount), 0) AS posted
       FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_key = a.account_key
      GROUP BY a.account_key, a.balance
     HAVING a.balance <> COALESCE(SUM(p.amount), 0)`,
  );
  for (const row of drifted) {
    problems.push(
      `account ${textCol(row, 'account_key')} holds ${intCol(row, 'balance')} but its postings add up to ${intCol(row, 'posted')}`,
    );
  }
  const negative = await tx.all(
    "SELECT account_key, balance FROM ledger_accounts WHERE balance < 0 AND kind NOT IN ('cashier', 'top-up')",
  );
  for (const row of negative) {
    problems.push(`account ${textCol(row, 'account_key')} is negative: ${intCol(row, 'balance')}`);
  }

  const legacyPots = await tx.all(
    `SELECT h.id, a.balance AS pot,
            (SELECT COALESCE(SUM(hp.contributed), 0) FROM hand_players hp WHERE hp.hand_id = h.id) AS contributed
       FROM hands h JOIN ledger_accounts a ON a.account_key = 'pot:' || h.currency || ':' || CAST(h.id AS TEXT)
      WHERE h.status = 'in-progress' AND a.balance <> 0`,
  );
  for (const row of legacyPots) {
    const pot = intCol(row, 'pot');
    const contributed = intCol(row, 'contributed');
    if (pot !== contributed) {
      problems.push(
        `hand ${intCol(row, 'id')} (in progress): the pot holds ${pot}, the contributions add up to ${contributed}`,
      );
    }
  }
  const mispaid = await tx.all(
    `SELECT h.id, h.rake + SUM(hp.won) AS paid, SUM(hp.contributed) AS contributed
       FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
      WHERE h.status = 'settled'
      GROUP BY h.id, h.rake
     HAVING h.rake + SUM(hp.won) <> SUM(hp.contributed)`,
  );
  for (const row of mispaid) {
    problems.push(
      `hand ${intCol(row, 'id')} paid out ${intCol(row, 'paid')} but ${intCol(row, 'contributed')} was put in`,
    );
  }
  const leftOver = await tx.all(
    `SELECT a.account_key, a.balance FROM ledger_accounts a LEFT JOIN hands h ON h.id = a.hand_id
      WHERE a.kind = 'pot' AND a.balance <> 0 AND (h.status IS NULL OR h.status <> 'in-progress')`,
  );
  for (const row of leftOver) {
    problems.push(
      `${textCol(row, 'account_key')} holds ${intCol(row, 'balance')} but its hand is not in progress`,
    );
  }
  await auditDealtStacks(tx, problems);
  await auditSettledStacks(tx, problems);
  const prizePools = await auditPrizePools(tx, problems);
  const handsInProgress = intCol(
    (await tx.get("SELECT COUNT(*) AS n FROM hands WHERE status = 'in-progress'")) ?? { n: 0 },
    'n',
  );
  const transactions = intCol(
    (await tx.get('SELECT COUNT(*) AS n FROM ledger_transactions')) ?? { n: 0 },
    'n',
  );
  return {
    conserved: problems.length === 0,
    currencies,
    transactions,
    handsInProgress,
    prizePools,
    problems,
  };
}

/** Each player's stack at the deal of a hand in progress (its start state) against his seat account. */
async function auditDealtStacks(tx: SqlExecutor, problems: string[]): Promise<void> {
  const rows = await tx.all(
    `SELECT h.id, h.table_id, h.start_state, hp.user_id, hp.contributed, COALESCE(seat.balance, 0) AS seat
       FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
       LEFT JOIN ledger_accounts seat
         ON seat.account_key = 'seat:' || h.currency || ':' || CAST(hp.user_id AS TEXT) || ':' || h.table_id
      WHERE h.status = 'in-progress' AND h.start_state IS NOT NULL AND h.currency IN ('play', 'real')
        AND NOT EXISTS (SELECT 1 FROM ledger_accounts pot
                         WHERE pot.account_key = 'pot:' || h.currency || ':' || CAST(h.id AS TEXT)
                           AND pot.balance <> 0)
      ORDER BY h.id, hp.user_id`,
  );
  const starts = new Map<number, DealtStacks | null>();
  for (const row of rows) {
    const handId = intCol(row, 'id');
    if (!starts.has(handId)) {
      const read = dealtStacks(textCol(row, 'start_state'));
      if (read === null) problems.push(`hand ${handId} (in progress): its start state does not read`);
      starts.set(handId, read);
    }
    const dealt = starts.get(handId);
    if (dealt === null) continue;
    const userId = intCol(row, 'user_id');
    const seat = intCol(row, 'seat');
    const stack = dealt?.get(userId);
    if (stack === undefined) {
      problems.push(
        `hand ${handId} (in progress): user ${userId} plays it but its start state deals him nothing`,
      );
    } else if (seat !== stack && seat !== intCol(row, 'contributed')) {
      problems.push(
        `hand ${handId} (in progress) at ${textCol(row, 'table_id')}: user ${userId} was dealt in with ${stack} but his seat account holds ${seat}`,
      );
    }
  }
}

/**
 * Each settled hand's players whose seat its settlement moved: the seat's balance just before it (its
 * postings up to then, in transaction order) against the stack he was dealt. A player it did not move
 * (net 0) leaves no trace to compare; the live audit sees him.
 */
async function auditSettledStacks(tx: SqlExecutor, problems: string[]): Promise<void> {
  const rows = await tx.all(
    `WITH seat_postings AS (
       SELECT p.transaction_id, p.account_key, p.amount,
              SUM(p.amount) OVER (PARTITION BY p.account_key ORDER BY p.transaction_id
                                  ROWS UNBOUNDED PRECEDING) - p.amount AS before
         FROM ledger_postings p JOIN ledger_accounts a ON a.account_key = p.account_key
        WHERE a.kind = 'seat')
     SELECT h.id, h.table_id, h.start_state, a.user_id, sp.before, hp.contributed
       FROM hands h
       JOIN ledger_transactions t ON t.kind = 'hand' AND t.memo = 'hand ' || CAST(h.id AS TEXT)
       JOIN seat_postings sp ON sp.transaction_id = t.id
       JOIN ledger_accounts a ON a.account_key = sp.account_key
       JOIN hand_players hp ON hp.hand_id = h.id AND hp.user_id = a.user_id
      WHERE h.status = 'settled' AND h.start_state IS NOT NULL
      ORDER BY h.id, a.user_id`,
  );
  let handId = -1;
  let dealt: DealtStacks | null = null;
  for (const row of rows) {
    if (intCol(row, 'id') !== handId) {
      handId = intCol(row, 'id');
      dealt = dealtStacks(textCol(row, 'start_state'));
      if (dealt === null) problems.push(`hand ${handId}: its start state does not read`);
    }
    if (dealt === null) continue;
    const userId = intCol(row, 'user_id');
    const stack = dealt.get(userId);
    const before = intCol(row, 'before');
    if (stack !== undefined && before !== stack && before !== intCol(row, 'contributed')) {
      problems.push(
        `hand ${handId} at ${textCol(row, 'table_id')}: user ${userId} was dealt in with ${stack} but his seat account held ${before}`,
      );
    }
  }
}

type DealtStacks = ReadonlyMap<number, number>;

/** Each account's stack at the deal, from a stored start state (../table/hand-start.ts); null if unreadable. */
function dealtStacks(json: string): DealtStacks | null {
  try {
    const start = JSON.parse(json) as { accounts?: unknown; stacks?: unknown };
    const { accounts, stacks } = start;
    if (!Array.isArray(accounts) || !Array.isArray(stacks)) return null;
    return new Map(accounts.map((account, p): [number, number] => [Number(account), Number(stacks[p])]));
  } catch {
    return null;
  }
}

const POOL_KINDS: Readonly<Record<string, 'entered' | 'refunded' | 'paid'>> = {
  'tournament-entry': 'entered',
  'tournament-refund': 'refunded',
  'tournament-prize': 'paid',
};

/** Each prize pool by what moved it: entries in, refunds and prizes out; anything else is a problem. */
async function auditPrizePools(tx: SqlExecutor, problems: string[]): Promise<PrizePoolReport[]> {
  const rows = await tx.all(
    `SELECT a.tournament_id, a.currency, a.balance, t.kind, COALESCE(SUM(p.amount), 0) AS moved
       FROM ledger_accounts a
       LEFT JOIN ledger_postings p ON p.account_key = a.account_key
       LEFT JOIN ledger_transactions t ON t.id = p.transaction_id
      WHERE a.kind = 'prize-pool'
      GROUP BY a.account_key, a.tournament_id, a.currency, a.balance, t.kind
      ORDER BY a.tournament_id, a.currency`,
  );
  const pools = new Map<string, { -readonly [K in keyof PrizePoolReport]: PrizePoolReport[K] }>();
  for (const row of rows) {
    const tournamentId = textCol(row, 'tournament_id');
    const currency = textCol(row, 'currency');
    if (!isCurrency(currency)) continue;
    const key = `${currency}:${tournamentId}`;
    const pool = pools.get(key) ?? {
      tournamentId,
      currency,
      entered: 0,
      paid: 0,
      refunded: 0,
      held: intCol(row, 'balance'),
    };
    pools.set(key, pool);
    const moved = intCol(row, 'moved');
    const kind = row['kind'] === null || row['kind'] === undefined ? null : textCol(row, 'kind');
    const field = kind === null ? undefined : POOL_KINDS[kind];
    if (field === undefined) {
      if (moved !== 0) problems.push(`prize pool ${key} moved ${moved} by ${kind ?? 'nothing'} transactions`);
      continue;
    }
    pool[field] += field === 'entered' ? moved : -moved;
  }
  for (const [key, pool] of pools) {
    if (pool.entered - pool.paid - pool.refunded !== pool.held)
      problems.push(
        `prize pool ${key} holds ${pool.held}, not its entries ${pool.entered} less prizes ${pool.paid} and refunds ${pool.refunded}`,
      );
  }
  return [...pools.values()];
}
