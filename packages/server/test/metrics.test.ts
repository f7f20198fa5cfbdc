/**
 * `/metrics` for Prometheus against a running room: the room's figures in the text format, moving
 * with the room — tables as `/health` counts them, players online as they log in, hands as they are
 * dealt, an accepted action in the latency histogram — and the event loop's delay among Node's figures.
 */
import type { ServerMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUp, startTestRoom, type TestRoom } from './transport-client.js';

let room: TestRoom;
beforeAll(async () => {
  room = await startTestRoom();
});
afterAll(async () => {
  await room.close();
});

async function scrape(): Promise<{ contentType: string | null; text: string }> {
  const response = await fetch(`${room.operator}/metrics`);
  expect(response.status).toBe(200);
  return { contentType: response.headers.get('content-type'), text: await response.text() };
}

/** The value of a sample line `name value` (no labels), or of `name{labels} value`. */
async function sample(name: string): Promise<number> {
  const line = (await scrape()).text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no sample ${name}`);
  return Number(line.slice(name.length + 1));
}

describe('/metrics', () => {
  it('is Prometheus text with the room’s figures and the event loop’s delay', async () => {
    const { contentType, text } = await scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'felt_tables',
      'felt_players_online',
      'felt_connections',
      'felt_hands_started_total',
      'felt_action_latency_seconds',
      'felt_errors_total',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    const health = (await (await fetch(`${room.operator}/health`)).json()) as { tables: number };
    expect(await sample('felt_tables')).toBe(health.tables);
    expect(text).toMatch(/^felt_errors_total\{source="table"\} 0$/m);
  });

  it('players online, hands dealt and accepted actions move with the room', async () => {
    const before = await sample('felt_players_online');
    const a = await signedUp(room);
    const b = await signedUp(room);
    expect(await sample('felt_players_online')).toBe(before + 2);
    const hands = await sample('felt_hands_started_total');
    const actions = await sample('felt_action_latency_seconds_count');
    const tableId = 'holdem-fl-play-100';
    await a.client.ok('seat-take', { tableId, seat: 0, buyIn: 2000, post: 'post', autoPost: true });
    await b.client.ok('seat-take', { tableId, seat: 1, buyIn: 2000, post: 'post', autoPost: true });
    const isLegal = (m: ServerMessage): boolean => m.op === 'legal-actions' && m.tableId === tableId;
    const legal = await Promise.race([
      a.client.next(isLegal, 20_000, true).then((m) => ({ who: a, m })),
      b.client.next(isLegal, 20_000, true).then((m) => ({ who: b, m })),
    ]);
    if (legal.m.op !== 'legal-actions') throw new Error('expected legal actions');
    expect(await sample('felt_hands_started_total')).toBeGreaterThan(hands);
    const answer = await legal.who.client.request('act', {
      tableId,
      handId: legal.m.handId,
      action: { type: 'fold' },
    });
    expect(answer.op).toBe('ack');
    await expect
      .poll(() => sample('felt_action_latency_seconds_count'), { timeout: 10_000 })
      .toBeGreaterThan(actions);
    a.client.close();
    b.client.close();
    await expect.poll(() => sample('felt_players_online'), { timeout: 10_000 }).toBe(before);
  });
});
