import type { SeatPreview, TableSummary } from '@felt/protocol';
import { useState } from 'react';
import { formatMoney } from '../format';
import { useStore } from '../hooks';

/**
 * A lobby row's seats count, which opens a preview of who sits there (names and stacks) on hover or
 * click: asked of the room each time it opens (`table-preview`), so the stacks are the table's now.
 */
export function SeatsPreview({ row }: { row: TableSummary }) {
  const store = useStore();
  const [open, setOpen] = useState<'hover' | 'pinned' | null>(null);
  const [seats, setSeats] = useState<readonly SeatPreview[] | null>(null);
  const show = (how: 'hover' | 'pinned') => {
    if (open === null) {
      setSeats(null);
      void store.tablePreview(row.tableId).then(setSeats);
    }
    setOpen(how);
  };
  const id = `preview-${row.tableId}`;
  return (
    <span
      className="seats-preview"
      onMouseEnter={() => {
        if (open === null) show('hover');
      }}
      onMouseLeave={() => {
        if (open === 'hover') setOpen(null);
      }}
    >
      <button
        type="button"
        className="link"
        aria-expanded={open !== null}
        aria-controls={id}
        aria-label={`Who sits at ${row.name}: ${row.taken} of ${row.seats} seats taken`}
        onClick={() => {
          if (open === 'pinned') setOpen(null);
          else show('pinned');
        }}
      >
        {row.taken}/{row.seats}
        {row.waiting > 0 ? ` (+${row.waiting})` : ''}
      </button>
      {open === null ? null : (
        <div className="seats-preview-box" id={id} role="region" aria-label={`Who sits at ${row.name}`}>
          {seats === null ? (
            <p className="meta">Loading…</p>
          ) : seats.length === 0 ? (
            <p className="meta">Nobody sits here yet.</p>
          ) : (
            <ul>
              {seats.map((seat) => (
                <li key={seat.seat} data-testid="preview-seat">
                  <span className="preview-name">
                    {seat.bot ? <span className="bot-badge">BOT</span> : null}
                    {seat.name}
                    {seat.status === 'sitting-out' ? <span className="meta"> (sitting out)</span> : null}
                  </span>
                  <span className="preview-stack">{formatMoney(seat.stack, row.currency)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </span>
  );
}
