/**
 * HTTP with node:http: `GET /health` (liveness and readiness only; the figures and `/metrics` are the
 * operators', ./operator-http.ts), `GET /` (the web client when `packages/web/dist` exists, else a
 * plain HTML page listing the lobby's tables), static files of the web client (./static-files.ts:
 * compressed, cached by the browser), the browser's session endpoints (./session-routes.ts), and the
 * WebSocket upgrade (./websocket.ts) on any path. Every answer carries the browser hardening headers
 * of ./browser-security.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TableSummary } from '@felt/protocol';
import { LOBBY_STYLE } from './browser-security.js';
import { bearsToken, operatorRoute, reply, type OperatorRoutes } from './operator-http.js';
import { SESSION_PATHS, sessionRoute, type SessionService } from './session-routes.js';
import { StaticFiles } from './static-files.js';

export interface HttpRoutes {
  /**
   * Readiness and the figures: null while starting or stopping (503); else whether the room is ok (a
   * table stopped by an error makes it not: 503, status `failing`) and the figures, for operators.
   */
  readonly operator: OperatorRoutes;
  /** The bearer token that opens the operators' figures here; null: only on their own port. */
  readonly metricsToken: string | null;
  tables(): readonly TableSummary[];
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

const send = reply;

/** What anyone may know: whether the room is up and ready, nothing of what it holds. */
function publicHealth(routes: HttpRoutes, response: ServerResponse): void {
  const health = routes.operator.health();
  const status = health === null ? 'unavailable' : health.ok ? 'ok' : 'failing';
  const body = JSON.stringify({ status, ready: health !== null });
  send(response, status === 'ok' ? 200 : 503, 'application/json', `${body}\n`);
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
      const operator = routes.metricsToken !== null && bearsToken(request, routes.metricsToken);
      if (operator && (await operatorRoute(routes.operator, path, response))) return;
      if (path === '/health') {
        publicHealth(routes, response);
        return;
      }
      if (path === '/metrics') {
        if (routes.metricsToken === null) send(response, 404, 'text/plain; charset=utf-8', 'not found\n');
        else {
          response.setHeader('www-authenticate', 'Bearer realm="felt metrics"');
          send(response, 401, 'text/plain; charset=utf-8', "the metrics need the operator's token\n");
        }
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
