/**
 * The browser's session: the token lives in an HttpOnly cookie, so that no script in the page can read
 * it (docs/security.md). `SameSite=Strict`: no other site's page makes the browser send it; `Secure`
 * when the room is reached over https (directly or behind a proxy that says so); `Path=/`, for the
 * session endpoints and the WebSocket upgrade.
 */
import type { IncomingMessage } from 'node:http';

export const SESSION_COOKIE = 'felt_session';

/** The `felt_session` value of a request's Cookie header, or null. */
export function sessionCookie(request: IncomingMessage): string | null {
  const header = request.headers.cookie;
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    // A token is base64url; anything else is not ours.
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
  }
  return null;
}

function secure(request: IncomingMessage): boolean {
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  return encrypted || request.headers['x-forwarded-proto'] === 'https';
}

/** The Set-Cookie header that gives the browser the session for `maxAgeMs`. */
export function setSessionCookie(request: IncomingMessage, token: string, maxAgeMs: number): string {
  const attributes = [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  ];
  if (secure(request)) attributes.push('Secure');
  return attributes.join('; ');
}

/** The Set-Cookie header that removes it. */
export function clearSessionCookie(request: IncomingMessage): string {
  const attributes = [`${SESSION_COOKIE}=`, 'Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=0'];
  if (secure(request)) attributes.push('Secure');
  return attributes.join('; ');
}
