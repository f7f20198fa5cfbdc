import type { TournamentDetail } from '@felt/protocol';
import { useState } from 'react';
import { formatMoney } from '../../format';
import { useAppState, useNow, useStore } from '../../hooks';
import {
  clockLeft,
  formatChips,
  levelStakes,
  ordinal,
  TOURNAMENT_LOBBY_SCREEN,
  standingOf,
  tableNumber,
} from '../../tournament';
import { gamesText, priceText, startText } from './TournamentLobby';
import { TournamentStateBadge } from './TournamentStateBadge';
import { OutNotice } from './OutNotice';
import { usePolling } from './polling';
import './tournament.css';

/** One tournament: structure, payouts, entrants and chips, tables, his rank; the results once over. */
export default function TournamentPage({ tournamentId }: { tournamentId: string }) {
  const state = useAppState();
  const store = useStore();
  const page = state.tournamentPages[tournamentId];
  const over = page !== undefined && (page.detail.state === 'finished' || page.detail.state === 'cancelled');
  usePolling(() => store.loadTournament(tournamentId), 3000, !over);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (page === undefined) return <p aria-busy="true">Loading the tournament…</p>;
  const t = page.detail;
  const me = state.session?.account.id ?? null;
  const standing = standingOf(t, me);
  const play = state.tournamentPlay[tournamentId];

  const enter = async (register: boolean): Promise<void> => {
    setRefusal(null);
    setRefusal(await store.enterTournament(tournamentId, register));
  };

  return (
    <section className="tournament-page" aria-labelledby="tournament-title" data-tournament-id={tournamentId}>
      <div className="table-head">
        <h2 id="tournament-title">{t.name}</h2>
        <span className="meta">
          {gamesText(t, true)} · {priceText(t)} {t.currency === 'real' ? 'real money' : 'play money'} · starts{' '}
          {startText(t).toLowerCase()}
        </span>
        <TournamentStateBadge summary={t} />
        <span className="spacer" />
        {t.state === 'registering' ? (
          <button
            type="button"
            className={t.registered ? undefined : 'primary'}
            onClick={() => {
              void enter(!t.registered);
            }}
          >
            {t.registered ? 'Unregister' : 'Register'}
          </button>
        ) : null}
        <button
          type="button"
          onClick={() => {
            store.show(TOURNAMENT_LOBBY_SCREEN);
          }}
        >
          All tournaments
        </button>
      </div>
      {refusal === null ? null : (
        <p className="refusal" role="alert" data-testid="tournament-refusal">
          {refusal}
        </p>
      )}
      {play?.out != null ? <OutNotice place={play.out} currency={t.currency} /> : null}
      <dl className="tournament-figures" aria-label="Figures">
        <div>
          <dt>Entrants</dt>
          <dd>
            {t.entrants} (of {t.minEntrants}–{t.maxEntrants})
          </dd>
        </div>
        <div>
          <dt>Players left</dt>
          <dd>{t.playersLeft}</dd>
        </div>
        <div>
          <dt>Starting chips</dt>
          <dd>{formatChips(t.startingChips)}</dd>
        </div>
        {t.state === 'running' ? (
          <>
            <div>
              <dt>Level</dt>
              <dd data-testid="page-level">
                {(t.level ?? 0) + 1}: {levelStakes(t.levels[t.level ?? 0])}
              </dd>
            </div>
            <div>
              <dt>Average stack</dt>
              <dd>{formatChips(standing.average)}</dd>
            </div>
            {standing.rank === null ? null : (
              <div>
                <dt>Your rank</dt>
                <dd data-testid="page-rank">
                  {standing.rank} of {standing.left}
                </dd>
              </div>
            )}
          </>
        ) : null}
      </dl>
      {t.state === 'running' && t.clock !== null ? <PageClock detail={t} at={page.at} /> : null}
      <div className="tournament-columns">
        {t.results.length > 0 ? <Results detail={t} me={me} /> : null}
        <Entrants detail={t} me={me} />
        {t.tables.length > 0 ? <Tables detail={t} /> : null}
        <Payouts detail={t} />
        <Structure detail={t} />
      </div>
    </section>
  );
}

function PageClock({ detail, at }: { detail: TournamentDetail; at: number }) {
  const now = useNow(true, 1000);
  if (detail.clock === null) return null;
  return (
    <p className="meta" data-testid="page-clock">
      {clockLeft(detail.clock, now - at)}
    </p>
  );
}

function Results({ detail, me }: { detail: TournamentDetail; me: number | null }) {
  return (
    <section aria-labelledby="results-title">
      <h3 id="results-title">{detail.state === 'finished' ? 'Results' : 'Places decided'}</h3>
      <table className="lobby-table" aria-label="Results" data-testid="tournament-results">
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Player</th>
            <th scope="col" className="num">
              Prize
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.results.map((r) => (
            <tr key={r.account} className={r.account === me ? 'me' : undefined}>
              <td>
                {ordinal(r.place)}
                {r.tied > 1 ? ` (tied, ${String(r.tied)})` : ''}
              </td>
              <td>{r.name}</td>
              <td className="num">{r.prize > 0 ? formatMoney(r.prize, detail.currency) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Entrants({ detail, me }: { detail: TournamentDetail; me: number | null }) {
  const places = new Map(detail.results.map((r) => [r.account, r.place]));
  // Those still in by rank, then those out by place.
  const order = (p: TournamentDetail['players'][number]): number =>
    p.rank ?? detail.players.length + (places.get(p.account) ?? detail.players.length);
  const players = [...detail.players].sort((a, b) => order(a) - order(b));
  return (
    <section aria-labelledby="entrants-title">
      <h3 id="entrants-title">Entrants</h3>
      {players.length === 0 ? (
        <p className="meta">Nobody has registered yet.</p>
      ) : (
        <table className="lobby-table" aria-label="Entrants">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Player</th>
              <th scope="col" className="num">
                Chips
              </th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <tr key={p.account} className={p.account === me ? 'me' : undefined}>
                <td>
                  {p.rank ??
                    (places.has(p.account)
                      ? ordinal(places.get(p.account) ?? 0)
                      : detail.state === 'registering'
                        ? ''
                        : 'out')}
                </td>
                <td>{p.name}</td>
                <td className="num">
                  {p.rank === null && detail.state !== 'registering' ? '—' : formatChips(p.chips)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Tables({ detail }: { detail: TournamentDetail }) {
  const store = useStore();
  const state = useAppState();
  const final = detail.state === 'running' && detail.tables.length === 1;
  return (
    <section aria-labelledby="tables-title">
      <h3 id="tables-title">Tables</h3>
      <ul className="tournament-tables">
        {detail.tables.map((table) => (
          <li key={table.tableId}>
            {final ? 'Final table' : `Table ${tableNumber(table.tableId) ?? table.tableId}`} · {table.players}{' '}
            players{' '}
            <button
              type="button"
              onClick={() => {
                void store.openTable(table.tableId);
              }}
            >
              {table.tableId in state.tables ? 'Go to' : 'Watch'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Payouts({ detail }: { detail: TournamentDetail }) {
  return (
    <section aria-labelledby="payouts-title">
      <h3 id="payouts-title">Payouts</h3>
      {detail.prizes.length === 0 ? (
        <p className="meta">Set when players register.</p>
      ) : (
        <table className="lobby-table" aria-label="Payouts">
          <tbody>
            {detail.prizes.map((prize, i) => (
              <tr key={i}>
                <th scope="row">{ordinal(i + 1)}</th>
                <td className="num">{formatMoney(prize, detail.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Structure({ detail }: { detail: TournamentDetail }) {
  const unit = detail.levelLength.unit === 'hands' ? 'hands' : 'minutes';
  return (
    <section className="structure" aria-labelledby="structure-title">
      <h3 id="structure-title">Structure</h3>
      <p className="meta">
        Levels of {detail.levelLength.value} {unit}
        {detail.breaks === null
          ? ', no breaks'
          : `; a ${String(detail.breaks.minutes)}-minute break every ${String(detail.breaks.everyLevels)} levels`}
        ; {detail.seatsPerTable} seats a table.
      </p>
      <table className="lobby-table" aria-label="Levels">
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Stakes</th>
          </tr>
        </thead>
        <tbody>
          {detail.levels.map((level, i) => {
            const breaks = detail.breaks;
            return [
              <tr
                key={`level ${String(i)}`}
                className={detail.state === 'running' && detail.level === i ? 'current' : undefined}
              >
                <td>{i + 1}</td>
                <td>{levelStakes(level)}</td>
              </tr>,
              breaks !== null && (i + 1) % breaks.everyLevels === 0 ? (
                <tr key={`break ${String(i)}`} className="break">
                  <td colSpan={2}>
                    Break, {breaks.minutes} minute{breaks.minutes === 1 ? '' : 's'}
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
    </section>
  );
}
