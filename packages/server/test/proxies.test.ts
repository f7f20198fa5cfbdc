/**
 * Clients behind load balancers (docs/deploy.md, docs/security.md): the per-address limits count the
 * client a trusted proxy names — in `X-Forwarded-For` or in a PROXY protocol header — and nobody
 * else's word on an address is taken.
 */
import { connect, type Socket } from 'node:net';
import {
  Command,
  IPv4Address,
  IPv4ProxyAddress,
  TransportProtocol,
  V2ProxyProtocol,
} from 'proxy-protocol-js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { clientOfHeader, ProxyHeaderError } from '../src/transport/proxies.js';
import { startTestRoom, TestClient, uniqueName, until, type TestRoom } from './transport-client.js';

const PASSWORD = 'correct horse';

const THROTTLE = { throttle: { addressBurst: 3, addressPerMinute: 1, freeFailures: 100 } };

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

/** The codes of `count` failed logins: BAD_CREDENTIALS while the address's bucket lasts. */
async function failedLogins(client: TestClient, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await client.request('login', { name: uniqueName('nobody'), password: PASSWORD });
    codes.push(answer.op === 'error' ? answer.code : 'ack');
  }
  return codes;
}

const forwarded = (open: TestRoom, chain: string): Promise<TestClient> =>
  TestClient.connect(open, { 'x-forwarded-for': chain });

/** A client whose TCP connection starts with `header`, as a load balancer's does. */
function behindHeader(open: TestRoom, header: string | Uint8Array): Promise<TestClient> {
  return TestClient.connectTo(
    `ws://127.0.0.1:${open.server.port}`,
    {},
    {
      createConnection: () => {
        const socket: Socket = connect(open.server.port, '127.0.0.1');
        socket.write(header);
        return socket;
      },
    },
  );
}

function tryOpen(open: TestRoom, chain: string): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${open.server.port}`, { headers: { 'x-forwarded-for': chain } });
    ws.once('open', () => {
      resolve('open');
    });
    ws.once('error', () => {
      resolve('refused');
    });
  });
}

describe('X-Forwarded-For from a trusted proxy', () => {
  it("the login bucket is the client's that the proxy names, its rightmost hop: a spoofed first hop changes nothing", async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, proxies: ['127.0.0.1'] },
      accounts: THROTTLE,
    });
    const first = await forwarded(room, '203.0.113.7');
    expect(await failedLogins(first, 4)).toEqual([
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'TOO_MANY_ATTEMPTS',
    ]);
    const other = await forwarded(room, '203.0.113.8');
    expect(await failedLogins(other, 1)).toEqual(['BAD_CREDENTIALS']);
    // The client wrote the first address himself; the proxy appended the one it saw.
    const spoofer = await forwarded(room, '198.51.100.99, 203.0.113.7');
    expect(await failedLogins(spoofer, 1)).toEqual(['TOO_MANY_ATTEMPTS']);
    for (const client of [first, other, spoofer]) client.close();
  });

  it("an untrusted peer's X-Forwarded-For is ignored: every client of that peer shares its bucket", async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, proxies: ['10.9.9.9'] },
      accounts: THROTTLE,
    });
    const codes: string[] = [];
    for (const chain of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) {
      const client = await forwarded(room, chain);
      codes.push(...(await failedLogins(client, 1)));
      client.close();
    }
    expect(codes).toEqual(['BAD_CREDENTIALS', 'BAD_CREDENTIALS', 'BAD_CREDENTIALS', 'TOO_MANY_ATTEMPTS']);
  });

  it("WebSockets through the proxy are capped by client, not by the proxy's own address", async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, maxConnections: 2, proxies: ['127.0.0.0/8'] },
    });
    const results = [];
    for (const chain of ['203.0.113.7', '203.0.113.7', '203.0.113.7', '203.0.113.8', '203.0.113.8'])
      results.push(await tryOpen(room, chain));
    expect(results).toEqual(['open', 'open', 'refused', 'open', 'open']);
  });
});

describe('IPv6 clients counted by prefix', () => {
  it('logins from many addresses of one IPv6 /64 share one bucket; another /64 has its own', async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, proxies: ['127.0.0.1'] },
      accounts: THROTTLE,
    });
    const codes: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const client = await forwarded(room, `2001:db8:7:1:${i.toString(16)}::${i}`);
      codes.push(...(await failedLogins(client, 1)));
      client.close();
    }
    expect(codes).toEqual([
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'BAD_CREDENTIALS',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
      'TOO_MANY_ATTEMPTS',
    ]);
    const neighbour = await forwarded(room, '2001:db8:7:2::1');
    expect(await failedLogins(neighbour, 1)).toEqual(['BAD_CREDENTIALS']);
    neighbour.close();
  });

  it('WebSockets from many addresses of one IPv6 /64 share its cap; the prefix length is the operator’s', async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, maxConnections: 2, proxies: ['127.0.0.1'] },
    });
    const results = [];
    for (const chain of ['2001:db8::a', '2001:db8::b', '2001:db8::c:d', '2001:db8:0:1::a'])
      results.push(await tryOpen(room, chain));
    expect(results).toEqual(['open', 'open', 'refused', 'open']);
    await room.close();
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, maxConnections: 2, proxies: ['127.0.0.1'], ipv6Prefix: 48 },
    });
    const wider = [];
    for (const chain of ['2001:db8:5:1::a', '2001:db8:5:2::a', '2001:db8:5:3::a'])
      wider.push(await tryOpen(room, chain));
    expect(wider).toEqual(['open', 'open', 'refused']);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address, however it is written', async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, proxies: ['127.0.0.1'] },
      accounts: THROTTLE,
    });
    const codes: string[] = [];
    for (const chain of ['203.0.113.50', '::ffff:203.0.113.50', '::ffff:cb00:7132', '203.0.113.50']) {
      const client = await forwarded(room, chain);
      codes.push(...(await failedLogins(client, 1)));
      client.close();
    }
    expect(codes).toEqual(['BAD_CREDENTIALS', 'BAD_CREDENTIALS', 'BAD_CREDENTIALS', 'TOO_MANY_ATTEMPTS']);
  });
});

describe('the PROXY protocol from a trusted proxy', () => {
  it('v1 and v2 headers name the client: its login bucket is his, whatever the proxy address', async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { limitLoopback: true, proxies: ['127.0.0.1'], proxyProtocol: true },
      accounts: THROTTLE,
    });
    const v1 = await behindHeader(room, 'PROXY TCP4 198.51.100.1 192.0.2.1 40000 443\r\n');
    expect(await failedLogins(v1, 3)).toEqual(['BAD_CREDENTIALS', 'BAD_CREDENTIALS', 'BAD_CREDENTIALS']);
    const v2Header = new V2ProxyProtocol(
      Command.PROXY,
      TransportProtocol.STREAM,
      new IPv4ProxyAddress(
        IPv4Address.createFrom([198, 51, 100, 1]),
        40001,
        IPv4Address.createFrom([192, 0, 2, 1]),
        443,
      ),
    ).build();
    const v2 = await behindHeader(room, v2Header);
    expect(await failedLogins(v2, 1)).toEqual(['TOO_MANY_ATTEMPTS']);
    const other = await behindHeader(room, 'PROXY TCP4 198.51.100.2 192.0.2.1 40002 443\r\n');
    expect(await failedLogins(other, 1)).toEqual(['BAD_CREDENTIALS']);
    for (const client of [v1, v2, other]) client.close();
  });

  it('a connection from a proxy without a valid header is dropped before any request is read', async () => {
    room = await startTestRoom({
      tables: [],
      addresses: { proxies: ['127.0.0.1'], proxyProtocol: true, proxyHeaderTimeoutMs: 200 },
    });
    for (const start of [
      'GET /health HTTP/1.1\r\nHost: x\r\n\r\n',
      'PROXY TCP4 not-an-address 1.2.3.4 1 2\r\n',
      '',
    ]) {
      const socket = connect(room.server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.write(start);
      const closed = await until(() => (socket.destroyed || socket.readableEnded ? true : undefined));
      expect(closed).toBe(true);
      expect(received).toBe('');
      socket.destroy();
    }
  });

  it("a header's HTTP request in the same packet is served; a LOCAL header (a proxy's health check) names no client", async () => {
    room = await startTestRoom({ tables: [], addresses: { proxies: ['127.0.0.1'], proxyProtocol: true } });
    const socket = connect(room.server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write(
      'PROXY TCP4 198.51.100.1 192.0.2.1 40000 443\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await until(() => (received.includes('"ok"') ? true : undefined));
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
    const local = new V2ProxyProtocol(
      Command.LOCAL,
      TransportProtocol.UNSPEC,
      new IPv4ProxyAddress(IPv4Address.createWithEmptyAddress(), 0, IPv4Address.createWithEmptyAddress(), 0),
    ).build();
    expect(clientOfHeader(Buffer.from(local))).toBeNull();
  });
});

describe('PROXY headers on their own', () => {
  it('the client of a v1 header is its source; UNKNOWN has none; a malformed one is a ProxyHeaderError', () => {
    expect(clientOfHeader(Buffer.from('PROXY TCP6 2001:db8::1 2001:db8::2 1 2\r\n'))).toBe('2001:db8::1');
    expect(clientOfHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toBeNull();
    expect(() => clientOfHeader(Buffer.from('PROXY TCP4 x y 1 2\r\n'))).toThrow(ProxyHeaderError);
  });
});
