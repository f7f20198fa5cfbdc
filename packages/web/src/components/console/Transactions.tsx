import type { LedgerAccountView, LedgerTransactionView } from '@felt/protocol';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { formatMoney } from '../../format';
import { useStore } from '../../hooks';

/** Whose transactions the console was asked for: a player's (from his page) or a hand's. */
export type TransactionsOf = { readonly name: string } | { readonly handId: number };

function accountWords(account: LedgerAccountView): string {
  switch (account.kind) {
    case 'user':
      return `${account.userName ?? ''} (balance)`;
    case 'seat':
      return `${account.userName ?? ''} at ${account.tableId ?? ''}`;
    case 'pot':
      return `pot of hand #${String(account.handId)}`;
    case 'house':
      return 'house (rake, fees)';
    case 'prize-pool':
      return `prize pool of ${account.tournamentId ?? ''}`;
    case 'cashier':
      return 'cashier';
    case 'top-up':
      return 'play-money top-ups';
  }
}

/** One transaction: what it was for, each posting, and their sum (0: the ledger takes no other). */
function Transaction({
  transaction,
  onHand,
}: {
  transaction: LedgerTransactionView;
  onHand: (id: number) => void;
}) {
  const { handId } = transaction;
  return (
    <article className="panel" data-testid="transaction" aria-label={`Transaction ${transaction.id}`}>
      <h4>
        #{transaction.id} {transaction.kind}{' '}
        <span className="meta">
          {transaction.memo ?? ''} · {new Date(transaction.createdAt).toISOString()}
        </span>{' '}
        {handId === null ? null : (
          <button
            type="button"
            className="link"
            onClick={() => {
              onHand(handId);
            }}
          >
            hand #{handId}
          </button>
        )}
      </h4>
      <table className="lobby-table">
        <thead>
          <tr>
            <th>Account</th>
            <th>Amount</th>
          </tr>
        </thead>
        <tbody>
          {transaction.postings.map((posting, index) => (
            <tr key={index} data-testid="posting">
              <td>{accountWords(posting.account)}</td>
              <td className="num">{formatMoney(posting.amount, transaction.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>Sum</th>
            <td className="num" data-testid="transaction-sum">
              {formatMoney(transaction.sum, transaction.currency)}
            </td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}

/**
 * Ledger transactions with their postings: one by id, or the newest of the player or hand the console
 * was sent here for. Each lookup is logged by the room.
 */
export function Transactions({ of, onHand }: { of: TransactionsOf | null; onHand: (id: number) => void }) {
  const store = useStore();
  const [wanted, setWanted] = useState('');
  const [shown, setShown] = useState<{ title: string; list: readonly LedgerTransactionView[] } | null>(null);
  useEffect(() => {
    if (of === null) return;
    const title = 'name' in of ? `Transactions of ${of.name}` : `Transactions of hand #${of.handId}`;
    void store.staff('staff-transactions', { ...of }).then((answer) => {
      setShown(answer === null ? null : { title, list: answer.transactions });
    });
  }, [of, store]);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const id = Number(wanted);
    if (!Number.isSafeInteger(id) || id <= 0) return;
    void store.staff('staff-transaction', { transactionId: id }).then((answer) => {
      setShown(answer === null ? null : { title: `Transaction #${id}`, list: [answer.transaction] });
    });
  };
  return (
    <div className="transactions">
      <form className="console-row" onSubmit={submit} aria-label="Look up a transaction">
        <label>
          Transaction id
          <input
            value={wanted}
            inputMode="numeric"
            pattern="[0-9]+"
            required
            onChange={(event) => {
              setWanted(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="primary">
          Look up
        </button>
      </form>
      {shown === null ? null : (
        <section aria-label={shown.title} data-testid="transactions">
          <h3>{shown.title}</h3>
          {shown.list.length === 0 ? <p className="meta">None.</p> : null}
          {shown.list.map((transaction) => (
            <Transaction key={transaction.id} transaction={transaction} onHand={onHand} />
          ))}
        </section>
      )}
    </div>
  );
}
