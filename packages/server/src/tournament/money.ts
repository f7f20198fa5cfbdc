/**
 * A tournament's money through the ledger (docs/storage.md): each entry is one balanced transaction —
 * the buy-in from the player's balance to the tournament's prize pool, the fee to the house — and each
 * refund the same reversed; prizes are paid from the pool. Tournament chips never come here.
 */
import { fail, type Result } from '@felt/engine';
import type { Currency, Ledger, LedgerAccount, Posting, TransactionKind } from '../storage/types.js';
import type { AccountId } from '../table/types.js';
import type { EntryPrice, EntryRefusal, TournamentMoney } from './director.js';

export function ledgerMoney(
  ledger: Pick<Ledger, 'post'>,
  tournamentId: string,
  currency: Currency,
): TournamentMoney {
  const pool: LedgerAccount = { kind: 'prize-pool', currency, tournamentId };
  const house: LedgerAccount = { kind: 'house', currency };
  const user = (userId: AccountId): LedgerAccount => ({ kind: 'user', currency, userId });
  const post = async (kind: TransactionKind, postings: Posting[]) => {
    const moving = postings.filter((p) => p.amount !== 0);
    if (moving.length === 0) return { ok: true as const, value: undefined };
    const posted = await ledger.post(kind, moving, tournamentId);
    return posted.ok ? { ok: true as const, value: undefined } : posted;
  };
  const entry = (userId: AccountId, { buyIn, fee }: EntryPrice): Posting[] => [
    { account: user(userId), amount: -(buyIn + fee) },
    { account: pool, amount: buyIn },
    { account: house, amount: fee },
  ];
  const reversed = (postings: Posting[]): Posting[] => postings.map((p) => ({ ...p, amount: -p.amount }));
  const sure = async (kind: TransactionKind, postings: Posting[]): Promise<void> => {
    const done = await post(kind, postings);
    // The pool and the house hold what they give back: a refusal here is a broken ledger.
    if (!done.ok) throw new Error(`${kind} for ${tournamentId}: ${done.error.message}`);
  };
  return {
    async enter(account, price): Promise<Result<void, EntryRefusal>> {
      const done = await post('tournament-entry', entry(account, price));
      if (done.ok) return done;
      const code = done.error.code === 'INSUFFICIENT_FUNDS' ? 'INSUFFICIENT_FUNDS' : 'PAYMENT_REFUSED';
      return fail(code, done.error.message);
    },
    refund: (account, price) => sure('tournament-refund', reversed(entry(account, price))),
    pay: (account, amount) =>
      sure('tournament-prize', [
        { account: pool, amount: -amount },
        { account: user(account), amount },
      ]),
  };
}
