import type { HandHistoryPayload } from '@felt/protocol';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useStore } from '../../hooks';
import { HandSearch } from './HandSearch';
import type { TransactionsOf } from './Transactions';

/**
 * A finished hand by id — or found by table and time — with every card (the room refuses a hand still
 * being played, and logs the lookup): its text history, whose lines show each player's hole cards.
 */
export function Hands({
  handId,
  onTransactions,
}: {
  handId: number | null;
  onTransactions: (of: TransactionsOf) => void;
}) {
  const store = useStore();
  const [wanted, setWanted] = useState(handId === null ? '' : String(handId));
  const [hand, setHand] = useState<HandHistoryPayload | null>(null);
  const look = async (id: number) => {
    const answer = await store.staff('staff-hand', { handId: id });
    setHand(answer?.hand ?? null);
  };
  // A hand another part of the console asked for (a player's hand, a report's supporting hand).
  useEffect(() => {
    if (handId === null) return;
    setWanted(String(handId));
    void store.staff('staff-hand', { handId }).then((answer) => {
      setHand(answer?.hand ?? null);
    });
  }, [handId, store]);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const id = Number(wanted);
    if (Number.isSafeInteger(id) && id > 0) void look(id);
  };
  return (
    <section aria-label="Hands">
      <HandSearch
        onHand={(id) => {
          setWanted(String(id));
          void look(id);
        }}
      />
      <form className="console-row" onSubmit={submit} aria-label="Look up a hand">
        <label>
          Hand id
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
      {hand === null ? null : (
        <article className="panel" data-testid="staff-hand" aria-label={`Hand ${hand.handId}`}>
          <h3>
            Hand #{hand.handId} <span className="meta">{hand.tableId}</span>
          </h3>
          <p className="meta">
            {hand.description} · {new Date(hand.startedAt).toISOString()} to{' '}
            {new Date(hand.endedAt).toISOString()} · {hand.currency === 'real' ? 'real money' : 'play money'}
          </p>
          <p>
            <button
              type="button"
              className="link"
              onClick={() => {
                onTransactions({ handId: hand.handId });
              }}
            >
              Its ledger transactions
            </button>
          </p>
          <pre className="hand-text">{hand.text}</pre>
        </article>
      )}
    </section>
  );
}
