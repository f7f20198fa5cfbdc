/**
 * The browser's sign-in over HTTP (docs/security.md): `POST /api/signup` and `POST /api/login` with a
 * JSON body `{name, password}` answer `{account, balances}` and set the HttpOnly session cookie — the
 * token never reaches the page; `POST /api/logout` ends the cookie's session on the server (every
 * socket on it is told) and clears the cookie. The page then (re)opens its WebSocket, whose upgrade
 * carries the cookie, and sends `resume` without a token.
 *
 * Each POST must come from the room's own origin (or an allowed one, or no browser at all) and carry
 * `Content-Type: application/json`, which no other site's form or plain fetch can send without a CORS
 * preflight that the room never answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Credentials, ErrorCode, type AccountInfo } from '@felt/protocol';
import type { AccountResult, LoggedIn } from '../accounts/accounts.js';
import type { Caller } from '../accounts/login-throttle.js';
import { originAllowed, SECURITY_HEADERS } from './browser-security.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from './session-cookie.js';
import type { Balances } from '../storage/types.js';
import { isStorageUnavailable } from '../storage/unavailable.js';

export interface SessionService {
  signUp(name: string, password: string, caller: Caller): Promise<AccountResult<LoggedIn>>;
  login(name: string, password: string, caller: Caller, totp?: string): Promise<AccountResult<LoggedIn>>;
  /** Ends the token's session (storage and every connection on it); nothing when unknown. */
  logout(token: string): Promise<void>;
  readonly sessionMs: number;
  callerOf(request: IncomingMessage): Caller;
  readonly allowedOrigins: readonly string[];
}

export const SESSION_PATHS: ReadonlySet<string> = new Set(['/api/signup', '/api/login', '/api/logout']);

/** A sign-in body is small; anything larger is refused unread. */
const MAX_BODY_BYTES = 4096;

const STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.BAD_CREDENTIALS]: 401,
  [ErrorCode.NAME_TAKEN]: 409,
  [ErrorCode.TOO_MANY_ATTEMPTS]: 429,
  [ErrorCode.BUSY]: 503,
  [ErrorCode.STORAGE_UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
};

function answer(response: ServerResponse, status: number, body: unknown, cookie: string | null = null): void {
  const text = `${JSON.stringify(body)}\n`;
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...(cookie === null ? {} : { 'set-cookie': cookie }),
  });
  response.end(text);
}

function refuse(response: ServerResponse, code: ErrorCode, message: string): void {
  answer(response, STATUS[code] ?? 400, { code, message });
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function sessionRoute(
  service: SessionService,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') {
    refuse(response, ErrorCode.BAD_MESSAGE, `${path} takes POST`);
    return;
  }
  if (!originAllowed(request.headers.origin, request.headers.host, service.allowedOrigins)) {
    answer(response, 403, { code: ErrorCode.BAD_MESSAGE, message: 'origin not allowed' });
    return;
  }
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    refuse(response, ErrorCode.BAD_MESSAGE, 'the body is application/json');
    return;
  }
  if (path === '/api/logout') {
    const token = sessionCookie(request);
    if (token !== null) await service.logout(token);
    answer(response, 200, {}, clearSessionCookie(request));
    return;
  }
  const body = await readBody(request);
  if (body === null) {
    refuse(response, ErrorCode.BAD_MESSAGE, `a body of at most ${MAX_BODY_BYTES} bytes`);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    refuse(response, ErrorCode.BAD_MESSAGE, 'the body is not JSON');
    return;
  }
  const parsed = Credentials.parse(json);
  if (!parsed.ok) {
    refuse(response, ErrorCode.BAD_MESSAGE, `${parsed.issue.path}: ${parsed.issue.message}`);
    return;
  }
  const caller = service.callerOf(request);
  const { name, password, totp } = parsed.value;
  let result: AccountResult<LoggedIn>;
  try {
    result =
      path === '/api/signup'
        ? await service.signUp(name, password, caller)
        : await service.login(name, password, caller, totp);
  } catch (error) {
    if (!isStorageUnavailable(error)) throw error;
    refuse(
      response,
      ErrorCode.STORAGE_UNAVAILABLE,
      'the room cannot write its records now: try again shortly',
    );
    return;
  }
  if (!result.ok) {
    refuse(response, result.error.code, result.error.message);
    return;
  }
  const data: { account: AccountInfo; balances: Balances } = {
    account: result.value.account,
    balances: result.value.balances,
  };
  answer(response, 200, data, setSessionCookie(request, result.value.token, service.sessionMs));
}
