/**
 * What the room tells over HTTP and to whom, against running rooms: anyone learns from `/health` only
 * whether the room is up and ready; `/metrics` and `/health`'s figures are the operators', on their
 * own loopback port or on the players' port to a request bearing their token.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FeltServer, tempDir } from './integration-helpers.js';
import { startTestRoom, type TestRoom } from './transport-client.js';

const TOKEN = 'operator-token-0123456789';

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

const get = (url: string, token?: string): Promise<Response> =>
  fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

describe('the operators’ figures', () => {
  it('the players’ /health says only whether the room is up and ready; /metrics is not on their port', async () => {
    room = await startTestRoom({ tables: [] });
    const health = await get(`${room.http}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', ready: true });
    expect((await get(`${room.http}/metrics`)).status).toBe(404);
  });

  it('the operators’ port serves /metrics and /health with every figure, and nothing else', async () => {
    room = await startTestRoom({ tables: [] });
    const metrics = await get(`${room.operator}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^felt_tables 0$/m);
    const health = (await (await get(`${room.operator}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', ready: true, tables: 0, connections: 0 });
    expect(Object.keys(health)).toEqual(
      expect.arrayContaining(['failedTables', 'uptimeMs', 'eventLoopDelayMs', 'actLatencyMs']),
    );
    expect((await get(`${room.operator}/api/tables`)).status).toBe(404);
    expect((await get(`${room.operator}/`)).status).toBe(404);
  });

  it('on the players’ port the operator’s bearer token opens /metrics and the full /health; no token or another is refused', async () => {
    room = await startTestRoom({ tables: [], metrics: { token: TOKEN } });
    expect(room.server.metricsPort).toBeNull();
    const metrics = await get(`${room.http}/metrics`, TOKEN);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^felt_tables 0$/m);
    expect(await (await get(`${room.http}/health`, TOKEN)).json()).toMatchObject({ tables: 0 });
    for (const token of [undefined, 'operator-token-012345678', `${TOKEN}x`, '']) {
      const refused = await get(`${room.http}/metrics`, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await (await get(`${room.http}/health`, token)).json()).toEqual({ status: 'ok', ready: true });
    }
  });

  it('felt serve takes the token from --metrics-token-file and names its operators’ port in its log', async () => {
    const folder = tempDir('felt-operator-');
    const tokenFile = join(folder.dir, 'metrics-token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    const server = await FeltServer.start(folder.dir, 0, ['--metrics-token-file', tokenFile]);
    try {
      expect(server.metricsPort).toBeGreaterThan(0);
      const players = `http://127.0.0.1:${server.port}`;
      expect((await get(`${players}/metrics`)).status).toBe(401);
      expect((await get(`${players}/metrics`, TOKEN)).status).toBe(200);
      expect((await get(`${server.operator}/metrics`)).status).toBe(200);
    } finally {
      await server.stop();
      folder.remove();
    }
  });
});
