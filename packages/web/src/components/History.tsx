import type { HandHistoryPayload, HandListItem } from '@felt/protocol';
import { lazy, Suspense, useEffect, useState } from 'react';
import { formatMoney } from '../format';
import { useAppState, useStore } from '../hooks';
import { durationText, sessionStats } from '../session-stats';

/** A hand's replayer and check, with the PHH reader they need: loaded when a hand is opened, not with the page. */
const HandDetail = lazy(() => import('./HandDetail'));

/**
 * The player's own finished hands: the text history, a replayer that steps through the hand, and the
 * check that it was dealt from its committed deck.
 */
export function History({ tableId }: { tableId: string }) {
  const store = useStore();
  const session = useAppState().session;
  const name = session?.account.name ?? null;
  const since = session?.startedAt ?? null;
  const [open, setOpen] = useState(false);
  const [all, setAll] = useState<readonly HandListItem[]>([]);
  const hands = all.filter((item) => item.tableId === tableId);
  const [hand, setHand] = useState<HandHistoryPayload | null>(null);
  useEffect(() => {
    if (!open) return;
    void store.historyList().then(setAll);
  }, [open, store]);
  return (
    <div className="panel">
      <h3>
        <button
          type="button"
          className="link"
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            setHand(null);
          }}
        >
          Hand history
        </button>
      </h3>
      {open ? (
        <>
          {since === null ? null : <SessionLine hands={all} since={since} />}
          {hands.length === 0 ? <p className="meta">No finished hands yet.</p> : null}
          <ul className="log">
            {hands.map((item) => (
              <li key={item.handId}>
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    void store.historyFetch(item.handId).then(setHand);
                  }}
                >
                  #{item.handId} {item.description} ({item.net >= 0 ? '+' : ''}
                  {formatMoney(item.net, item.currency)})
                </button>
              </li>
            ))}
          </ul>
          {hand === null ? null : (
            <Suspense fallback={<p className="meta">Loading the hand…</p>}>
              <HandDetail key={hand.handId} hand={hand} ownName={name} />
            </Suspense>
          )}
        </>
      ) : null}
    </div>
  );
}

/** This session at every table: hands, won or lost by currency, and for how long (the list's hands). */
function SessionLine({ hands, since }: { hands: readonly HandListItem[]; since: number }) {
  const stats = sessionStats(hands, since, Date.now());
  const net = (['play', 'real'] as const)
    .filter((currency) => stats.net[currency] !== undefined)
    .map((currency) => {
      const amount = stats.net[currency]!;
      return `${amount >= 0 ? '+' : ''}${formatMoney(amount, currency)}${currency === 'real' ? '' : ' play'}`;
    });
  return (
    <p className="meta" data-testid="session-stats">
      This session: {stats.hands} {stats.hands === 1 ? 'hand' : 'hands'}
      {net.length === 0 ? '' : ` · ${net.join(' · ')}`} · {durationText(stats.elapsedMs)}
    </p>
  );
}
