import type { TournamentSummary } from '@felt/protocol';
import { useEffect, useMemo, useState } from 'react';
import { formatMoney, gameName, STRUCTURE_LABELS, STRUCTURE_SHORT } from '../../format';
import { useAppState, useStore } from '../../hooks';
import { tournamentScreen } from '../../tournament';
import { FilterSelect } from '../FilterSelect';
import { TournamentStateBadge } from './TournamentStateBadge';
import { usePolling } from './polling';
import './tournament.css';

const KIND_LABELS = { 'sit-and-go': 'Sit & go', scheduled: 'Scheduled' } as const;

/** The games of a tournament: one, or the rotation of a mixed game ("Texas Hold'em NL / Razz FL"). */
export function gamesText(t: TournamentSummary, long = false): string {
  return t.games
    .map((g) =>
      long
        ? `${gameName(g.game)} ${STRUCTURE_LABELS[g.structure] ?? g.structure}`
        : `${gameName(g.game)} ${STRUCTURE_SHORT[g.structure] ?? g.structure}`,
    )
    .join(' / ');
}

/** "Starts when full" for a sit & go, else the local start time. */
export function startText(t: TournamentSummary): string {
  if (t.startsAt === null) return 'When full';
  return new Date(t.startsAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/** Buy-in + fee ("10 + 1"), or "Freeroll". */
export function priceText(t: TournamentSummary): string {
  if (t.buyIn === 0 && t.fee === 0) return 'Freeroll';
  return `${formatMoney(t.buyIn, t.currency)} + ${formatMoney(t.fee, t.currency)}`;
}

/** Sit & gos and scheduled tournaments with filters; register, unregister, open a tournament's page. */
export default function TournamentLobby() {
  const state = useAppState();
  const store = useStore();
  const [kind, setKind] = useState('');
  const [game, setGame] = useState('');
  const [phase, setPhase] = useState('');
  const [refusal, setRefusal] = useState<{ id: string; text: string } | null>(null);
  // The room pushes no tournament lobby: it is read again every few seconds while shown.
  usePolling(() => store.loadTournaments(), 3000);

  const games = useMemo(
    () => [...new Set(state.tournaments.flatMap((t) => t.games.map((g) => g.game)))],
    [state.tournaments],
  );
  const rows = state.tournaments.filter(
    (t) =>
      (kind === '' || t.kind === kind) &&
      (game === '' || t.games.some((g) => g.game === game)) &&
      (phase === '' || t.state === phase),
  );
  useEffect(() => {
    if (refusal !== null && !state.tournaments.some((t) => t.tournamentId === refusal.id)) setRefusal(null);
  }, [refusal, state.tournaments]);

  const enter = async (t: TournamentSummary, register: boolean): Promise<void> => {
    setRefusal(null);
    const text = await store.enterTournament(t.tournamentId, register);
    if (text !== null) setRefusal({ id: t.tournamentId, text });
  };

  return (
    <section className="lobby tournament-lobby" aria-labelledby="tournament-lobby-title">
      <h2 id="tournament-lobby-title">Tournaments</h2>
      <div className="filters" role="search" aria-label="Filter tournaments">
        <FilterSelect
          label="Kind"
          value={kind}
          onChange={setKind}
          all="Sit & gos and scheduled"
          options={[
            { value: 'sit-and-go', label: 'Sit & gos' },
            { value: 'scheduled', label: 'Scheduled' },
          ]}
        />
        <FilterSelect
          label="Game"
          value={game}
          onChange={setGame}
          all="All games"
          options={games.map((id) => ({ value: id, label: gameName(id) }))}
        />
        <FilterSelect
          label="State"
          value={phase}
          onChange={setPhase}
          all="Any state"
          options={[
            { value: 'registering', label: 'Registering' },
            { value: 'running', label: 'Running' },
            { value: 'finished', label: 'Finished' },
            { value: 'cancelled', label: 'Cancelled' },
          ]}
        />
      </div>
      {refusal === null ? null : (
        <p className="refusal" role="alert" data-testid="tournament-refusal">
          {refusal.text}
        </p>
      )}
      <table className="lobby-table" aria-label="Tournaments">
        <thead>
          <tr>
            <th scope="col">Tournament</th>
            <th scope="col">Game</th>
            <th scope="col">Buy-in + fee</th>
            <th scope="col" className="num">
              Entrants
            </th>
            <th scope="col" className="wide">
              Starts
            </th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.tournamentId} data-tournament-id={t.tournamentId}>
              <td>
                {t.name}
                <span className="meta"> · {KIND_LABELS[t.kind]}</span>
              </td>
              <td>{gamesText(t)}</td>
              <td>{priceText(t)}</td>
              <td className="num">
                {t.state === 'running' ? `${String(t.playersLeft)} left of ` : ''}
                {t.entrants}/{t.maxEntrants}
              </td>
              <td className="wide">{startText(t)}</td>
              <td>
                <TournamentStateBadge summary={t} />
              </td>
              <td className="actions">
                {t.state === 'registering' ? (
                  t.registered ? (
                    <button
                      type="button"
                      aria-label={`Unregister from ${t.name}`}
                      onClick={() => {
                        void enter(t, false);
                      }}
                    >
                      Unregister
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="primary"
                      aria-label={`Register for ${t.name}`}
                      onClick={() => {
                        void enter(t, true);
                      }}
                    >
                      Register
                    </button>
                  )
                ) : null}
                <button
                  type="button"
                  aria-label={`Open ${t.name}`}
                  onClick={() => {
                    store.show(tournamentScreen(t.tournamentId));
                  }}
                >
                  Open
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? (
        <p>{state.tournaments.length === 0 ? 'No tournaments yet.' : 'No tournament matches the filters.'}</p>
      ) : null}
    </section>
  );
}
