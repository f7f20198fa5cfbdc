/**
 * Tournament runs leased one by one on a room of several processes: two heads-up sit & goes, each run
 * directed by the member holding its own lease (`#t:<run id>`), spread over the two processes. Their
 * players register through both processes and nobody acts (nobody's clock acts in the test's time), so
 * each run stands still mid-hand. A third run, cancelled through the table file, ends on one member;
 * that member is killed (SIGKILL): the other run goes on untouched (its lease, epoch and tables as they
 * were), the killed member's run is resumed by the survivor from its checkpoint (the same players, every
 * chip back in the stacks by the crash rule, the same level), the list there still shows the run that
 * ended on the dead member, and `/health` names the director of each run. The survivor stopped (SIGTERM)
 * releases its runs' leases, and a process started since resumes both. Real `felt serve --db
 * postgres://… --bus nats://…` processes; without PostgreSQL or NATS it skips, or fails when CI=true.
 */
import { describe, expect, it } from 'vitest';
import type { TournamentDetail } from '@felt/protocol';
import { ProtocolClient } from '../src/bots/client.js';
import { intCol, textCol } from '../src/storage/sql.js';
import { editTournamentFile } from '../src/tournament/table-file.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import {
  clusterRooms,
  eventually,
  expectConserved,
  memberOf,
  PLAY_CASH,
  STILL_CLOCKS,
} from './cluster-helpers.js';
import type { FeltServer } from './integration-helpers.js';
import { natsReachable } from './nats-helpers.js';
import { postgresReachable } from './postgres-helpers.js';
import { holdemDefinition } from './tournament-helpers.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const ENTRIES: TournamentEntry[] = ['heads-up-a', 'heads-up-b'].map((id) => ({
  id,
  definition: holdemDefinition({ name: id, seats: 2, maxEntrants: 2 }),
  // Nobody's clock acts in the test's time: each run stands still in its first hand.
  clocks: STILL_CLOCKS,
}));

interface HealthRuns {
  readonly cluster: { readonly runs: readonly { tournamentId: string; memberId: number; ageMs: number }[] };
}

describe.runIf(reachable)('tournament runs leased one by one (PostgreSQL, NATS)', () => {
  const { room } = clusterRooms([PLAY_CASH], [PLAY_CASH.id], ENTRIES);

  it('two runs directed by two members through their own leases; the director of one killed, the other run goes on untouched, the killed one is resumed elsewhere with its players, stacks and level, the runs ended on the dead member are still listed, /health names the directors, and a member stopped hands its runs on', async () => {
    const cluster = await room();
    const a = await cluster.first();
    const b = await cluster.start('b');
    const servers = [a, b];
    /** The runs' leases held now: the member and epoch of each, by run id. */
    const runLeases = async () =>
      new Map(
        (
          await cluster.sql.all(
            `SELECT table_id, member_id, epoch FROM table_leases
              WHERE kind = 'tournament' AND expires_at > clock_timestamp()`,
          )
        ).map((row) => [
          textCol(row, 'table_id').slice('#t:'.length),
          { member: intCol(row, 'member_id'), epoch: intCol(row, 'epoch') },
        ]),
      );
    /** What a process logged of one run. */
    const logged = (server: FeltServer, msg: string, tournamentId: string) =>
      server.logs.filter((line) => line.msg === msg && line['tournamentId'] === tournamentId);
    let names = 0;
    const player = async (server: FeltServer) => {
      const client = await ProtocolClient.connect(server.url);
      await client.ok('signup', {
        name: `r${++names}x${process.pid % 1000}`,
        password: 'correct horse battery',
      });
      return client;
    };
    const onA = await player(a);
    const onB = await player(b);
    const registering = async (client: ProtocolClient) =>
      (await client.ok('tournament-list')).tournaments.filter((t) => t.state === 'registering');

    // One run open for each entry, listed alike by both processes, spread over the two members.
    const runs = await eventually(async () => {
      const open = await registering(onA);
      const ids = ENTRIES.map((entry) => open.find((t) => t.tournamentId.startsWith(`${entry.id}@`)));
      if (ids.some((t) => t === undefined)) return null;
      const leases = await runLeases();
      const members = new Set(ids.map((t) => leases.get(t!.tournamentId)?.member));
      return members.size === 2 && !members.has(undefined) ? ids.map((t) => t!.tournamentId) : null;
    }, 'an open run of each entry, the two directed by different members');
    expect((await registering(onB)).map((t) => t.tournamentId)).toEqual(expect.arrayContaining(runs));

    // Their players register at once, through both processes: each run fills and starts where it is.
    const players = await Promise.all([player(a), player(b), player(a), player(b)]);
    await Promise.all(
      players.map((client, at) => client.ok('tournament-register', { tournamentId: runs[at % 2]! })),
    );
    const detail = async (client: ProtocolClient, id: string): Promise<TournamentDetail> =>
      (await client.ok('tournament-get', { tournamentId: id })).tournament;
    const started = await eventually(async () => {
      const now = await Promise.all(runs.map((id) => detail(onA, id)));
      return now.every((d) => d.state === 'running' && d.tables.length === 1) ? now : null;
    }, 'both runs to start');
    const before = await runLeases();
    const [victimRun, otherRun] = runs as [string, string];
    const victim = servers.find((server) => memberOf(server) === before.get(victimRun)!.member)!;
    const survivor = servers.find((server) => server !== victim)!;
    const asked = survivor === a ? onA : onB;
    expect(before.get(otherRun)!.member).toBe(memberOf(survivor));

    // /health names the member directing each run, with its lease's age.
    const healthRuns = async (server: FeltServer) =>
      ((await (await fetch(`${server.operator}/health`)).json()) as HealthRuns).cluster.runs;
    await eventually(async () => {
      const shown = await healthRuns(a);
      return runs.every(
        (id) => shown.find((run) => run.tournamentId === id)?.memberId === before.get(id)!.member,
      )
        ? true
        : null;
    }, "/health to name each run's director");
    // Only the operators' port names them: the players' /health names no member, address or lease.
    expect(await (await fetch(`http://127.0.0.1:${a.port}/health`)).json()).toEqual({
      status: 'ok',
      ready: true,
    });

    // A run ends on the member to be killed: the one open there, cancelled through the table file.
    const cancelled = await eventually(async () => {
      const leases = await runLeases();
      const open = await registering(onA);
      return open.find((t) => leases.get(t.tournamentId)?.member === memberOf(victim))?.tournamentId ?? null;
    }, 'a run open on the member to be killed');
    await editTournamentFile(cluster.tablesFile, { cancel: cancelled });
    await eventually(async () => {
      const row = await cluster.sql.get('SELECT over FROM tournaments WHERE id = ?', [cancelled]);
      return intCol(row!, 'over') === 1 ? true : null;
    }, 'the run to be cancelled');
    expect(logged(victim, 'tournament cancelled, every buy-in and fee back', cancelled)).toHaveLength(1);

    const takenBefore = logged(survivor, 'tournament taken', otherRun).length;
    await victim.kill();
    await eventually(async () => {
      const lease = (await runLeases()).get(victimRun);
      return lease?.member === memberOf(survivor) ? true : null;
    }, 'the survivor to take the killed member’s run');
    await eventually(
      async () => ((await detail(asked, victimRun)).state === 'running' ? true : null),
      'the run to be resumed',
    );
    const after = await runLeases();
    expect(after.get(victimRun)!.epoch).toBe(before.get(victimRun)!.epoch + 1);
    // The other run untouched: the same lease, and its tables as they were.
    expect(after.get(otherRun)).toEqual(before.get(otherRun));
    expect(logged(survivor, 'tournament taken', otherRun)).toHaveLength(takenBefore);
    expect(logged(survivor, 'tournament resumed', victimRun).at(-1)?.['phase']).toBe('running');
    expect((await detail(asked, otherRun)).tables).toEqual(started[1]!.tables);

    // The killed member's run resumed from its checkpoint: the same players, every chip of the
    // cancelled hand back in the stacks, the same level.
    const resumed = await detail(asked, victimRun);
    const was = started[0]!;
    expect(resumed.players.map((p) => p.name).sort()).toEqual(was.players.map((p) => p.name).sort());
    expect(resumed.players.reduce((sum, p) => sum + p.chips, 0)).toBe(
      2 * ENTRIES[0]!.definition.startingChips,
    );
    expect(resumed.level).toBe(was.level);

    // The run that ended on the dead member is still listed, from the store.
    const listed = (await asked.ok('tournament-list')).tournaments;
    expect(listed.find((t) => t.tournamentId === cancelled)?.state).toBe('cancelled');
    expect(listed.filter((t) => runs.includes(t.tournamentId)).map((t) => t.state)).toEqual([
      'running',
      'running',
    ]);
    await eventually(async () => {
      const shown = await healthRuns(survivor);
      return runs.every((id) => shown.find((run) => run.tournamentId === id)?.memberId === memberOf(survivor))
        ? true
        : null;
    }, '/health to name the survivor as the director of both runs');

    // A member stopped (SIGTERM) releases its runs' leases: a member started since takes both and
    // resumes each with its players and every chip.
    const third = await cluster.start('c');
    const onC = await player(third);
    const held = await runLeases();
    expect(await survivor.stop()).toBe(0);
    await eventually(async () => {
      const leases = await runLeases();
      return runs.every((id) => leases.get(id)?.member === memberOf(third)) ? true : null;
    }, 'the process started since to take both runs');
    const moved = await runLeases();
    for (const [at, id] of runs.entries()) {
      expect(moved.get(id)!.epoch).toBe(held.get(id)!.epoch + 1);
      const now = await detail(onC, id);
      expect(now.players.map((p) => p.name).sort()).toEqual(started[at]!.players.map((p) => p.name).sort());
      expect(now.players.reduce((sum, p) => sum + p.chips, 0)).toBe(
        2 * ENTRIES[at]!.definition.startingChips,
      );
    }

    for (const client of [onA, onB, onC, ...players]) client.close();
    expect(await third.stop()).toBe(0);
    await expectConserved(cluster.url);
  }, 300_000);
});
