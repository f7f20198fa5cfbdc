/**
 * `felt bots --tournament ID`, for real: a `felt bots` process registers its bots for a scheduled
 * multi-table tournament of a `felt serve` process, and they play it to its winner wherever the room
 * seats them — moved between tables, tables broken, the final table. A bot that did not follow its
 * moves would hold its table for a minute at each decision (the tournament's clocks), and the
 * tournament would not finish in time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProtocolClient } from '../src/bots/client.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { audit, felt, FeltServer, freePort, tempDir } from './integration-helpers.js';
import { holdemDefinition, placesTaken } from './tournament-helpers.js';

const BOTS = 7;

describe('felt bots --tournament', () => {
  const data = tempDir('felt-tournament-bots-');
  afterAll(() => {
    data.remove();
  });

  it('the bots register, follow their moves from table to table and play the tournament to its winner', async () => {
    const startsAt = Date.now() + 10_000;
    const entry: TournamentEntry = {
      id: 'mtt',
      definition: holdemDefinition({
        name: 'Bots MTT',
        kind: 'scheduled',
        seats: 3,
        minEntrants: 2,
        maxEntrants: BOTS,
      }),
      schedule: { startsAt },
      clocks: { betweenHandsMs: 20, actionMs: 60_000, timeBankMs: 0 },
    };
    const cash = {
      id: 'cash',
      name: 'cash',
      game: 'holdem',
      structure: 'no-limit',
      stakes: { small: 1, big: 2 },
      currency: 'play',
    };
    writeFileSync(join(data.dir, 'tables.json'), JSON.stringify({ tables: [cash], tournaments: [entry] }));
    const port = await freePort();
    const server = await FeltServer.start(data.dir, port);
    const id = `mtt@${new Date(startsAt).toISOString()}`;

    const run = await felt([
      'bots',
      '--url',
      server.url,
      '--bots',
      String(BOTS),
      '--tournament',
      id,
      '--think-ms',
      '100',
      '--detail',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const report = run.json as { errors: number; hands: number; errorCodes: Record<string, number> };
    expect(report.errorCodes).toEqual({});
    expect(report.hands).toBeGreaterThan(0);

    const watcher = await ProtocolClient.connect(server.url);
    await watcher.ok('signup', { name: `watch${process.pid % 1000}`, password: 'correct horse battery' });
    const { tournament } = await watcher.ok('tournament-get', { tournamentId: id });
    expect(tournament.state).toBe('finished');
    expect(tournament.entrants).toBe(BOTS);
    expect(placesTaken(tournament.results)).toEqual(Array.from({ length: BOTS }, (_, i) => i + 1));
    expect(tournament.results.reduce((sum, r) => sum + r.prize, 0)).toBe(BOTS * entry.definition.buyIn);
    watcher.close();
    expect(await server.stop()).toBe(0);
    const audited = await audit(data.dir);
    expect(audited.conserved).toBe(true);
    expect(audited.problems).toEqual([]);
  }, 180_000);
});
