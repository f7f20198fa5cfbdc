import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { StoreContext } from './hooks';
import { Store } from './state/store';
import './styles.css';

/** The room's socket is on the page's own host: `/ws` (or `?ws=ws://host:port/path` for development). */
function socketUrl(): string {
  const override = new URLSearchParams(location.search).get('ws');
  if (override !== null) return override;
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

const store = new Store({ url: socketUrl(), storage: sessionStorage });
// Inspection hook for the end-to-end tests' failure reports (read-only).
(window as unknown as { feltDebug: () => unknown }).feltDebug = () => store.getState();
const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <StoreContext value={store}>
        <App />
      </StoreContext>
    </StrictMode>,
  );
}
