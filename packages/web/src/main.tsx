import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { StoreContext } from './hooks';
import { Store, type SessionHttp } from './state/store';
import './styles.css';

/**
 * The room's socket is on the page's own host: `/ws`; or the addresses `?ws=ws://a:8080/ws&ws=ws://b…`
 * names (development, or a room of several processes without a load balancer: docs/deploy.md).
 */
function socketUrls(): string[] {
  const listed = new URLSearchParams(location.search).getAll('ws');
  if (listed.length > 0) return listed;
  return [`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`];
}

/** The session endpoints on the page's own origin; the answer sets or clears the HttpOnly cookie. */
const http: SessionHttp = async (path, body) => {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
};

// Settings live in localStorage (kept when the tab closes; they are not secrets); the session is the cookie.
const store = new Store({ urls: socketUrls(), http, storage: localStorage });
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
