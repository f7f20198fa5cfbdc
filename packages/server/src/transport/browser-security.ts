/**
 * What a browser is told and checked for (docs/security.md): the headers of every HTTP answer — a
 * Content-Security-Policy that runs only the room's own script files (no inline script, no eval) and
 * forbids framing, no referrer, no type sniffing — and the Origin rule of the WebSocket upgrade and the
 * session endpoints: no Origin (not a browser: `felt bots`, scripts) or the room's own origin (the
 * request's Host), or one the operator allowed.
 */
import { createHash } from 'node:crypto';

/** The plain lobby page's only style, allowed by its hash rather than by 'unsafe-inline'. */
export const LOBBY_STYLE =
  'body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.25em .75em;border-bottom:1px solid #ddd;text-align:left}';
const lobbyStyleHash = createHash('sha256').update(LOBBY_STYLE).digest('base64');

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' 'sha256-${lobbyStyleHash}'`,
  // The favicon is a data: URL; the cards are inline SVG elements (no image fetch).
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Whether a request with this Origin header may drive the room: none (not a browser), the room's own
 * origin (same host and port as the request's Host header), or one of `allowed` (e.g.
 * `https://poker.example`).
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    host !== undefined &&
    url.host === host.toLowerCase()
  );
}
