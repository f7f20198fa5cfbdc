import type { TableSummary } from '@felt/protocol';
import { useMemo, useState } from 'react';
import { formatMoney, gameName, STRUCTURE_LABELS } from '../format';
import { useAppState, useStore } from '../hooks';
import { groupOf, orderRows, type LobbyOrder, type SortKey } from '../lobby-sort';
import { FilterSelect } from './FilterSelect';
import { SeatsPreview } from './LobbyPreview';

/** The sortable columns: key, heading, and the classes of their cells. */
const COLUMNS: readonly { key: SortKey; label: string; className?: string }[] = [
  { key: 'name', label: 'Table' },
  { key: 'game', label: 'Game' },
  { key: 'structure', label: 'Structure', className: 'wide' },
  { key: 'stakes', label: 'Stakes' },
  { key: 'seats', label: 'Seats', className: 'num' },
  { key: 'averagePot', label: 'Avg pot', className: 'num wide' },
  { key: 'handsPerHour', label: 'Hands/h', className: 'num wide' },
];

/** Every table of the room, with filters; open any number of them, or queue for a full one. */
export function Lobby() {
  const state = useAppState();
  const [game, setGame] = useState('');
  const [structure, setStructure] = useState('');
  const [currency, setCurrency] = useState('');
  const [freeOnly, setFreeOnly] = useState(false);
  const [order, setOrder] = useState<LobbyOrder>({ key: null, descending: false, grouped: false });

  const games = useMemo(() => [...new Set(state.lobby.map((row) => row.game))], [state.lobby]);
  const structures = useMemo(() => [...new Set(state.lobby.map((row) => row.structure))], [state.lobby]);
  const rows = orderRows(
    state.lobby.filter(
      (row) =>
        (game === '' || row.game === game) &&
        (structure === '' || row.structure === structure) &&
        (currency === '' || row.currency === currency) &&
        (!freeOnly || row.free > 0),
    ),
    order,
  );
  /** A column's heading click: sort by it, then the other way, then back to the room's order. */
  const sortBy = (key: SortKey): void => {
    if (order.key !== key) setOrder({ ...order, key, descending: false });
    else if (!order.descending) setOrder({ ...order, descending: true });
    else setOrder({ ...order, key: null, descending: false });
  };

  return (
    <section className="lobby" aria-labelledby="lobby-title">
      <h2 id="lobby-title">Lobby</h2>
      <div className="filters" role="search" aria-label="Filter tables">
        <FilterSelect
          label="Game"
          value={game}
          onChange={setGame}
          all="All games"
          options={games.map((id) => ({ value: id, label: gameName(id) }))}
        />
        <FilterSelect
          label="Structure"
          value={structure}
          onChange={setStructure}
          all="All structures"
          options={structures.map((id) => ({ value: id, label: STRUCTURE_LABELS[id] ?? id }))}
        />
        <FilterSelect
          label="Money"
          value={currency}
          onChange={setCurrency}
          all="Play and real"
          options={[
            { value: 'play', label: 'Play money' },
            { value: 'real', label: 'Real money' },
          ]}
        />
        <label className="inline">
          <span>
            <input
              type="checkbox"
              checked={freeOnly}
              onChange={(event) => {
                setFreeOnly(event.target.checked);
              }}
            />{' '}
            With free seats
          </span>
        </label>
        <label className="inline">
          <span>
            <input
              type="checkbox"
              checked={order.grouped}
              onChange={(event) => {
                setOrder({ ...order, grouped: event.target.checked });
              }}
            />{' '}
            Group by game and stakes
          </span>
        </label>
      </div>
      <table className="lobby-table" aria-label="Tables">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={column.className}
                aria-sort={order.key !== column.key ? 'none' : order.descending ? 'descending' : 'ascending'}
              >
                <button
                  type="button"
                  className="link sort"
                  onClick={() => {
                    sortBy(column.key);
                  }}
                >
                  {column.label}
                  {order.key === column.key ? (order.descending ? ' ▼' : ' ▲') : ''}
                </button>
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const group = groupOf(row);
            const heading =
              order.grouped && (index === 0 || groupOf(rows[index - 1]!) !== group) ? (
                <tr key={`group ${group}`} className="group">
                  <th scope="rowgroup" colSpan={COLUMNS.length + 1}>
                    {group}
                  </th>
                </tr>
              ) : null;
            return [
              heading,
              <LobbyRow
                key={row.tableId}
                row={row}
                waiting={state.waitlist[row.tableId]}
                open={row.tableId in state.tables}
              />,
            ];
          })}
        </tbody>
      </table>
      {rows.length === 0 ? (
        <p>{state.lobby.length === 0 ? 'Loading tables…' : 'No table matches the filters.'}</p>
      ) : null}
      <p className="meta">
        {rows.length} of {state.lobby.length} tables
      </p>
    </section>
  );
}

function LobbyRow({ row, waiting, open }: { row: TableSummary; waiting: number | undefined; open: boolean }) {
  const store = useStore();
  const full = row.free === 0;
  return (
    <tr className={full ? 'full' : undefined} data-table-id={row.tableId}>
      <td>
        {row.name}
        {row.currency === 'real' ? ' ($)' : ''}
      </td>
      <td>{gameName(row.game)}</td>
      <td className="wide">{STRUCTURE_LABELS[row.structure] ?? row.structure}</td>
      <td>{row.currency === 'real' ? `$${row.stakesText}` : row.stakesText}</td>
      <td className="num">
        <SeatsPreview row={row} />
      </td>
      <td className="num wide">{formatMoney(row.averagePot, row.currency)}</td>
      <td className="num wide">{Math.round(row.handsPerHour)}</td>
      <td className="actions">
        <button
          type="button"
          className={full ? undefined : 'primary'}
          aria-label={`${open ? 'Go to' : 'Open'} ${row.name}`}
          onClick={() => {
            void store.openTable(row.tableId);
          }}
        >
          {open ? 'Go to' : 'Open'}
        </button>
        {full ? (
          waiting === undefined ? (
            <button
              type="button"
              aria-label={`Join the waiting list of ${row.name}`}
              onClick={() => {
                void store.joinWaitlist(row.tableId);
              }}
            >
              Wait list
            </button>
          ) : (
            <button
              type="button"
              aria-label={`Leave the waiting list of ${row.name}`}
              onClick={() => {
                void store.leaveWaitlist(row.tableId);
              }}
            >
              #{waiting} · leave
            </button>
          )
        ) : null}
      </td>
    </tr>
  );
}
