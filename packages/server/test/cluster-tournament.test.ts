/**
 * A sit & go on a room of several processes: the first process directs the run open (it holds the run's
 * lease); `felt bots --tournament` registers six bots through both processes — those on the other
 * one through the bus — and they play at tables run by the director. The director is killed (SIGKILL)
 * mid-tournament: the other process takes the run's lease and resumes it from its checkpoint, as a
 * one-process restart does — the same entrants, every chip of the last finished hands in the stacks —
 * and it plays to its winner; the prizes add up to the pool and `felt admin audit --db` finds every chip.
 * Real `felt serve --db postgres://… --bus nats://…` processes; without PostgreSQL or NATS it skips, or
 * fails when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import type { TournamentDetail } from '@felt/protocol';
import { ProtocolClient } from '../src/bots/client.js';
import { intCol, textCol } from '../src/storage/sql.js';
import type { TournamentCheckpoint } from '../src/tournament/checkpoint.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import {
  clusterRooms,
  eventually,
  expectConserved,
  memberOf,
  PLAY_CASH,
  STILL_CLOCKS,
} from './cluster-helpers.js';
import { felt, type FeltServer } from './integration-helpers.js';
import { natsReachable } from './nats-helpers.js';
import { postgresReachable } from './postgres-helpers.js';
import { holdemDefinition, placesTaken } from './tournament-helpers.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const ENTRANTS = 6;
const ENTRY: TournamentEntry = {
  id: 'cluster-sng',
  definition: holdemDefinition({ name: 'Cluster sit & go', seats: ENTRANTS, maxEntrants: ENTRANTS }),
  // Nobody's clock acts in the test's time: the tournament ends only if its players play on.
  clocks: STILL_CLOCKS,
};

describe.runIf(reachable)('tournaments on several processes (PostgreSQL, NATS)', () => {
  const { room, bots } = clusterRooms([PLAY_CASH], [PLAY_CASH.id], [ENTRY]);

  it('one process directs the sit & go, bots register through both; the director killed, the other resumes it from its checkpoint and it plays to its winner, every chip kept', async () => {
    const cluster = await room();
    const a = await cluster.first();
    await eventually(
      () => Promise.resolve(a.logs.some((line) => line.msg === 'tournament taken') ? true : null),
      'the first process to direct the open run',
    );
    const b = await cluster.start('b');
    const watcher = async (server: FeltServer, name: string) => {
      const client = await ProtocolClient.connect(server.url);
      await client.ok('signup', { name: `${name}${process.pid % 1000}`, password: 'correct horse battery' });
      return client;
    };
    const onA = await watcher(a, 'wa');
    const onB = await watcher(b, 'wb');
    // One run open for registration in the whole room, listed alike by both processes.
    const open = async (client: ProtocolClient) =>
      (await client.ok('tournament-list')).tournaments
        .filter((t) => t.tournamentId.startsWith(`${ENTRY.id}@`))
        .map((t) => t.tournamentId);
    const listed = await open(onB);
    expect(listed).toHaveLength(1);
    expect(await open(onA)).toEqual(listed);
    const id = listed[0]!;
    const detail = async (client: ProtocolClient): Promise<TournamentDetail> =>
      (await client.ok('tournament-get', { tournamentId: id })).tournament;

    const run = felt(
      [
        ...['bots', '--url', a.url, '--url', b.url, '--bots', String(ENTRANTS), '--tournament', id],
        ...['--think-ms', '200', '--seconds', '500'],
      ],
      (child) => bots.push(child),
    );
    // Mid-tournament: running, a level or more played (as the director, through the bus, tells).
    const before = await eventually(async () => {
      const now = await detail(onB);
      return now.state === 'running' && (now.level ?? 0) >= 1 ? now : null;
    }, 'the sit & go to run a level');
    expect(before.entrants).toBe(ENTRANTS);

    await a.kill();
    const stored = await cluster.sql.get('SELECT checkpoint FROM tournaments WHERE id = ?', [id]);
    const checkpoint = JSON.parse(textCol(stored!, 'checkpoint')) as TournamentCheckpoint;
    expect(checkpoint.phase).toBe('running');
    await eventually(
      () =>
        Promise.resolve(
          b.logs.some((line) => line.msg === 'tournament taken' && line['tournamentId'] === id) ? true : null,
        ),
      'the other process to take the run',
    );
    const resumed = b.logs.find((line) => line.msg === 'tournament resumed' && line['tournamentId'] === id);
    expect(resumed?.['phase']).toBe('running');
    const lease = await cluster.sql.get('SELECT member_id, epoch FROM table_leases WHERE table_id = ?', [
      `#t:${id}`,
    ]);
    expect(intCol(lease!, 'member_id')).toBe(memberOf(b));
    expect(intCol(lease!, 'epoch')).toBe(2);
    // Resumed from that checkpoint: the same entrants, every chip of the last finished hands in play.
    const after = await detail(onB);
    expect(after.state).not.toBe('cancelled');
    expect(after.players.map((p) => p.name).sort()).toEqual(
      checkpoint.entrants.map((e) => e.ref.name).sort(),
    );
    expect(checkpoint.entrants.reduce((sum, e) => sum + e.stack, 0)).toBe(
      ENTRANTS * ENTRY.definition.startingChips,
    );
    // At the checkpoint's level or later (a hand begun at a new level and cancelled is dealt again at it).
    expect(after.level ?? 0).toBeGreaterThanOrEqual(checkpoint.clock?.level ?? 0);

    const over = await eventually(
      async () => {
        const now = await detail(onB);
        return now.state === 'finished' ? now : null;
      },
      'the sit & go to finish on the other process',
      400_000,
    );
    expect(placesTaken(over.results)).toEqual(Array.from({ length: ENTRANTS }, (_, i) => i + 1));
    expect(over.results.reduce((sum, r) => sum + r.prize, 0)).toBe(ENTRANTS * ENTRY.definition.buyIn);
    const played = await run;
    expect(played.status, played.stderr).toBe(0);

    onA.close();
    onB.close();
    expect(await b.stop()).toBe(0);
    await expectConserved(cluster.url);
  }, 600_000);
});
