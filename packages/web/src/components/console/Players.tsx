import type { StaffPlayerView } from '@felt/protocol';
import { useState, type SyntheticEvent } from 'react';
import { formatMoney, parseAmount } from '../../format';
import { useStore } from '../../hooks';
import type { TransactionsOf } from './Transactions';

const when = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * Find a player by name: balances, seats, sessions and addresses, his last hands; suspend or lift it,
 * end his sessions, credit or debit real money — each with the reason the staff log keeps.
 */
export function Players({
  onHand,
  onTransactions,
}: {
  onHand: (handId: number) => void;
  onTransactions: (of: TransactionsOf) => void;
}) {
  const store = useStore();
  const [name, setName] = useState('');
  const [player, setPlayer] = useState<StaffPlayerView | null>(null);
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const [done, setDone] = useState<string | null>(null);

  const find = async (who: string) => {
    const answer = await store.staff('staff-player', { name: who });
    setPlayer(answer?.player ?? null);
  };
  const search = (event: SyntheticEvent) => {
    event.preventDefault();
    setDone(null);
    void find(name.trim());
  };
  /** Runs an action on the player shown, then shows him again as he now is. */
  const act = async (run: () => Promise<string | null>) => {
    if (player === null) return;
    const said = await run();
    if (said !== null) setDone(said);
    await find(player.name);
  };
  const why = reason.trim();
  const cents = parseAmount(amount);

  return (
    <section aria-label="Players" className="console-players">
      <form className="console-row" onSubmit={search} aria-label="Find a player">
        <label>
          Player name
          <input
            value={name}
            required
            minLength={3}
            maxLength={24}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="primary">
          Find
        </button>
      </form>
      {player === null ? null : (
        <article className="panel" data-testid="staff-player" aria-label={`Player ${player.name}`}>
          <h3>
            {player.name} <span className="meta">#{player.id}</span>
            {player.role === null ? null : <span className="badge">{player.role}</span>}
            {player.suspendedAt === null ? null : (
              <span className="badge danger" data-testid="suspended">
                suspended since {when(player.suspendedAt)}
              </span>
            )}
          </h3>
          <p>
            Play <b data-testid="staff-play-balance">{formatMoney(player.balances.play, 'play')}</b> · Real{' '}
            <b data-testid="staff-real-balance">{formatMoney(player.balances.real, 'real')}</b>
          </p>
          <p>
            <button
              type="button"
              className="link"
              onClick={() => {
                onTransactions({ name: player.name });
              }}
            >
              His ledger transactions
            </button>
          </p>
          <h4>Seats</h4>
          {player.seats.length === 0 ? (
            <p className="meta" data-testid="no-seats">
              Not seated.
            </p>
          ) : (
            <ul data-testid="seats">
              {player.seats.map((seat) => (
                <li key={seat.tableId}>
                  {seat.tableId}: {formatMoney(seat.amount, seat.currency)}
                </li>
              ))}
            </ul>
          )}
          <h4>Sessions</h4>
          <p data-testid="sessions">
            {player.sessions.length} open
            {player.sessions.map((session) => ` · since ${when(session.createdAt)}`).join('')}
            {player.addresses.length === 0
              ? ' · offline'
              : ` · connected from ${player.addresses.join(', ')}`}
          </p>
          <h4>Last hands</h4>
          {player.hands.length === 0 ? (
            <p className="meta">None finished.</p>
          ) : (
            <ul className="log" data-testid="player-hands">
              {player.hands.map((hand) => (
                <li key={hand.handId}>
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      onHand(hand.handId);
                    }}
                  >
                    #{hand.handId}
                  </button>{' '}
                  {when(hand.endedAt)} {hand.tableId} {hand.description} ({hand.net >= 0 ? '+' : ''}
                  {formatMoney(hand.net, hand.currency)})
                </li>
              ))}
            </ul>
          )}
          <h4>Actions</h4>
          <div className="console-row">
            <label className="grow">
              Reason (kept in the staff log)
              <input
                value={reason}
                maxLength={200}
                onChange={(event) => {
                  setReason(event.target.value);
                }}
              />
            </label>
          </div>
          <div className="console-row">
            <button
              type="button"
              className="danger"
              disabled={why === ''}
              onClick={() => {
                const suspended = player.suspendedAt === null;
                void act(async () => {
                  const answer = await store.staff('staff-suspend', {
                    name: player.name,
                    suspended,
                    reason: why,
                  });
                  if (answer === null) return null;
                  if (!suspended) return `${player.name}: suspension lifted`;
                  const at =
                    answer.tables.length === 0
                      ? ''
                      : ` (folded and cashed out at ${answer.tables.join(', ')})`;
                  return `${player.name}: suspended${at}`;
                });
              }}
            >
              {player.suspendedAt === null ? 'Suspend' : 'Lift suspension'}
            </button>
            <button
              type="button"
              disabled={why === ''}
              onClick={() => {
                void act(async () => {
                  const answer = await store.staff('staff-end-sessions', { name: player.name, reason: why });
                  return answer === null ? null : `${player.name}: ${answer.ended} sessions ended`;
                });
              }}
            >
              End sessions
            </button>
            <label>
              Real money
              <input
                value={amount}
                inputMode="decimal"
                placeholder="0.00"
                onChange={(event) => {
                  setAmount(event.target.value);
                }}
              />
            </label>
            {(['credit', 'debit'] as const).map((direction) => (
              <button
                key={direction}
                type="button"
                disabled={why === '' || cents === null || cents === 0}
                onClick={() => {
                  void act(async () => {
                    const answer = await store.staff('staff-cashier', {
                      name: player.name,
                      direction,
                      amount: cents,
                      reason: why,
                    });
                    return answer === null
                      ? null
                      : `${player.name}: ${direction} ${formatMoney(cents ?? 0, 'real')}, real balance ${formatMoney(answer.balances.real, 'real')}`;
                  });
                }}
              >
                {direction === 'credit' ? 'Credit' : 'Debit'}
              </button>
            ))}
          </div>
          {done === null ? null : (
            <p role="status" data-testid="staff-done">
              {done}
            </p>
          )}
        </article>
      )}
    </section>
  );
}
