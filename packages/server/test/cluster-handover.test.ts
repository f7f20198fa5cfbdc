/**
 * A hand handed over in play, on real `felt serve --db postgres://… --bus nats://…` processes: the
 * process running a table is stopped (SIGTERM) while a player there takes his time — the hand cannot
 * end within the stop's wait — and the other process goes on with the same hand from the journal (same
 * hand id, same cards, nothing cancelled); the player acts through his process and the hand settles.
 * The last process, stopped with a hand running, keeps the rule of one process: nothing handed over, the
 * hand cancelled and every seat cashed out — and so does each of two processes stopped together.
 * Without PostgreSQL or NATS it skips, or fails when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import { clusterRooms, eventually, memberOf } from './cluster-helpers.js';
import { felt, Player } from './integration-helpers.js';
import { natsReachable } from './nats-helpers.js';
import { postgresReachable } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const TABLE = 'handover-1';
/** Three seats for two players (a full table would make the lobbies open another); a long decision clock. */
const table = nlHoldem(TABLE, { seats: 3, clocks: { actionMs: 120_000, betweenHandsMs: 50 } });

describe.runIf(reachable)('a hand handed over in play on SIGTERM (PostgreSQL, NATS)', () => {
  const { room } = clusterRooms([table], [TABLE]);

  it('SIGTERM with a hand that cannot end: the process exits 0, the other goes on with the same hand — not cancelled — and it settles; stopped in its turn mid-hand, the last process hands nothing over and cashes everybody out', async () => {
    const cluster = await room();
    const a = await cluster.first();
    const b = await cluster.start('b');
    // Both play through b; a runs the table (the commands cross the bus).
    const ann = await Player.signUp(b.url, 'ann');
    const bob = await Player.signUp(b.url, 'bob');
    ann.autoplay = false;
    await ann.sit(TABLE, 0, 10_000);
    await bob.sit(TABLE, 1, 10_000);

    // Ann plays the hand to the flop, then takes her time.
    const cardsOf = (handId: number, type: 'deal-hole' | 'deal-board') =>
      ann.events.flatMap(({ handId: id, event }) => {
        if (id !== handId) return [];
        if (event.type === 'deal-board' && type === 'deal-board') return event.cards;
        return event.type === 'deal-hole' && type === 'deal-hole' && event.seat === 0 ? event.cards : [];
      });
    const handId = await eventually(async () => {
      const legal = ann.legal;
      if (legal === null) return null;
      if (cardsOf(legal.handId, 'deal-board').length >= 3) return legal.handId;
      ann.legal = null;
      const action = legal.legal.check ? { type: 'check' } : { type: 'call' };
      await ann.client.ok('act', { tableId: TABLE, handId: legal.handId, action });
      return null;
    }, 'ann to act on the flop');
    const hole = cardsOf(handId, 'deal-hole');
    const board = cardsOf(handId, 'deal-board');
    expect(hole.length).toBe(2);
    expect(hole).not.toContain('??');
    expect((await cluster.owners()).get(TABLE)).toBe(memberOf(a));
    ann.legal = null;

    const stoppedAt = Date.now();
    expect(await a.stop()).toBe(0);
    console.log(`cluster handover: the owner stopped in ${Date.now() - stoppedAt} ms`);
    expect(a.logs.filter((line) => line.msg === 'table handed over in play').length).toBe(1);
    const takeover = await eventually(
      () => Promise.resolve(b.logs.find((line) => line.msg === 'table taken over') ?? null),
      'b to take the table over',
    );
    expect(takeover).toMatchObject({ tableId: TABLE, handsCancelled: 0, handResumed: handId, seatsKept: 2 });

    // The same hand goes on at b: same id, her cards, the board so far; she is asked again.
    const resumed = await ann.until((view) => view.hand?.handId === handId && ann.legal?.handId === handId);
    console.log(`cluster handover: ann asked again ${Date.now() - stoppedAt} ms after the SIGTERM`);
    expect(resumed.hand!.players.find((p) => p.seat === 0)!.cards).toEqual(hole);
    expect(resumed.hand!.board).toEqual(board);
    ann.autoplay = true;
    await ann.client.ok('act', { tableId: TABLE, handId, action: { type: 'check' } });
    await eventually(async () => {
      const settled = await cluster.handsWith('settled');
      return settled.includes(handId) ? true : null;
    }, 'the hand handed over to settle');
    expect(await cluster.handsWith('cancelled')).toEqual([]);

    // The last process stopped with a hand running keeps the rule of one process: nothing handed over,
    // the hand cancelled (every chip back where it came from) and every seat cashed out.
    ann.autoplay = false;
    ann.legal = null;
    const last = (await eventually(() => Promise.resolve(ann.legal), 'ann to act in a later hand')).handId;
    expect(await b.stop()).toBe(0);
    expect(b.logs.filter((line) => line.msg === 'table handed over in play')).toEqual([]);
    expect(await cluster.handsWith('in-progress')).toEqual([]);
    expect(await cluster.handsWith('cancelled')).toEqual([last]);
    expect(await cluster.seatsWithChips()).toBe(0);
    expect(b.logs.find((line) => line.msg === 'stopped')).toMatchObject({
      handsCancelled: 1,
      seatsCashedOut: 2,
    });
    ann.close();
    bob.close();
    const audit = await felt(['admin', 'audit', '--db', cluster.url]);
    expect((audit.json as { problems: unknown[] }).problems).toEqual([]);
    expect((audit.json as { conserved: boolean }).conserved).toBe(true);
  }, 300_000);

  it('two processes stopped together, each with a hand that cannot end: neither hands its hand to the other — each is the last — so both hands are cancelled and every seat cashed out', async () => {
    const ids = [TABLE, 'handover-2'];
    const cluster = await room({ tables: ids.map((id) => ({ ...table, id, name: id })), ids });
    const a = await cluster.first();
    const b = await cluster.start('b');
    const [atA, atB] = await cluster.spread([a, b]);
    expect([atA!.length, atB!.length]).toEqual([1, 1]);
    // At each table a player who takes his time, so that each process has a hand running when stopped.
    const waiting: Player[] = [];
    const hands: number[] = [];
    for (const [n, tableId] of [atA![0]!, atB![0]!].entries()) {
      const slow = await Player.signUp(a.url, `slow${n}`);
      const quick = await Player.signUp(b.url, `quick${n}`);
      slow.autoplay = false;
      await slow.sit(tableId, 0, 10_000);
      await quick.sit(tableId, 1, 10_000);
      waiting.push(slow, quick);
      hands.push((await eventually(() => Promise.resolve(slow.legal), `a hand at ${tableId}`)).handId);
    }

    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    for (const server of [a, b])
      expect(server.logs.filter((line) => line.msg === 'table handed over in play')).toEqual([]);
    expect(await cluster.handsWith('in-progress')).toEqual([]);
    expect([...(await cluster.handsWith('cancelled'))].sort()).toEqual([...hands].sort());
    expect(await cluster.seatsWithChips()).toBe(0);
    for (const player of waiting) player.close();
    const audit = await felt(['admin', 'audit', '--db', cluster.url]);
    expect((audit.json as { problems: unknown[] }).problems).toEqual([]);
    expect((audit.json as { conserved: boolean }).conserved).toBe(true);
  }, 300_000);
});
