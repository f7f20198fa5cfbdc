import { useState, type SyntheticEvent } from 'react';
import { useAppState, useStore } from '../../hooks';

/**
 * The room's tables: pause or resume one (the hand in play finishes, no other starts), close one after
 * its hand, open a new one from the table file's fields, drain the room for a restart (every table
 * paused), and a message to every connection or to one table's watchers.
 */
export function Tables() {
  const store = useStore();
  const { lobby } = useAppState();
  const [reason, setReason] = useState('');
  const [tableId, setTableId] = useState('');
  const [text, setText] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const why = reason.trim();

  const pause = (paused: boolean, table?: string) => {
    const fields = table === undefined ? { paused, reason: why } : { tableId: table, paused, reason: why };
    void store.staff('staff-pause', fields).then((answer) => {
      if (answer === null) return;
      const what = table === undefined ? `all ${answer.tables.length} tables` : table;
      setDone(`${what}: ${paused ? 'paused (hands in play finish)' : 'resumed'}`);
    });
  };
  const close = (table: string) => {
    void store.staff('staff-table-close', { tableId: table, reason: why }).then((answer) => {
      if (answer !== null) setDone(`${answer.tableId}: closing after its hand (players cashed out)`);
    });
  };
  const send = (event: SyntheticEvent) => {
    event.preventDefault();
    void store.staff('staff-broadcast', tableId === '' ? { text } : { tableId, text }).then((answer) => {
      if (answer !== null) setDone(`Message sent to ${answer.reached} connections.`);
    });
  };

  return (
    <section aria-label="Tables">
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
        <button
          type="button"
          className="danger"
          disabled={why === ''}
          onClick={() => {
            pause(true);
          }}
        >
          Drain the room (pause every table)
        </button>
        <button
          type="button"
          disabled={why === ''}
          onClick={() => {
            pause(false);
          }}
        >
          Resume every table
        </button>
      </div>
      <table className="lobby-table" data-testid="staff-tables">
        <thead>
          <tr>
            <th>Table</th>
            <th>Seats</th>
            <th>Hands/h</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {lobby.map((table) => (
            <tr key={table.tableId} data-table-id={table.tableId}>
              <td>{table.name}</td>
              <td className="num">
                {table.taken}/{table.seats}
              </td>
              <td className="num">{table.handsPerHour}</td>
              <td>{table.paused ? 'paused' : 'running'}</td>
              <td className="actions">
                <button
                  type="button"
                  disabled={why === ''}
                  onClick={() => {
                    pause(!table.paused, table.tableId);
                  }}
                >
                  {table.paused ? 'Resume' : 'Pause'}
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={why === ''}
                  aria-label={`Close ${table.name} after its hand`}
                  onClick={() => {
                    close(table.tableId);
                  }}
                >
                  Close
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <OpenTable
        reason={why}
        onOpened={(id) => {
          setDone(`${id}: opened`);
        }}
      />
      <form className="console-row" onSubmit={send} aria-label="Broadcast">
        <label>
          To
          <select
            value={tableId}
            onChange={(event) => {
              setTableId(event.target.value);
            }}
          >
            <option value="">the whole room</option>
            {lobby.map((table) => (
              <option key={table.tableId} value={table.tableId}>
                {table.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Message
          <input
            value={text}
            required
            maxLength={500}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
        </label>
        <button type="submit" className="primary">
          Broadcast
        </button>
      </form>
      {done === null ? null : (
        <p role="status" data-testid="tables-done">
          {done}
        </p>
      )}
    </section>
  );
}

const EXAMPLE_TABLE = JSON.stringify({
  id: 'evening-nl',
  name: "Evening No Limit Hold'em",
  game: 'holdem',
  structure: 'no-limit',
  currency: 'play',
  stakes: { small: 100, big: 200 },
});

/** A new table, written as an entry of the table file (docs/tables.md); the room checks it. */
function OpenTable({ reason, onOpened }: { reason: string; onOpened: (tableId: string) => void }) {
  const store = useStore();
  const [text, setText] = useState(EXAMPLE_TABLE);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="console-row"
      aria-label="Open a table"
      onSubmit={(event) => {
        event.preventDefault();
        let table: unknown;
        try {
          table = JSON.parse(text);
        } catch {
          setProblem('not JSON');
          return;
        }
        setProblem(null);
        void store.staff('staff-table-open', { table, reason }).then((answer) => {
          if (answer !== null) onOpened(answer.tableId);
        });
      }}
    >
      <label className="grow">
        A new table (the table file's fields)
        <textarea
          rows={3}
          value={text}
          aria-invalid={problem !== null}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </label>
      {problem === null ? null : <span role="alert">{problem}</span>}
      <button type="submit" className="primary" disabled={reason === ''}>
        Open the table
      </button>
    </form>
  );
}
