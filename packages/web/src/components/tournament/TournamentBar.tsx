import { useEffect } from 'react';
import { useAppState, useNow, useStore } from '../../hooks';
import {
  clockLeft,
  formatChips,
  levelStakes,
  standingOf,
  tableNumber,
  tournamentScreen,
} from '../../tournament';
import { OutNotice } from './OutNotice';
import { TournamentActions } from './TournamentActions';
import { usePolling } from './polling';
import './tournament.css';

/**
 * Above a tournament table: the level, its blinds and ante, what is left of it, players left, the
 * average stack, his rank; the final table marked; the notice that he was moved here (or that the final
 * table was drawn, his seat drawn again at a table of its own even when its number is his); his place and
 * prize once out. The figures are the tournament page's, read again every few seconds and at each hand.
 */
export default function TournamentBar({ tableId, tournamentId }: { tableId: string; tournamentId: string }) {
  const state = useAppState();
  const store = useStore();
  const page = state.tournamentPages[tournamentId];
  const play = state.tournamentPlay[tournamentId];
  const hand = state.tables[tableId]?.view?.hand?.number ?? null;
  const running = page === undefined || page.detail.state === 'running';
  usePolling(() => store.loadTournament(tournamentId), 3000, running);
  // A new hand may start a new level, and the last one changed the stacks: read the figures again at once.
  useEffect(() => {
    if (hand !== null) void store.loadTournament(tournamentId);
  }, [hand, store, tournamentId]);
  const now = useNow(page?.detail.clock != null, 1000);
  if (page === undefined) return <div className="tournament-bar" aria-busy="true" />;
  const t = page.detail;
  const standing = standingOf(t, state.session?.account.id ?? null);
  const final = t.state === 'running' && t.tables.length === 1 && t.tables[0]?.tableId === tableId;
  const level = t.level ?? 0;
  return (
    <div className="tournament-bar" role="region" aria-label="Tournament" data-testid="tournament-bar">
      {final ? (
        <span className="final-table" data-testid="final-table">
          Final table
        </span>
      ) : (
        <span className="meta">Table {tableNumber(tableId) ?? ''}</span>
      )}
      {t.state === 'running' ? (
        <>
          <span data-testid="tournament-level">
            <b>Level {level + 1}</b> · {levelStakes(t.levels[level])}
          </span>
          {t.clock === null ? null : (
            <span data-testid="tournament-clock">{clockLeft(t.clock, now - page.at)}</span>
          )}
          <span data-testid="players-left">{t.playersLeft} left</span>
          <span data-testid="average-stack">Average {formatChips(standing.average)}</span>
          {standing.rank === null ? null : (
            <span data-testid="my-rank">
              Your rank <b>{standing.rank}</b> of {standing.left}
            </span>
          )}
        </>
      ) : (
        <span>{t.state === 'finished' ? 'The tournament is over.' : 'The tournament was cancelled.'}</span>
      )}
      <button
        type="button"
        className="link"
        onClick={() => {
          store.show(tournamentScreen(tournamentId));
        }}
      >
        Tournament
      </button>
      {play?.moved === true && play.tableId === tableId && play.out === null ? (
        <p className="moved-notice" role="status" data-testid="moved-notice">
          {final
            ? `The final table is drawn: you are at table ${tableNumber(tableId) ?? tableId}.`
            : `You were moved to table ${tableNumber(tableId) ?? tableId} to balance the tables.`}{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              store.dismissMove(tournamentId);
            }}
          >
            OK
          </button>
        </p>
      ) : null}
      {play?.out != null ? <OutNotice place={play.out} currency={t.currency} /> : null}
      {t.state === 'running' ? <TournamentActions detail={t} tournamentId={tournamentId} /> : null}
    </div>
  );
}
