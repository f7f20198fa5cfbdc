import { useState } from 'react';
import { formatMoney, gameName } from '../format';
import { useAppState, useStore } from '../hooks';
import { Auth } from './Auth';
import { Lobby } from './Lobby';
import { TableScreen } from './Table';

export function App() {
  const state = useAppState();
  const store = useStore();
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
                  {view === null ? tableId : `${view.name} · ${gameName(view.game)}`}
                  {myTurn ? ' • your turn' : ''}
                </button>
              );
            })}
          </nav>
          <main>
            {state.screen === 'lobby' || state.tables[state.screen] === undefined ? (
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
      <span aria-label="Signed in as">{session.account.name}</span>
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
        Top up play money
      </button>
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
