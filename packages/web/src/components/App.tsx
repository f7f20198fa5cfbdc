import { lazy, Suspense, useState } from 'react';
import { parseBetSizes } from '../bet-sizes';
import { formatMoney } from '../format';
import { useAppState, useStore } from '../hooks';
import { CONSOLE_SCREEN } from '../state/store';
import { Auth } from './Auth';
import { Lobby } from './Lobby';
import { TableScreen } from './Table';
import { useTurnAlert } from '../turn-alert';
import { TOURNAMENT_LOBBY_SCREEN, tournamentOfScreen } from '../tournament';

/** The staff's console, loaded only when a staff member opens it: players never download it. */
const Console = lazy(() => import('./console/Console'));
/** The tournament lobby and pages: a chunk of their own, fetched when a player first opens them. */
const TournamentLobby = lazy(() => import('./tournament/TournamentLobby'));
const TournamentPage = lazy(() => import('./tournament/TournamentPage'));

export function App() {
  const state = useAppState();
  const store = useStore();
  useTurnAlert(state);
  const staff = state.session?.account.role !== undefined;
  const tournamentPage = tournamentOfScreen(state.screen);
  return (
    <>
      <ConnectionNotice />
      <header className="app-header">
        <h1 className="brand">Felt</h1>
        {state.session === null ? null : <Account />}
      </header>
      {state.session === null ? (
        <main>
          <Auth />
        </main>
      ) : (
        <>
          <nav className="tabs" role="tablist" aria-label="Lobby and open tables">
            <button
              type="button"
              role="tab"
              aria-selected={state.screen === 'lobby'}
              onClick={() => {
                store.show('lobby');
              }}
            >
              Lobby
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={state.screen === TOURNAMENT_LOBBY_SCREEN || tournamentPage !== null}
              onClick={() => {
                store.show(TOURNAMENT_LOBBY_SCREEN);
              }}
            >
              Tournaments
            </button>
            {staff ? (
              <button
                type="button"
                role="tab"
                aria-selected={state.screen === CONSOLE_SCREEN}
                onClick={() => {
                  store.show(CONSOLE_SCREEN);
                }}
              >
                Console
              </button>
            ) : null}
            {state.open.map((tableId) => {
              const table = state.tables[tableId];
              const view = table?.view ?? null;
              const myTurn = table?.legal != null;
              return (
                <button
                  key={tableId}
                  type="button"
                  role="tab"
                  aria-selected={state.screen === tableId}
                  className={myTurn ? 'turn' : undefined}
                  onClick={() => {
                    store.show(tableId);
                  }}
                >
                  {/* The table's name already names its game. */}
                  {view === null ? tableId : view.name}
                  {myTurn ? ' • your turn' : ''}
                </button>
              );
            })}
          </nav>
          <main>
            {staff && state.screen === CONSOLE_SCREEN ? (
              <Suspense fallback={<p className="meta">Loading the console…</p>}>
                <Console />
              </Suspense>
            ) : state.screen === TOURNAMENT_LOBBY_SCREEN || tournamentPage !== null ? (
              <Suspense fallback={<p className="meta">Loading the tournaments…</p>}>
                {tournamentPage === null ? (
                  <TournamentLobby />
                ) : (
                  <TournamentPage key={tournamentPage} tournamentId={tournamentPage} />
                )}
              </Suspense>
            ) : state.screen === 'lobby' || state.tables[state.screen] === undefined ? (
              <Lobby />
            ) : (
              <TableScreen key={state.screen} tableId={state.screen} />
            )}
          </main>
        </>
      )}
      {state.toast === null ? null : (
        <div className="toast" role="alert">
          {state.toast}{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              store.dismissToast();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}

function Account() {
  const state = useAppState();
  const store = useStore();
  const [topUp, setTopUp] = useState(false);
  const session = state.session;
  if (session === null) return null;
  return (
    <div className="balances">
      <span aria-label="Signed in as" className="wide-only">
        {session.account.name}
      </span>
      <span className="balance" data-testid="play-balance">
        Play <b>{formatMoney(session.balances.play, 'play')}</b>
      </span>
      <span className="balance" data-testid="real-balance">
        Real <b>{formatMoney(session.balances.real, 'real')}</b>
      </span>
      <button
        type="button"
        disabled={topUp}
        onClick={() => {
          setTopUp(true);
          void store.topUp(10_000).finally(() => {
            setTopUp(false);
          });
        }}
      >
        Top up<span className="wide-only"> play money</span>
      </button>
      {/* Kept out of the way (the header must leave the table room on a laptop and a phone). */}
      <details className="settings">
        <summary>Settings</summary>
        <div className="settings-list">
          <label className="inline">
            <input
              type="checkbox"
              checked={state.prefs.fourColour}
              onChange={(event) => {
                store.setPrefs({ fourColour: event.target.checked });
              }}
            />{' '}
            Four-colour deck
          </label>
          <label className="inline">
            <input
              type="checkbox"
              checked={state.prefs.hotkeys}
              onChange={(event) => {
                store.setPrefs({ hotkeys: event.target.checked });
              }}
            />{' '}
            Keyboard shortcuts
          </label>
          <label className="inline">
            <input
              type="checkbox"
              checked={state.prefs.freeFold === 'check'}
              onChange={(event) => {
                store.setPrefs({ freeFold: event.target.checked ? 'check' : 'ask' });
              }}
            />{' '}
            F checks when checking is free
          </label>
          <label className="inline">
            <input
              type="checkbox"
              checked={state.prefs.sound}
              onChange={(event) => {
                store.setPrefs({ sound: event.target.checked });
              }}
            />{' '}
            Sound on my turn
          </label>
          <BetSizesSetting />
        </div>
      </details>
      <button
        type="button"
        className="link"
        onClick={() => {
          void store.logOut();
        }}
      >
        Log out
      </button>
    </div>
  );
}

function ConnectionNotice() {
  const { status, session } = useAppState();
  if (status === 'open' || status === 'closed') return null;
  if (status === 'connecting' && session === null) {
    return (
      <div className="notice" role="status">
        Connecting to the room…
      </div>
    );
  }
  return (
    <div className="notice" role="alert" data-testid="reconnecting">
      Connection lost — reconnecting… Your seat and hand are kept.
    </div>
  );
}

/** The bet-size buttons as a list the player edits; a list that does not read keeps the last good one. */
function BetSizesSetting() {
  const state = useAppState();
  const store = useStore();
  const [text, setText] = useState(state.prefs.betSizes);
  const valid = parseBetSizes(text) !== null;
  return (
    <label>
      Bet sizes (pot fractions, multiples)
      <input
        value={text}
        aria-invalid={!valid}
        title="e.g. 1/3, 1/2, 3/4, pot, 2.5x, 3x"
        onChange={(event) => {
          setText(event.target.value);
          if (parseBetSizes(event.target.value) !== null) store.setPrefs({ betSizes: event.target.value });
        }}
      />
    </label>
  );
}
