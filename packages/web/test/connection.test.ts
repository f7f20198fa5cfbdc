import { describe, expect, it } from 'vitest';
import { Connection, RequestError, type ConnectionStatus } from '../src/net/connection';
import { FakeNetwork, flush } from './fake-socket';

function manualTimers() {
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  return {
    timers,
    setTimer: (fn: () => void, ms: number) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle: unknown) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
}

describe('Connection', () => {
  it('answers a request with its ack, rejects with the error code, passes pushes on', async () => {
    const network = new FakeNetwork();
    const pushes: Record<string, unknown>[] = [];
    const connection = new Connection({
      urls: ['ws://room/ws'],
      socket: network.factory,
      onPush: (message) => pushes.push(message),
      onStatus: () => undefined,
    });
    const socket = network.last;
    const early = connection.request('ping');
    expect(socket.sent).toHaveLength(0); // queued until open
    socket.open();
    expect(socket.sent[0]).toMatchObject({ op: 'ping', id: 1 });
    socket.ack('ping', { time: 5 });
    await expect(early).resolves.toMatchObject({ op: 'ack', data: { time: 5 } });

    const refused = connection.request('top-up', { amount: 10 });
    socket.refuse('top-up', 'TOP_UP_LIMIT', 'too much');
    await expect(refused).rejects.toEqual(new RequestError('TOP_UP_LIMIT', 'too much'));
    expect(await refused.catch((error: unknown) => (error as RequestError).code)).toBe('TOP_UP_LIMIT');

    socket.receive({ op: 'balances', balances: { play: 1, real: 2 } });
    expect(pushes).toEqual([{ op: 'balances', balances: { play: 1, real: 2 } }]);
  });

  it('reconnects by itself with backoff, resumes before sending anything queued, fails requests lost in flight', async () => {
    const network = new FakeNetwork();
    const timers = manualTimers();
    const statuses: ConnectionStatus[] = [];
    const opens: boolean[] = [];
    let connection: Connection | null = null;
    connection = new Connection({
      urls: ['ws://room/ws'],
      socket: network.factory,
      onPush: () => undefined,
      onStatus: (status) => statuses.push(status),
      onOpen: (reopened) => {
        opens.push(reopened);
        return reopened ? connection?.requestFirst('resume', { token: 't'.repeat(16) }) : undefined;
      },
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    network.last.open();
    const lost = connection.request('lobby-list');
    network.last.close();
    await expect(lost).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(statuses).toEqual(['open', 'reconnecting']);

    const queued = connection.request('table-open', { tableId: 't1' });
    const retry = timers.timers.filter((timer) => timer.ms === 250);
    expect(retry).toHaveLength(1);
    retry[0]!.fn();
    expect(network.sockets).toHaveLength(2);
    network.last.open();
    expect(opens).toEqual([false, true]);
    // The resume goes first; the queued request waits for its answer.
    expect(network.last.sent.map((frame) => frame['op'])).toEqual(['resume']);
    network.last.ack('resume', {});
    await flush();
    expect(network.last.sent.map((frame) => frame['op'])).toEqual(['resume', 'table-open']);
    network.last.ack('table-open', { seat: null });
    await expect(queued).resolves.toMatchObject({ for: 'table-open' });
    expect(statuses.at(-1)).toBe('open');

    // A second drop backs off from 250 ms again after a successful open.
    network.last.close();
    expect(timers.timers.at(-1)!.ms).toBe(250);
    timers.timers.at(-1)!.fn();
    network.last.close();
    expect(timers.timers.at(-1)!.ms).toBe(500);
    connection.close();
    expect(statuses.at(-1)).toBe('closed');
  });
  it('several addresses: a dropped socket is retried where it was, and each failed attempt moves on to the next address', async () => {
    const network = new FakeNetwork();
    const timers = manualTimers();
    const opens: boolean[] = [];
    const connection = new Connection({
      urls: ['ws://a/ws', 'ws://b/ws', 'ws://c/ws'],
      socket: network.factory,
      onPush: () => undefined,
      onStatus: () => undefined,
      onOpen: (reopened) => {
        opens.push(reopened);
        return undefined;
      },
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    network.last.open();
    // Process a dies: its socket drops, and a is tried once more before b and c.
    network.last.close();
    timers.timers.at(-1)!.fn();
    network.last.close();
    timers.timers.at(-1)!.fn();
    expect(network.sockets.map((socket) => socket.url)).toEqual(['ws://a/ws', 'ws://a/ws', 'ws://b/ws']);
    network.last.open();
    expect(opens).toEqual([false, true]);
    const asked = connection.request('lobby-list');
    expect(network.last.sent).toMatchObject([{ op: 'lobby-list' }]);
    network.last.ack('lobby-list', { tables: [] });
    await expect(asked).resolves.toMatchObject({ for: 'lobby-list' });
    // b dies too and c is down: the addresses go round, a again after c.
    network.last.close();
    for (let i = 0; i < 3; i++) {
      timers.timers.at(-1)!.fn();
      network.last.close();
    }
    timers.timers.at(-1)!.fn();
    expect(network.sockets.slice(3).map((socket) => socket.url)).toEqual([
      'ws://b/ws',
      'ws://c/ws',
      'ws://a/ws',
      'ws://b/ws',
    ]);
    connection.close();
  });

  it('reopen (after signing in): a fresh socket at once, no backoff; requests in flight fail, later ones go on the new socket after onOpen', async () => {
    const network = new FakeNetwork();
    const timers = manualTimers();
    const opens: boolean[] = [];
    let connection: Connection | null = null;
    connection = new Connection({
      urls: ['ws://room/ws'],
      socket: network.factory,
      onPush: () => undefined,
      onStatus: () => undefined,
      onOpen: (reopened) => {
        opens.push(reopened);
        return reopened ? connection?.requestFirst('resume') : undefined;
      },
      ...timers,
    });
    const first = network.last;
    first.open();
    const lost = connection.request('lobby-list');
    connection.reopen();
    await expect(lost).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(first.readyState).toBe(3);
    expect(network.sockets).toHaveLength(2);
    expect(
      timers.timers.filter((timer) => timer.ms >= 250 && !timer.cleared && timer.ms <= 5000),
    ).toHaveLength(0);
    const later = connection.request('ping');
    const second = network.last;
    second.open();
    expect(second.sent.map((frame) => frame['op'])).toEqual(['resume']);
    second.ack('resume', {});
    await flush();
    expect(second.sent.map((frame) => frame['op'])).toEqual(['resume', 'ping']);
    second.ack('ping', { time: 1 });
    await expect(later).resolves.toMatchObject({ op: 'ack' });
    expect(opens).toEqual([false, true]);
    connection.close();
  });
});
