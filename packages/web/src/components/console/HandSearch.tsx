import type { SettledHandView } from '@felt/protocol';
import { useState, type SyntheticEvent } from 'react';
import { useAppState, useStore } from '../../hooks';

/** A local date and time typed in a `datetime-local` box as ms since the epoch; none when empty. */
const instant = (text: string): number | undefined => {
  const ms = new Date(text).getTime();
  return text === '' || Number.isNaN(ms) ? undefined : ms;
};

/** Finished hands by player, table and when they ended, newest first; each opens with every card. */
export function HandSearch({ onHand }: { onHand: (handId: number) => void }) {
  const store = useStore();
  const { lobby } = useAppState();
  const [name, setName] = useState('');
  const [tableId, setTableId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [hands, setHands] = useState<readonly SettledHandView[] | null>(null);
  const search = (event: SyntheticEvent) => {
    event.preventDefault();
    const endedFrom = instant(from);
    const endedTo = instant(to);
    const filter = {
      ...(name.trim() === '' ? {} : { name: name.trim() }),
      ...(tableId === '' ? {} : { tableId }),
      ...(endedFrom === undefined ? {} : { endedFrom }),
      ...(endedTo === undefined ? {} : { endedTo }),
    };
    void store.staff('staff-hands', filter).then((answer) => {
      setHands(answer?.hands ?? null);
    });
  };
  return (
    <>
      <form className="console-row" onSubmit={search} aria-label="Find hands">
        <label>
          Played by
          <input
            value={name}
            placeholder="any player"
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </label>
        <label>
          At table
          <select
            value={tableId}
            onChange={(event) => {
              setTableId(event.target.value);
            }}
          >
            <option value="">any table</option>
            {lobby.map((table) => (
              <option key={table.tableId} value={table.tableId}>
                {table.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Ended from
          <input
            type="datetime-local"
            value={from}
            onChange={(event) => {
              setFrom(event.target.value);
            }}
          />
        </label>
        <label>
          to
          <input
            type="datetime-local"
            value={to}
            onChange={(event) => {
              setTo(event.target.value);
            }}
          />
        </label>
        <button type="submit">Find hands</button>
      </form>
      {hands === null ? null : (
        <ul className="log" data-testid="found-hands">
          {hands.length === 0 ? <li>No finished hand matches.</li> : null}
          {hands.map((hand) => (
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
              {new Date(hand.endedAt).toLocaleString()} {hand.tableId} {hand.description}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
