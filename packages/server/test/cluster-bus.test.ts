/**
 * The cluster's bus (src/cluster/bus.ts) on the real NATS: a request with a client id is applied once
 * however often it is retried (also after a time-out), a member nobody serves answers "no responders",
 * pushes are judged by epoch and sequence number, and only live members speak: what anyone else puts on
 * the bus — a client without a member's keys, a member that is not live, a message altered or replayed —
 * is refused, and what is sealed for one member is read by no other. Without NATS it skips, or fails
 * when CI=true.
 */
import { randomUUID } from 'node:crypto';
import { connect, type Msg, type NatsConnection } from 'nats';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCEPTED_SKEW_MS,
  Bus,
  BusUnavailable,
  PushOrder,
  type BusPush,
  type BusRefusal,
} from '../src/cluster/bus.js';
import { MemberKeys, type PublicMemberKeys } from '../src/cluster/bus-crypto.js';
import { frameHeader, SEALED } from '../src/cluster/bus-frames.js';
import { LiveMembers } from '../src/cluster/peers.js';
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

const until = async (done: () => boolean, what: string): Promise<void> => {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.runIf(reachable)('the bus (NATS)', () => {
  const room = `test-${process.pid}-${randomUUID().slice(0, 8)}`;
  const subjectOf = (subject: string) => `felt.${room}.${subject}`;
  /** The members' rows as the database would hold them: live members and their public keys. */
  const registered = new Map<number, PublicMemberKeys>();
  const buses: Bus[] = [];
  const clients: NatsConnection[] = [];
  const refusals: { bus: string; why: BusRefusal; from: number }[] = [];
  let nextMember = 1;

  /** A process that joined as a new member (a fresh id), with keys of its own. */
  const open = async (name: string): Promise<{ bus: Bus; member: number }> => {
    const keys = new MemberKeys();
    const members = new LiveMembers(
      { liveMemberKeys: (id) => Promise.resolve(registered.get(id) ?? null) },
      0,
    );
    const bus = await Bus.connect(NATS_URL, name, room, {
      keys,
      members,
      refused: (why, _subject, from) => refusals.push({ bus: name, why, from }),
    });
    const member = nextMember++;
    registered.set(member, keys.public);
    bus.identify(member);
    buses.push(bus);
    return { bus, member };
  };
  /** A client of the bus that is no member: it holds the bus's address (and credentials), no member's keys. */
  const stranger = async (): Promise<NatsConnection> => {
    const nc = await connect({ servers: NATS_URL });
    clients.push(nc);
    return nc;
  };
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await Promise.all(clients.splice(0).map((nc) => nc.close()));
    refusals.splice(0);
  });

  it('applies a request once however often its id is sent, at once or one after the other', async () => {
    const { bus: owner, member } = await open('owner');
    const { bus: caller } = await open('caller');
    let applied = 0;
    owner.serveMember<{ total: number }>(member, (body) => {
      applied += (body as { add: number }).add;
      return Promise.resolve({ total: applied });
    });
    await owner.flush();
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
    const { bus: owner, member } = await open('owner');
    const { bus: caller } = await open('caller');
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
    await owner.flush();
    const request = { requestId: randomUUID(), body: null };
    const first = await caller.request(member, request, 300).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(BusUnavailable);
    expect((first as BusUnavailable).reason).toBe('timeout');
    release();
    expect(await caller.request(member, request, 10_000)).toBe('done');
    expect(applied).toBe(1);
  });

  it('a request to a member nobody serves fails with "no responders"', async () => {
    const { bus: caller } = await open('caller');
    const { member: silent } = await open('silent');
    const failure = await caller
      .request(silent, { requestId: randomUUID(), body: null }, 10_000)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BusUnavailable);
    expect((failure as BusUnavailable).reason).toBe('no-responders');
  });

  it('delivers the pushes sealed for a member to it in order, until it unsubscribes', async () => {
    const { bus: owner } = await open('owner');
    const { bus: watcher, member } = await open('watcher');
    const subject = `push.${member}.${randomUUID()}`;
    const got: BusPush<string>[] = [];
    const unsubscribe = watcher.subscribeSealed(subject, (push) => got.push(push as BusPush<string>));
    await watcher.flush();
    for (let seq = 1; seq <= 20; seq++)
      owner.publishTo(member, subject, { epoch: 2, seq, message: `m${seq}` });
    await until(() => got.length === 20, 'twenty pushes');
    const order = new PushOrder(2);
    expect(got.map((push) => order.judge(push))).toEqual(got.map(() => 'apply'));
    expect(got.map((push) => push.message)).toEqual(got.map((_, at) => `m${at + 1}`));
    unsubscribe();
    await watcher.flush();
    owner.publishTo(member, subject, { epoch: 2, seq: 21, message: 'late' });
    await owner.flush();
    await watcher.flush();
    expect(got).toHaveLength(20);
  });

  it('a request put on the bus by a client that is not a member is never handled', async () => {
    const { bus: owner, member } = await open('owner');
    let handled = 0;
    owner.serveMember(member, () => Promise.resolve(++handled));
    await owner.flush();
    const nc = await stranger();
    const nobodySealed = Buffer.alloc(40, 7);
    const forged = [
      // The message a member sent before the bus was closed: plain JSON.
      Buffer.from(JSON.stringify({ requestId: randomUUID(), body: { kind: 'handle', tableId: 't1' } })),
      // A frame naming a live member, with bytes nobody sealed.
      Buffer.concat([frameHeader({ kind: SEALED, from: member, to: member, at: Date.now() }), nobodySealed]),
      // A member id nobody registered.
      Buffer.concat([frameHeader({ kind: SEALED, from: 999_999, to: member, at: Date.now() }), nobodySealed]),
    ];
    for (const message of forged) {
      const answer = await nc
        .request(subjectOf(`member.${member}.requests`), message, { timeout: 1000 })
        .catch((error: unknown) => error);
      expect(answer).toBeInstanceOf(Error);
    }
    expect(handled).toBe(0);
    expect(refusals.map((refusal) => refusal.why)).toEqual([
      'malformed',
      'not from its sender',
      'not a live member',
    ]);
  });

  it('what is sealed for one member is read by no other, and a stranger sees no byte of it in clear', async () => {
    const { bus: owner, member: ownerId } = await open('owner');
    const { bus: watcher, member } = await open('watcher');
    const { bus: eavesdropper, member: eavesdropperId } = await open('eavesdropper');
    const subject = `push.${member}.1`;
    const got: unknown[] = [];
    const overheard: unknown[] = [];
    const raw: Msg[] = [];
    watcher.subscribeSealed(subject, (value) => got.push(value));
    eavesdropper.subscribeSealed(subject, (value) => overheard.push(value));
    const nc = await stranger();
    nc.subscribe(subjectOf('>'), { callback: (_error, msg) => raw.push(msg) });
    await Promise.all([watcher.flush(), eavesdropper.flush(), nc.flush()]);
    owner.publishTo(member, subject, { epoch: 1, seq: 1, message: { cards: ['Ah', 'Kd'] } });
    await until(() => got.length === 1 && raw.length === 1, 'the push');
    expect(got).toEqual([{ epoch: 1, seq: 1, message: { cards: ['Ah', 'Kd'] } }]);
    expect(raw[0]!.subject).toBe(subjectOf(`pushes.${member}`));
    expect(raw[0]!.data[0]).toBe(SEALED);
    expect(Buffer.from(raw[0]!.data).includes(JSON.stringify({ cards: ['Ah', 'Kd'] }))).toBe(false);
    expect(Buffer.from(raw[0]!.data).includes('"cards"')).toBe(false);
    // The same bytes put on the eavesdropper's own push subject: not for it, and it cannot open them.
    nc.publish(subjectOf(`pushes.${eavesdropperId}`), raw[0]!.data);
    await until(() => refusals.length === 1, "the eavesdropper's refusal");
    expect(overheard).toEqual([]);
    expect(refusals).toEqual([{ bus: 'eavesdropper', why: 'not for this member', from: ownerId }]);
  });

  it("an action's pushes to one member, for all its subscriptions, travel as one sealed frame", async () => {
    const { bus: owner } = await open('owner');
    const { bus: watcher, member } = await open('watcher');
    const got: string[] = [];
    for (const n of [1, 2, 3])
      watcher.subscribeSealed(`push.${member}.${n}`, (value) => got.push(`${n}:${String(value)}`));
    const nc = await stranger();
    const raw: Msg[] = [];
    nc.subscribe(subjectOf(`pushes.${member}`), { callback: (_error, msg) => raw.push(msg) });
    await Promise.all([watcher.flush(), nc.flush()]);
    for (const n of [1, 2, 3]) owner.publishTo(member, `push.${member}.${n}`, 'a');
    owner.publishTo(member, `push.${member}.1`, 'b');
    await until(() => got.length === 4, 'the pushes');
    expect(got).toEqual(['1:a', '2:a', '3:a', '1:b']);
    expect(raw).toHaveLength(1);
  });

  it('a member that is not live any more is not heard, nor is a request replayed after its time', async () => {
    const { bus: owner, member } = await open('owner');
    const { bus: caller, member: callerId } = await open('caller');
    let handled = 0;
    owner.serveMember(member, () => Promise.resolve(++handled));
    const nc = await stranger();
    const captured: Msg[] = [];
    nc.subscribe(subjectOf(`member.${member}.requests`), { callback: (_error, msg) => captured.push(msg) });
    await Promise.all([owner.flush(), nc.flush()]);
    const request = { requestId: randomUUID(), body: 'fold' };
    expect(await caller.request(member, request, 10_000)).toBe(1);
    await until(() => captured.length === 1, 'the captured request');
    // Replayed at once: the first answer again, not applied twice.
    await nc.request(captured[0]!.subject, captured[0]!.data, { timeout: 5000 });
    expect(handled).toBe(1);
    // Replayed once it is older than the bus accepts: refused (the owner's clock moved on).
    owner.setClockOffset(ACCEPTED_SKEW_MS + 1000);
    const late = await nc
      .request(captured[0]!.subject, captured[0]!.data, { timeout: 1000 })
      .catch((error: unknown) => error);
    expect(late).toBeInstanceOf(Error);
    owner.setClockOffset(0);
    // The caller's process stopped being a member: what it still sends is refused.
    registered.delete(callerId);
    const gone = await caller
      .request(member, { requestId: randomUUID(), body: 'fold' }, 1000)
      .catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(BusUnavailable);
    expect(handled).toBe(1);
    expect(refusals.map((refusal) => refusal.why)).toEqual(['stale', 'not a live member']);
  });

  it('while nobody can be told live (the database away) nothing is taken, nothing breaks, and it goes on after', async () => {
    let away = true;
    const keys = new MemberKeys();
    const owner = await Bus.connect(NATS_URL, 'owner', room, {
      keys,
      members: new LiveMembers(
        {
          liveMemberKeys: (id) =>
            away
              ? Promise.reject(new Error('connection refused'))
              : Promise.resolve(registered.get(id) ?? null),
        },
        0,
      ),
    });
    buses.push(owner);
    const member = nextMember++;
    registered.set(member, keys.public);
    owner.identify(member);
    let handled = 0;
    owner.serveMember(member, () => Promise.resolve(++handled));
    await owner.flush();
    const { bus: caller } = await open('caller');
    const during = await caller
      .request(member, { requestId: randomUUID(), body: null }, 1000)
      .catch((error: unknown) => error);
    expect(during).toBeInstanceOf(BusUnavailable);
    away = false;
    expect(await caller.request(member, { requestId: randomUUID(), body: null }, 10_000)).toBe(1);
    expect(handled).toBe(1);
  });

  it('a broadcast is heard from the member that signed it, and refused once altered or unsigned', async () => {
    const { bus: sender, member } = await open('sender');
    const { bus: listener } = await open('listener');
    const heard: { value: unknown; from: number }[] = [];
    listener.subscribe('owned-tables', (value, from) => heard.push({ value, from }));
    const nc = await stranger();
    const raw: Msg[] = [];
    nc.subscribe(subjectOf('owned-tables'), { callback: (_error, msg) => raw.push(msg) });
    await Promise.all([listener.flush(), nc.flush()]);
    sender.publish('owned-tables', { member, tables: [] });
    await until(() => heard.length === 1 && raw.length === 1, 'the broadcast');
    expect(heard).toEqual([{ value: { member, tables: [] }, from: member }]);
    const signed = Buffer.from(raw[0]!.data);
    const body = JSON.stringify({ member, tables: [] });
    expect(signed.subarray(signed.length - body.length).toString()).toBe(body);
    const altered = Buffer.concat([
      signed.subarray(0, signed.length - body.length),
      Buffer.from(JSON.stringify({ member, tables: [{ tableId: 'real-money' }] })),
    ]);
    nc.publish(subjectOf('owned-tables'), altered);
    nc.publish(subjectOf('owned-tables'), JSON.stringify({ member, tables: [{ tableId: 'real-money' }] }));
    await until(() => refusals.length === 2, 'both refusals');
    expect(heard).toHaveLength(1);
    expect(refusals.map((refusal) => refusal.why).sort()).toEqual(['malformed', 'not from its sender']);
  });
});
