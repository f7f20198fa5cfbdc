/**
 * Table leases with fencing epochs (src/cluster/) on a real PostgreSQL: one owner per table however
 * members race, a lease taken over only once it ran out and then with a higher epoch, every write of a
 * fenced-out owner refused by the database and changing nothing, and the takeover's recovery returning
 * every chip; the tournament schedule's lease and the runs' alike, their holders' writes fenced, and
 * in no view of the tables; the schedule's holder opening each run due once. Without PostgreSQL it skips, or fails when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import { MemberKeys } from '../src/cluster/bus-crypto.js';
import { fencedDriver, fencedTableStorage, type Fence } from '../src/cluster/fence.js';
import { ClusterRegistry, runLease, type Lease, type MemberId } from '../src/cluster/registry.js';
import { seatsFor, takeOver } from '../src/cluster/takeover.js';
import { openRunsDue } from '../src/cluster/tournament-schedule.js';
import { TOURNAMENTS_LEASE } from '../src/cluster/tournaments.js';
import { sqlStorage } from '../src/storage/sql-storage.js';
import { openMigratedPostgresStorage, PostgresDriver, type Storage } from '../src/storage/index.js';
import { realClock } from '../src/table/clock.js';
import { storedCheckpoint } from '../src/tournament/checkpoint.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { conserved, opener, user } from './storage-contract-helpers.js';
import { holdemDefinition } from './tournament-helpers.js';

const reachable = await postgresReachable();

/** Long enough for a test's writes on a busy machine, short enough to wait for it to run out. */
const LEASE_MS = 2500;

/** A new member of `registry` with keys of its own; its id. */
const joined = async (registry: ClusterRegistry, label: string, address: string): Promise<MemberId> =>
  (await registry.join(label, address, new MemberKeys().public)).id;

/** Polls `fn` until it gives a value (generous: the machine is shared). */
async function eventually<T>(fn: () => Promise<T | null>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(reachable)('table leases (PostgreSQL)', () => {
  const db = testDatabase();

  interface Room {
    readonly storage: Storage;
    readonly driver: PostgresDriver;
    readonly registry: ClusterRegistry;
    readonly url: string;
  }
  const open = opener(async () => {
    const url = await db.freshSchema();
    const storage = await openMigratedPostgresStorage({ url, poolSize: 4 });
    const driver = new PostgresDriver({ url, poolSize: 4, idleInTransactionTimeoutMs: 1000 });
    const registry = new ClusterRegistry(driver, LEASE_MS);
    const room: Room & { close(): Promise<void> } = {
      storage,
      driver,
      registry,
      url,
      close: async () => {
        await driver.close();
        await storage.close();
      },
    };
    return room;
  });

  const fenceOf = (memberId: MemberId, lease: Lease): Fence => ({ ...lease, memberId });

  /** Ann and Bob with 5,000 real cents each, bought in for 1,000 at `t1` through the lease, blinds posted. */
  async function handThroughLease(room: Room, fence: Fence) {
    const ann = await user(room.storage, 'ann');
    const bob = await user(room.storage, 'bob');
    const table = fencedTableStorage(room.driver, fence);
    for (const id of [ann, bob]) {
      await room.storage.cashier(id, 'credit', 5000);
      expect((await table.buyIn('t1', id, 'real', 1000)).ok).toBe(true);
    }
    const started = await table.startHand({
      tableId: 't1',
      currency: 'real',
      description: "NL Hold'em 0.05/0.10",
      participants: [
        { userId: ann, seat: 1, position: 0 },
        { userId: bob, seat: 4, position: 1 },
      ],
      posts: [
        { userId: ann, amount: 5 },
        { userId: bob, amount: 10 },
      ],
      // What a takeover reads of the state the hand was dealt from (the table's is fuller).
      start: JSON.stringify({ accounts: [ann, bob], stacks: [1000, 1000] }),
    });
    if (!started.ok) throw new Error(started.error.message);
    const hand = started.value;
    const raised = await table.recordAction({
      handId: hand,
      seq: 0,
      action: '{"raise":30}',
      moves: [{ userId: ann, amount: 25 }],
    });
    expect(raised.ok).toBe(true);
    return { ann, bob, hand, table };
  }

  it('members racing for a table make exactly one owner, whose lease the others cannot take', async () => {
    const { registry } = await open();
    const members = await Promise.all([1, 2, 3].map((n) => joined(registry, `node-${n}`, `ws://n${n}`)));
    expect(new Set(members).size).toBe(3);
    const tables = Array.from({ length: 8 }, (_, i) => `t${i}`);
    const taken = await Promise.all(
      tables.flatMap((tableId) => members.map((m) => registry.acquire(m, tableId).then((l) => ({ m, l })))),
    );
    for (const tableId of tables) {
      const winners = taken.filter(({ l }) => l?.tableId === tableId);
      expect(winners).toHaveLength(1);
      expect(winners[0]!.l!.epoch).toBe(1);
      for (const m of members) expect(await registry.acquire(m, tableId)).toBeNull();
    }
    const view = await registry.view();
    expect(view.leases.map((l) => l.tableId)).toEqual(tables);
    expect(view.members.map((m) => m.id)).toEqual([...members].sort((x, y) => x - y));
  });

  it('a lease that ran out is taken over with a higher epoch, and the old owner cannot renew it', async () => {
    const { registry } = await open();
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const first = await registry.acquire(a, 't1');
    expect(first).toEqual({ tableId: 't1', epoch: 1 });
    expect(await registry.acquire(b, 't1')).toBeNull();
    // a stops renewing (killed or paused); b takes the table once the lease ran out by the database's clock.
    const second = await eventually(() => registry.acquire(b, 't1'), 'the takeover');
    expect(second.epoch).toBe(2);
    expect(await registry.renew(a)).toEqual([]);
    expect(await registry.renew(b)).toEqual([{ tableId: 't1', epoch: 2 }]);
    expect(await registry.acquire(a, 't1')).toBeNull();
  });

  it('a member that missed a lease period is no member any more: it joins again under a new id', async () => {
    const { registry } = await open();
    const a = await joined(registry, 'same-name', 'ws://a');
    expect(await registry.heartbeat(a)).not.toBeNull();
    await eventually(async () => ((await registry.liveMembers()).includes(a) ? null : true), 'a to lapse');
    expect(await registry.heartbeat(a)).toBeNull();
    const again = await joined(registry, 'same-name', 'ws://a');
    expect(again).not.toBe(a);
    expect(await registry.liveMembers()).toEqual([again]);
  });

  it("a fenced-out owner's late writes are refused by the database and change nothing", async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { ann, bob, hand, table } = await handThroughLease(room, fenceOf(a, leaseA));
    const leaseB = await eventually(() => registry.acquire(b, 't1'), 'the takeover');
    expect(leaseB.epoch).toBe(leaseA.epoch + 1);

    const before = {
      contributions: await storage.contributions(hand),
      seats: await storage.seats(),
      ann: await storage.balances(ann),
    };
    const late = await table.recordAction({
      handId: hand,
      seq: 1,
      action: '{"call":30}',
      moves: [{ userId: bob, amount: 20 }],
    });
    expect(late.ok ? null : late.error.code).toBe('FENCED');
    const buyIn = await table.buyIn('t1', ann, 'real', 500);
    expect(buyIn.ok ? null : buyIn.error.code).toBe('FENCED');
    const cashOut = await table.cashOut('t1', bob, 'real');
    expect(cashOut.ok ? null : cashOut.error.code).toBe('FENCED');
    const next = await table.startHand({
      tableId: 't1',
      currency: 'real',
      description: 'late',
      participants: [{ userId: ann, seat: 1, position: 0 }],
    });
    expect(next.ok ? null : next.error.code).toBe('FENCED');
    await expect(table.recoverTables(['t1'])).rejects.toThrow(/FENCED|not held/);

    expect(await storage.contributions(hand)).toEqual(before.contributions);
    expect(await storage.seats()).toEqual(before.seats);
    expect(await storage.balances(ann)).toEqual(before.ann);
    expect(await storage.handStatus(hand)).toBe('in-progress');
    await conserved(storage);
  });

  it("the tournaments' lease is taken over like a table's, a director that lost it stores no checkpoint, and it is no table's", async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, TOURNAMENTS_LEASE, 'tournaments'))!;
    expect(leaseA.epoch).toBe(1);
    expect(await registry.acquire(b, TOURNAMENTS_LEASE, 'tournaments')).toBeNull();
    // Renewed with the member's tables, but no table of the lobby: not in the view the targets come from.
    expect(await registry.renew(a)).toEqual([{ tableId: TOURNAMENTS_LEASE, epoch: 1 }]);
    expect((await registry.view()).leases).toEqual([]);
    const directorA = sqlStorage(fencedDriver(room.driver, fenceOf(a, leaseA)));
    await directorA.saveTournament('sng@1', '{"step":1}', false);

    const leaseB = await eventually(
      () => registry.acquire(b, TOURNAMENTS_LEASE, 'tournaments'),
      'the takeover of the tournaments',
    );
    expect(leaseB.epoch).toBe(2);
    expect(await registry.holder(TOURNAMENTS_LEASE)).toMatchObject({ memberId: b, epoch: 2 });
    await expect(directorA.saveTournament('sng@1', '{"step":2}', false)).rejects.toThrow(/FENCED|not held/);
    expect(await storage.tournamentsInPlay()).toEqual([{ id: 'sng@1', checkpoint: '{"step":1}' }]);
    const directorB = sqlStorage(fencedDriver(room.driver, fenceOf(b, leaseB)));
    await directorB.saveTournament('sng@1', '{"step":3}', false);
    expect(await storage.tournamentsInPlay()).toEqual([{ id: 'sng@1', checkpoint: '{"step":3}' }]);
  });

  it("a tournament run's lease is listed with the runs, apart from the tables'; the schedule's holder opens each run due once, and one that lost it none", async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const run = (await registry.acquire(a, runLease('sng@1'), 'tournament'))!;
    const view = await registry.view();
    expect(view.leases).toEqual([]);
    expect(view.runs).toMatchObject([{ tournamentId: 'sng@1', memberId: a, epoch: run.epoch }]);

    const entries: TournamentEntry[] = [
      { id: 'sng', definition: holdemDefinition() },
      {
        id: 'daily',
        definition: holdemDefinition({ kind: 'scheduled' }),
        schedule: { startsAt: Date.now() + 3_600_000 },
      },
    ];
    const file = { entries, cancelled: [] };
    const schedule = (await registry.acquire(a, TOURNAMENTS_LEASE, 'tournaments'))!;
    const holder = sqlStorage(fencedDriver(room.driver, fenceOf(a, schedule)));
    const opened = await openRunsDue(holder, file, realClock());
    expect(opened.map((id) => id.split('@')[0])).toEqual(['sng', 'daily']);
    expect((await storage.tournamentsInPlay()).map((stored) => stored.id).sort()).toEqual([...opened].sort());
    // Stored as open for registration, nobody registered: whoever takes a run's lease resumes it so.
    const stored = storedCheckpoint((await storage.storedTournament(opened[0]!))!);
    expect(stored).toMatchObject({ phase: 'registering', entrants: [] });
    expect(await openRunsDue(holder, file, realClock())).toEqual([]);

    await registry.release(a, schedule);
    const b = await joined(registry, 'b', 'ws://b');
    expect(await registry.acquire(b, TOURNAMENTS_LEASE, 'tournaments')).toMatchObject({ epoch: 2 });
    // A sit & go run started elsewhere: another is due, but the old holder cannot store it.
    await storage.saveTournament(opened[0]!, JSON.stringify({ ...stored, phase: 'running' }), false);
    await expect(openRunsDue(holder, file, realClock())).rejects.toThrow(/FENCED|not held/);
    expect(await storage.tournamentsInPlay()).toHaveLength(2);
  });

  it('the takeover cancels the hand in progress and returns every chip to whoever put it in', async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { ann, bob, hand } = await handThroughLease(room, fenceOf(a, leaseA));
    const leaseB = await eventually(() => registry.acquire(b, 't1'), 'the takeover');

    const report = await fencedTableStorage(room.driver, fenceOf(b, leaseB)).recoverTables(['t1']);
    expect(report).toEqual({ handsCancelled: 1, refunded: 40, seatsCashedOut: 2, cashedOut: 2000 });
    expect(await storage.handStatus(hand)).toBe('cancelled');
    expect(await storage.balances(ann)).toEqual({ play: 0, real: 5000 });
    expect(await storage.balances(bob)).toEqual({ play: 0, real: 5000 });
    expect(await storage.seats()).toEqual([]);
    await conserved(storage);
  });

  it('a takeover that keeps the seats cancels the hand in progress and leaves every chip in its seat', async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { ann, bob, hand, table } = await handThroughLease(room, fenceOf(a, leaseA));
    // Cal sat down while the hand was played: no seat of a hand to go back to.
    const cal = await user(storage, 'cal');
    await storage.cashier(cal, 'credit', 5000);
    expect((await table.buyIn('t1', cal, 'real', 700)).ok).toBe(true);
    const leaseB = await eventually(() => registry.acquire(b, 't1'), 'the takeover');

    const taken = await takeOver(room.driver, fenceOf(b, leaseB));
    expect(taken.handsCancelled).toBe(1);
    expect(taken.seats).toEqual([
      { player: { account: ann, name: 'ann' }, seat: 1, stack: 1000 },
      { player: { account: bob, name: 'bob' }, seat: 4, stack: 1000 },
      { player: { account: cal, name: 'cal' }, seat: null, stack: 700 },
    ]);
    expect(await storage.handStatus(hand)).toBe('cancelled');
    expect(await storage.balances(ann)).toEqual({ play: 0, real: 4000 });
    expect(await storage.seat('t1', bob, 'real')).toBe(1000);
    expect([...seatsFor(taken.seats, 6)].map(([seat, kept]) => [seat, kept.player.name])).toEqual([
      [1, 'ann'],
      [4, 'bob'],
      [0, 'cal'],
    ]);
    await conserved(storage);
  });

  it('a lease released with its hand in play: the next owner gets the hand to go on with, nothing cancelled, and writes its actions', async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { ann, bob, hand, table } = await handThroughLease(room, fenceOf(a, leaseA));
    // Bob folds and leaves: he takes what he had not put in.
    expect((await table.recordAction({ handId: hand, seq: 1, action: '{"fold":1}' })).ok).toBe(true);
    expect((await table.cashOut('t1', bob, 'real')).ok).toBe(true);
    await registry.release(a, leaseA, true);
    const leaseB = (await registry.acquire(b, 't1'))!;
    const fenceB = fenceOf(b, leaseB);

    const taken = await takeOver(room.driver, fenceB);
    expect(taken.handsCancelled).toBe(0);
    expect(taken.resume).toEqual({
      handId: hand,
      start: JSON.stringify({ accounts: [ann, bob], stacks: [1000, 1000] }),
      actions: ['{"raise":30}', '{"fold":1}'],
    });
    // Bob, who left the hand, is not seated again.
    expect(taken.seats).toEqual([{ player: { account: ann, name: 'ann' }, seat: 1, stack: 1000 }]);
    expect(await storage.handStatus(hand)).toBe('in-progress');
    const next = fencedTableStorage(room.driver, fenceB);
    const record = { handId: hand, seq: 2, action: '{"check":0}' };
    expect(await next.recordAction(record)).toMatchObject({ ok: false, error: { code: 'FENCED' } });
    next.adopt(hand);
    expect((await next.recordAction(record)).ok).toBe(true);
    // The old owner writes nothing more.
    expect((await table.recordAction({ ...record, seq: 3 })).ok).toBe(false);
    await conserved(storage);
  });

  it('a crash leaves no mark, and a mark is for the next lease only: the hand is cancelled', async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const c = await joined(registry, 'c', 'ws://c');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { hand } = await handThroughLease(room, fenceOf(a, leaseA));
    await registry.release(a, leaseA, true);
    // b takes it and dies before it looks (its lease runs out): c finds the mark of an older lease.
    await registry.acquire(b, 't1');
    const leaseC = await eventually(() => registry.acquire(c, 't1'), 'the takeover');
    const taken = await takeOver(room.driver, fenceOf(c, leaseC));
    expect(taken).toMatchObject({ handsCancelled: 1, resume: null });
    expect(await storage.handStatus(hand)).toBe('cancelled');

    // A lease given up between hands, or run out, is no handover in play either.
    const other = await registry.acquire(a, 't2');
    await registry.release(a, other!);
    const view = await room.driver.get("SELECT handed_over_epoch FROM table_leases WHERE table_id = 't2'");
    expect(view).toEqual({ handed_over_epoch: null });
    await conserved(storage);
  });

  it('a takeover through a lease another member has taken since changes nothing', async () => {
    const room = await open();
    const { registry, storage } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    const { hand } = await handThroughLease(room, fenceOf(a, leaseA));
    await eventually(() => registry.acquire(b, 't1'), 'the takeover');
    const seats = await storage.seats();
    await expect(takeOver(room.driver, fenceOf(a, leaseA))).rejects.toThrow(/not held/);
    expect(await storage.handStatus(hand)).toBe('in-progress');
    expect(await storage.seats()).toEqual(seats);
    await conserved(storage);
  });

  it('a writer paused inside its transaction does not hold the lease row against the takeover', async () => {
    const room = await open();
    const { registry } = room;
    const a = await joined(registry, 'a', 'ws://a');
    const b = await joined(registry, 'b', 'ws://b');
    const leaseA = (await registry.acquire(a, 't1'))!;
    // a checks its fence (locking the lease row) and then stands still, as a SIGSTOPped process would.
    let paused = (): void => undefined;
    const stuck = fencedDriver(room.driver, fenceOf(a, leaseA)).transaction(
      () =>
        new Promise<void>((resolve) => {
          paused = resolve;
        }),
    );
    const impatient = new PostgresDriver({ url: room.url, poolSize: 1, lockTimeoutMs: 200 });
    const lockless = new ClusterRegistry(impatient, LEASE_MS);
    try {
      // The session's idle_in_transaction_session_timeout ends a's transaction; then b may take over.
      const leaseB = await eventually(
        () => lockless.acquire(b, 't1').catch(() => null),
        'the takeover past the paused transaction',
      );
      expect(leaseB.epoch).toBe(2);
      paused();
      await expect(stuck).rejects.toThrow();
    } finally {
      paused();
      await impatient.close();
    }
  });
});
