/**
 * The room against a hostile peer, over real sockets (issue 23, holes 3, 6 and 7): password attempts
 * slowed per account (never locked) and per address, connections capped per address with loopback and
 * trusted addresses exempt, password hashing bounded, the browser's headers and Origin rule, the
 * HttpOnly session cookie, and idle sockets closed.
 */
import { createHash } from 'node:crypto';
import { connect as tcpConnect } from 'node:net';
import type { ServerMessage } from '@felt/protocol';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_TIMEOUT_CLOSE } from '../src/transport/hub.js';
import { TestClient, startTestRoom, uniqueName, until, type TestRoom } from './transport-client.js';

const PASSWORD = 'correct horse';

async function signUp(room: TestRoom, name: string): Promise<void> {
  const client = await TestClient.connect(room);
  await client.ok('signup', { name, password: PASSWORD });
  client.close();
}

/** Whether a WebSocket upgrade with these headers opens (true) or is refused (its HTTP status). */
function upgrade(room: TestRoom, headers: Record<string, string>): Promise<true | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${room.server.port}`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(true);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** Opens a raw WebSocket; resolves 'open', or 'dropped' when the server cuts it before the handshake. */
function tryOpen(room: TestRoom): Promise<{ result: 'open' | 'dropped'; ws: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${room.server.port}`);
    ws.once('open', () => {
      resolve({ result: 'open', ws });
    });
    ws.once('error', () => {
      resolve({ result: 'dropped', ws });
    });
  });
}

function post(
  room: TestRoom,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${room.http}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const cookieOf = (response: Response): string => {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
};

describe('login throttle (hole 3)', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({
      tables: [],
      accounts: { throttle: { freeFailures: 5, baseDelayMs: 60_000, addressBurst: 3, addressPerMinute: 1 } },
    });
  });
  afterAll(async () => {
    await room.close();
  });

  it('wrong passwords for one account from ten connections: only the first few are checked, then every attempt — the right one too — is refused TOO_MANY_ATTEMPTS', async () => {
    const victim = uniqueName('victim');
    await signUp(room, victim);
    const clients = await Promise.all(Array.from({ length: 10 }, () => TestClient.connect(room)));
    const answers = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: 10 }, (_, i) =>
          client.request('login', { name: victim, password: `guess-${i}-x` }),
        ),
      ),
    );
    const codes = answers.map((answer) => (answer.op === 'error' ? answer.code : 'ack'));
    const checked = codes.filter((code) => code === 'BAD_CREDENTIALS').length;
    // Five free failures, plus at most one attempt in flight per connection when the fifth failed.
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(5 + clients.length);
    expect(codes.filter((code) => code === 'TOO_MANY_ATTEMPTS').length).toBe(100 - checked);
    const right = await clients[0]!.request('login', { name: victim, password: PASSWORD });
    expect(right).toMatchObject({ op: 'error', code: 'TOO_MANY_ATTEMPTS' });
    expect(right.op === 'error' && right.message).toMatch(/try again in \d+ s/);
    // The throttle knows the name in any case: VICTIM is the same account's throttle.
    const shouted = await clients[1]!.request('login', { name: victim.toUpperCase(), password: PASSWORD });
    expect(shouted).toMatchObject({ op: 'error', code: 'TOO_MANY_ATTEMPTS' });
    for (const client of clients) client.close();
  });

  it('loopback is exempt from the per-address attempt limit (felt bots signs in thousands from 127.0.0.1)', async () => {
    const client = await TestClient.connect(room);
    // Far more than the address burst of 3, each on a fresh name (no account throttle involved).
    for (let i = 0; i < 12; i++) {
      const answer = await client.request('login', { name: uniqueName('nobody'), password: PASSWORD });
      expect(answer).toMatchObject({ op: 'error', code: 'BAD_CREDENTIALS' });
    }
    client.close();
  });
});

describe('the per-account throttle slows, never locks (hole 3)', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({
      tables: [],
      // The connection's own rate limit out of the way: this test is about the account's.
      rate: { perSecond: 1000, burst: 1000 },
      accounts: { throttle: { freeFailures: 2, baseDelayMs: 20, maxDelayMs: 200 } },
    });
  });
  afterAll(async () => {
    await room.close();
  });

  it('after many wrong passwords the right one is accepted once the (capped) delay has passed', async () => {
    const victim = uniqueName('victim');
    await signUp(room, victim);
    const client = await TestClient.connect(room);
    let failures = 0;
    let refused = 0;
    while (failures < 12) {
      const answer = await client.request('login', { name: victim, password: 'not the password' });
      if (answer.op === 'error' && answer.code === 'BAD_CREDENTIALS') failures++;
      else if (answer.op === 'error' && answer.code === 'TOO_MANY_ATTEMPTS') {
        refused++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      } else throw new Error(`unexpected ${JSON.stringify(answer)}`);
    }
    expect(refused).toBeGreaterThan(0);
    const accepted = await until(async () => {
      const answer = await client.request('login', { name: victim, password: PASSWORD });
      if (answer.op === 'ack') return answer;
      expect(answer).toMatchObject({ op: 'error', code: 'TOO_MANY_ATTEMPTS' });
      return undefined;
    });
    expect(accepted.data).toHaveProperty('token');
    client.close();
  });
});

describe('per-address limits, with loopback counted (hole 3, hole 7)', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, maxConnections: 4 },
      accounts: { throttle: { addressBurst: 3, addressPerMinute: 1, freeFailures: 100 } },
    });
  });
  afterAll(async () => {
    await room.close();
  });

  it('password attempts from one address beyond its bucket are refused TOO_MANY_ATTEMPTS before anything is checked', async () => {
    const client = await TestClient.connect(room);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await client.request('login', { name: uniqueName('nobody'), password: PASSWORD });
      codes.push(answer.op === 'error' ? answer.code : 'ack');
    }
    expect(codes).toEqual([
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
    ]);
    const signup = await client.request('signup', { name: uniqueName('new'), password: PASSWORD });
    expect(signup).toMatchObject({ op: 'error', code: 'TOO_MANY_ATTEMPTS' });
    expect(signup.op === 'error' && signup.message).toMatch(/address/);
    client.close();
    await until(() => (room.server.hub.connectionCount === 0 ? true : undefined));
  });

  it('connections from one address are capped: the one over the cap is dropped, a freed place is taken again', async () => {
    const opened: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const { result, ws } = await tryOpen(room);
      expect(result).toBe('open');
      opened.push(ws);
    }
    const over = await tryOpen(room);
    expect(over.result).toBe('dropped');
    opened[0]!.close();
    const again = await until(async () => {
      const attempt = await tryOpen(room);
      return attempt.result === 'open' ? attempt.ws : undefined;
    });
    for (const ws of [...opened, again]) ws.close();
    await until(() => (room.server.hub.connectionCount === 0 ? true : undefined));
  });

  it('a half-sent HTTP request counts against the cap as well', async () => {
    const sockets = Array.from({ length: 4 }, () => tcpConnect(room.server.port, '127.0.0.1'));
    await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
    for (const socket of sockets) socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const over = await tryOpen(room);
    expect(over.result).toBe('dropped');
    for (const socket of sockets) socket.destroy();
    await until(async () => ((await tryOpen(room)).result === 'open' ? true : undefined));
  });
});

describe('loopback and trusted addresses are exempt from the connection cap (hole 3, hole 7)', () => {
  it('more sockets from 127.0.0.1 than the cap all open with the defaults for loopback', async () => {
    const room = await startTestRoom({ tables: [], addresses: { maxConnections: 2 } });
    try {
      const opened = await Promise.all(Array.from({ length: 6 }, () => tryOpen(room)));
      expect(opened.map((o) => o.result)).toEqual(Array(6).fill('open'));
      for (const o of opened) o.ws.close();
    } finally {
      await room.close();
    }
  });

  it('a trusted address is not capped even when loopback is counted', async () => {
    const room = await startTestRoom({
      tables: [],
      addresses: { maxConnections: 2, limitLoopback: true, trusted: ['127.0.0.1'] },
    });
    try {
      const opened = await Promise.all(Array.from({ length: 6 }, () => tryOpen(room)));
      expect(opened.map((o) => o.result)).toEqual(Array(6).fill('open'));
      for (const o of opened) o.ws.close();
    } finally {
      await room.close();
    }
  });
});

describe('password hashing is bounded (hole 3)', () => {
  it('a login flood never runs more hashes at once than the bound, and every attempt is answered', async () => {
    const room = await startTestRoom({
      tables: [],
      accounts: { hashing: { concurrency: 1, maxWaiting: 4 } },
    });
    try {
      const clients = await Promise.all(Array.from({ length: 8 }, () => TestClient.connect(room)));
      const answers = await Promise.all(
        clients.flatMap((client) =>
          Array.from({ length: 5 }, () =>
            client.request('login', { name: uniqueName('flood'), password: PASSWORD }),
          ),
        ),
      );
      for (const answer of answers) {
        expect(answer.op).toBe('error');
        expect(['BAD_CREDENTIALS', 'BUSY']).toContain(answer.op === 'error' ? answer.code : '');
      }
      expect(room.server.hub.room.accounts.hashing.peak).toBe(1);
      // Others are still served: a ping answers.
      expect(await clients[0]!.ok('ping')).toHaveProperty('time');
      for (const client of clients) client.close();
    } finally {
      await room.close();
    }
  });
});

describe('browser hardening (hole 6)', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({ tables: [], allowedOrigins: ['https://poker.example'] });
  });
  afterAll(async () => {
    await room.close();
  });

  it('every HTTP answer carries a CSP with script-src self (no inline), frame-ancestors none, a referrer policy and nosniff', async () => {
    for (const path of ['/', '/health', '/api/tables', '/missing']) {
      const response = await fetch(`${room.http}${path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      await response.text();
    }
  });

  it("the plain lobby page's one inline style is the one the CSP allows by its hash", async () => {
    const response = await fetch(`${room.http}/`);
    const html = await response.text();
    const style = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(response.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`);
    expect(html).not.toMatch(/<script/);
  });

  it("a WebSocket from another site's page is refused (403); the room's own origin, an allowed one and none (not a browser) are accepted", async () => {
    const host = `127.0.0.1:${room.server.port}`;
    expect(await upgrade(room, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(room, { origin: `http://127.0.0.1:${room.server.port + 1}` })).toBe(403);
    expect(await upgrade(room, { origin: `http://${host}` })).toBe(true);
    expect(await upgrade(room, { origin: 'https://poker.example' })).toBe(true);
    expect(await upgrade(room, {})).toBe(true);
  });

  it('the browser signs up over HTTP: an HttpOnly, SameSite=Strict cookie holds the session and the body has no token', async () => {
    const name = uniqueName('web');
    const response = await post(room, '/api/signup', { name, password: PASSWORD });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ account: { name } });
    expect(JSON.stringify(body)).not.toMatch(/token/);
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^felt_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    const behindTls = await post(
      room,
      '/api/login',
      { name, password: PASSWORD },
      { 'x-forwarded-proto': 'https' },
    );
    expect(behindTls.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('a socket opened with the cookie resumes without a token; logout over HTTP ends the session everywhere and clears the cookie', async () => {
    const name = uniqueName('web');
    const cookie = cookieOf(await post(room, '/api/signup', { name, password: PASSWORD }));
    const browser = await TestClient.connect(room, {
      cookie,
      origin: `http://127.0.0.1:${room.server.port}`,
    });
    const resumed = await browser.ok('resume');
    expect(resumed.account.name).toBe(name);
    const logout = await post(room, '/api/logout', {}, { cookie });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/^felt_session=; .*Max-Age=0/);
    await browser.next((m: ServerMessage) => m.op === 'session-ended', 10_000, true);
    expect(await browser.request('balances')).toMatchObject({ op: 'error', code: 'NOT_AUTHENTICATED' });
    const later = await TestClient.connect(room, { cookie });
    expect(await later.request('resume')).toMatchObject({ op: 'error', code: 'BAD_TOKEN' });
    browser.close();
    later.close();
  });

  it('resume with neither token nor cookie is BAD_TOKEN; signup and login over the socket still answer data.token', async () => {
    const client = await TestClient.connect(room);
    expect(await client.request('resume')).toMatchObject({ op: 'error', code: 'BAD_TOKEN' });
    const name = uniqueName('bot');
    const data = await client.ok('signup', { name, password: PASSWORD });
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    client.close();
  });

  it("the session endpoints refuse another site's origin, a body that is not JSON, a bad field and a wrong password, each with a typed error", async () => {
    const name = uniqueName('web');
    await signUp(room, name);
    const foreign = await post(
      room,
      '/api/login',
      { name, password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const form = await fetch(`${room.http}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${name}&password=correct+horse`,
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({ code: 'BAD_MESSAGE' });
    const badName = await post(room, '/api/login', { name: 'a', password: PASSWORD });
    const badNameBody = (await badName.json()) as { code: string; message: string };
    expect(badNameBody.code).toBe('BAD_MESSAGE');
    expect(badNameBody.message).toMatch(/name/);
    const wrong = await post(room, '/api/login', { name, password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'BAD_CREDENTIALS' });
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });
});

describe('idle sockets (hole 7)', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({
      tables: [],
      loginTimeoutMs: 300,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
    });
  });
  afterAll(async () => {
    await room.close();
  });

  it('a WebSocket that does not sign in is closed; one that signed in stays; after logout the clock runs again', async () => {
    const idle = await TestClient.connect(room);
    const player = await TestClient.connect(room);
    await player.ok('signup', { name: uniqueName('p'), password: PASSWORD });
    const code = await new Promise<number>((resolve) => idle.ws.once('close', resolve));
    expect(code).toBe(LOGIN_TIMEOUT_CLOSE);
    expect(player.closed).toBe(false);
    expect(await player.ok('ping')).toHaveProperty('time');
    await player.ok('logout');
    expect(await new Promise<number>((resolve) => player.ws.once('close', resolve))).toBe(
      LOGIN_TIMEOUT_CLOSE,
    );
  });

  it('an HTTP request whose headers never end is dropped', async () => {
    const socket = tcpConnect(room.server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).not.toMatch(/200 OK/);
  });

  it('a connection that sends nothing, one byte or only a request line is closed within the headers timeout', async () => {
    const closed = await Promise.all(
      ['', 'G', 'GET / HTTP/1.1\r\n'].map(async (sent) => {
        const socket = tcpConnect(room.server.port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        if (sent !== '') socket.write(sent);
        // Read what comes (a 408 at most), or 'close' would wait for the reader.
        socket.resume();
        await new Promise((resolve) => socket.once('close', resolve));
        return sent;
      }),
    );
    expect(closed).toHaveLength(3);
  });

  it('an HTTP request whose body never ends is dropped', async () => {
    const socket = tcpConnect(room.server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).not.toMatch(/200 OK/);
  });
});

describe('idle sockets behind a PROXY-protocol proxy', () => {
  let room: TestRoom;
  beforeAll(async () => {
    room = await startTestRoom({
      tables: [],
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      // The proxy's own allowance is longer than any test here: only the headers deadline can close.
      addresses: { proxies: ['127.0.0.1'], proxyProtocol: true, proxyHeaderTimeoutMs: 60_000 },
    });
  });
  afterAll(async () => {
    await room.close();
  });

  it('the headers timeout counts from the accept, PROXY header included: a header sent a byte at a time is cut off', async () => {
    const header = 'PROXY TCP4 203.0.113.9 198.51.100.1 1234 80\r\nGET / HTTP/1.1\r\n';
    const socket = tcpConnect(room.server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.resume();
    await new Promise((resolve) => socket.once('connect', resolve));
    let sent = 0;
    // A byte every 100 ms: the PROXY header alone takes 4.6 s to send.
    const trickle = setInterval(() => {
      if (sent < header.length) socket.write(header.charAt(sent++));
    }, 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    expect(sent).toBeLessThan(header.indexOf('GET'));
  });

  // Well short of the proxy's own 60 s allowance, and far above the 300 ms deadline.
  it(
    'a proxy connection that sends nothing is closed by the headers deadline',
    { timeout: 20_000 },
    async () => {
      const socket = tcpConnect(room.server.port, '127.0.0.1');
      socket.resume();
      await new Promise((resolve) => socket.once('close', resolve));
      expect(socket.bytesWritten).toBe(0);
    },
  );
});
