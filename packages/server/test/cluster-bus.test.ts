/**
 * The cluster's bus (src/cluster/bus.ts) on the real NATS: a request with a client id is applied once
 * however often it is retried (also after a time-out), a member nobody serves answers "no responders",
 * and pushes are judged by epoch and sequence number. Without NATS it skips, or fails when CI=true.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus, BusUnavailable, PushOrder, type BusPush } from '../src/cluster/bus.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';

describe('push order', () => {
  it('applies pushes of its epoch in order, drops older epochs and repeats, and calls a skip a gap', () => {
    const order = new PushOrder(3);
    expect(order.judge({ epoch: 3, seq: 1 })).toBe('apply');
    expect(order.judge({ epoch: 3, seq: 2 })).toBe('apply');
    expect(order.judge({ epoch: 2, seq: 3 })).toBe('drop');
    expect(order.judge({ epoch: 3, seq: 2 })).toBe('drop');
    expect(order.judge({ epoch: 3, seq: 4 })).toBe('gap');
    expect(order.judge({ epoch: 3, seq: 3 })).toBe('apply');
    expect(order.judge({ epoch: 4, seq: 1 })).toBe('gap');
  });

  it('applies every push exactly once when they come in any order with repeats, given it resubscribes on gaps', () => {
    // Whatever arrives, what is applied is 1, 2, 3, … with no number twice and none skipped.
    for (let round = 0; round < 200; round++) {
      const order = new PushOrder(1);
      const applied: number[] = [];
      for (let i = 0; i < 30; i++) {
        const seq = 1 + Math.floor(Math.random() * 10);
        const epoch = Math.random() < 0.1 ? 0 : 1;
        if (order.judge({ epoch, seq }) === 'apply') applied.push(seq);
      }
      expect(applied).toEqual(applied.map((_, at) => at + 1));
    }
  });
});

const reachable = await natsReachable();

describe.runIf(reachable)('the bus (NATS)', () => {
  const buses: Bus[] = [];
  const open = async (name: string): Promise<Bus> => {
    const bus = await Bus.connect(NATS_URL, name, `test-${process.pid}`);
    buses.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });
  /** A member id no other test run uses at the same time on the shared server. */
  const freshMember = () => 1_000_000 + Math.floor(Math.random() * 1_000_000_000);

  it('applies a request once however often its id is sent, at once or one after the other', async () => {
    const owner = await open('owner');
    const caller = await open('caller');
    const member = freshMember();
    let applied = 0;
    owner.serveMember<{ total: number }>(member, (body) => {
      applied += (body as { add: number }).add;
      return Promise.resolve({ total: applied });
    });
    const request = { requestId: randomUUID(), body: { add: 5 } };
    const answers = await Promise.all(
      [1, 2, 3].map(() => caller.request<{ add: number }, { total: number }>(member, request, 10_000)),
    );
    const again = await caller.request<{ add: number }, { total: number }>(member, request, 10_000);
    expect(applied).toBe(5);
    expect([...answers, again]).toEqual([{ total: 5 }, { total: 5 }, { total: 5 }, { total: 5 }]);
    const other = await caller.request(member, { requestId: randomUUID(), body: { add: 1 } }, 10_000);
    expect(other).toEqual({ total: 6 });
  });

  it('a retry after a time-out gets the answer of the first try, which was applied once', async () => {
    const owner = await open('owner');
    const caller = await open('caller');
    const member = freshMember();
    let applied = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    owner.serveMember<string>(member, async () => {
      applied++;
      await gate;
      return 'done';
    });
    const request = { requestId: randomUUID(), body: null };
    const first = await caller.request(member, request, 300).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(BusUnavailable);
    expect((first as BusUnavailable).reason).toBe('timeout');
    release();
    expect(await caller.request(member, request, 10_000)).toBe('done');
    expect(applied).toBe(1);
  });

  it('a request to a member nobody serves fails with "no responders"', async () => {
    const caller = await open('caller');
    const failure = await caller
      .request(freshMember(), { requestId: randomUUID(), body: null }, 10_000)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BusUnavailable);
    expect((failure as BusUnavailable).reason).toBe('no-responders');
  });

  it('delivers the pushes of a subject to its subscriber in order, until it unsubscribes', async () => {
    const owner = await open('owner');
    const watcher = await open('watcher');
    const subject = `felt.test.push.${randomUUID()}`;
    const got: BusPush<string>[] = [];
    const unsubscribe = watcher.subscribe(subject, (push) => got.push(push as BusPush<string>));
    await watcher.flush();
    for (let seq = 1; seq <= 20; seq++) owner.publish(subject, { epoch: 2, seq, message: `m${seq}` });
    await owner.flush();
    const until = Date.now() + 20_000;
    while (got.length < 20 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    const order = new PushOrder(2);
    expect(got.map((push) => order.judge(push))).toEqual(got.map(() => 'apply'));
    expect(got.map((push) => push.message)).toEqual(got.map((_, at) => `m${at + 1}`));
    unsubscribe();
    await watcher.flush();
    owner.publish(subject, { epoch: 2, seq: 21, message: 'late' });
    await owner.flush();
    await watcher.flush();
    expect(got).toHaveLength(20);
  });
});
