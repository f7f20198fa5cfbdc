/**
 * HTTP with node:http: `GET /health` (readiness), `GET /` (the web client when `packages/web/dist`
 * exists, else a plain HTML page listing the lobby's tables), static files of the web client
 * (./static-files.ts: compressed, cached by the browser), the browser's session endpoints
 * (./session-routes.ts), and the WebSocket upgrade (./websocket.ts) on any path. Every answer carries
 * the browser hardening headers of ./browser-security.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TableSummary } from '@felt/protocol';
import { LOBBY_STYLE, SECURITY_HEADERS } from './browser-security.js';
import { SESSION_PATHS, sessionRoute, type SessionService } from './session-routes.js';
import { StaticFiles } from './static-files.js';

export interface HttpRoutes {
  /**
   * Readiness: null while starting or stopping (503); else whether the room is ok (a table stopped by
   * an error makes it not: 503, status `failing`) and the figures to report.
   */
  health(): ({ readonly ok: boolean } & Record<string, unknown>) | null;
  tables(): readonly TableSummary[];
  /** `/metrics`: Prometheus's text and its content type. */
  metrics(): Promise<{ readonly contentType: string; readonly text: string }>;
  /** The web client's build directory, or null to serve the plain lobby page. */
  readonly webDir: string | null;
  readonly sessions: SessionService;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The plain lobby page: every table with its game, structure, stakes and seats. */
export function lobbyPage(tables: readonly TableSummary[]): string {
  const rows = tables
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.name)}</td><td>${escapeHtml(t.game)}</td><td>${escapeHtml(t.structure)}</td>` +
        `<td>${escapeHtml(t.stakesText)}</td><td>${t.currency}</td><td>${t.taken}/${t.seats}</td>` +
        `<td>${t.waiting}</td><td>${t.averagePot}</td><td>${t.handsPerHour}</td>` +
        `<td><code>${escapeHtml(t.tableId)}</code></td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Felt — lobby</title>
<style>${LOBBY_STYLE}</style>
</head><body>
<h1>Felt</h1>
<p>${tables.length} tables. Play over the WebSocket protocol at this address (see docs/protocol.md).</p>
<table><thead><tr><th>Table</th><th>Game</th><th>Structure</th><th>Stakes</th><th>Money</th><th>Seats</th><th>Waiting</th><th>Avg pot</th><th>Hands/h</th><th>Id</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}

export function httpHandler(
  routes: HttpRoutes,
): (request: IncomingMessage, response: ServerResponse) => void {
  const files = routes.webDir === null ? null : new StaticFiles(routes.webDir);
  return (request, response) => {
    void (async () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (SESSION_PATHS.has(path)) {
        await sessionRoute(routes.sessions, path, request, response);
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
        return;
      }
      if (path === '/health') {
        const health = routes.health();
        if (health === null) send(response, 503, 'application/json', '{"status":"unavailable"}\n');
        else {
          const { ok, ...figures } = health;
          const body = JSON.stringify({ status: ok ? 'ok' : 'failing', ...figures });
          send(response, ok ? 200 : 503, 'application/json', `${body}\n`);
        }
        return;
      }
      if (path === '/metrics') {
        const { contentType, text } = await routes.metrics();
        send(response, 200, contentType, text);
        return;
      }
      if (path === '/api/tables') {
        send(response, 200, 'application/json', `${JSON.stringify({ tables: routes.tables() })}\n`);
        return;
      }
      if (files !== null && (await files.serve(path, request, response))) return;
      if (path === '/' || path === '/index.html') {
        send(response, 200, 'text/html; charset=utf-8', lobbyPage(routes.tables()));
        return;
      }
      send(response, 404, 'text/plain; charset=utf-8', 'not found\n');
    })().catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else response.destroy();
    });
  };
}
