/**
 * What only the room's operators read over HTTP: `/metrics` (Prometheus) and `/health`'s figures
 * (tables, connections, the event loop's delay, the action latency, tables stopped by an error and,
 * on a cluster, its members, addresses and leases). They are served on a port of their own, bound to
 * loopback unless the operator names an address (`--metrics-port [ADDRESS:]PORT`), and on the
 * players' port only to a request bearing the operator's token (`Authorization: Bearer …`, as
 * Prometheus's `authorization` setting sends it). The players' `/health` tells liveness and readiness
 * alone (./http.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECURITY_HEADERS } from './browser-security.js';

export interface OperatorRoutes {
  /** Null while starting or stopping; else whether the room is ok and its figures. */
  health(): ({ readonly ok: boolean } & Record<string, unknown>) | null;
  metrics(): Promise<{ readonly contentType: string; readonly text: string }>;
}

export interface MetricsAccess {
  /** A port of its own for `/metrics` and the full `/health` (0: any free port). */
  readonly port?: number;
  /** The address that port listens on; default loopback. */
  readonly host?: string;
  /** A bearer token that opens them on the players' port too. */
  readonly token?: string;
}

export const DEFAULT_METRICS_HOST = '127.0.0.1';

export function reply(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether `request` bears `token` (compared in constant time: digests of equal length). */
export function bearsToken(request: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1] ?? ''), digest(token));
}

/** `/health` with every figure (503 while starting, stopping or with a table stopped). */
function fullHealth(routes: OperatorRoutes, response: ServerResponse): void {
  const health = routes.health();
  if (health === null) {
    reply(response, 503, 'application/json', '{"status":"unavailable","ready":false}\n');
    return;
  }
  const { ok, ...figures } = health;
  const body = JSON.stringify({ status: ok ? 'ok' : 'failing', ready: true, ...figures });
  reply(response, ok ? 200 : 503, 'application/json', `${body}\n`);
}

/** Answers `/health` (full) or `/metrics`; false for any other path. */
export async function operatorRoute(
  routes: OperatorRoutes,
  path: string,
  response: ServerResponse,
): Promise<boolean> {
  if (path === '/health') {
    fullHealth(routes, response);
    return true;
  }
  if (path === '/metrics') {
    const { contentType, text } = await routes.metrics();
    reply(response, 200, contentType, text);
    return true;
  }
  return false;
}

/** The operators' own port; resolves once it listens. */
export async function startOperatorServer(
  routes: OperatorRoutes,
  port: number,
  host: string,
): Promise<{ readonly port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const answered =
      request.method === 'GET' || request.method === 'HEAD'
        ? operatorRoute(routes, path, response)
        : Promise.resolve(false);
    answered.then(
      (done) => {
        if (!done) reply(response, 404, 'text/plain; charset=utf-8', 'not found\n');
      },
      () => {
        if (!response.headersSent) reply(response, 500, 'text/plain; charset=utf-8', 'internal error\n');
        else response.destroy();
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
