/**
 * `felt admin tournament create | cancel | list`, for real: the command edits the table file of a
 * running `felt serve` process, which reads it again at its next poll — a created sit & go opens for
 * registration, a cancelled run ends with every buy-in and fee back — and `felt admin audit` finds the
 * ledger conserved.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProtocolClient } from '../src/bots/client.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { audit, felt, FeltServer, freePort, tempDir } from './integration-helpers.js';
import { holdemDefinition } from './tournament-helpers.js';

const ENTRY: TournamentEntry = {
  id: 'adm',
  definition: holdemDefinition({ name: 'Created by admin', maxEntrants: 3, buyIn: 1000, fee: 100 }),
};

async function runOf(client: ProtocolClient, entry: string, timeoutMs: number): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { tournaments } = await client.ok('tournament-list');
    const run = tournaments.find((t) => t.tournamentId.startsWith(`${entry}@`));
    if (run !== undefined) return run.tournamentId;
    if (Date.now() > end) throw new Error(`no run of ${entry} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('felt admin tournament', () => {
  const data = tempDir('felt-tournament-admin-');
  afterAll(() => {
    data.remove();
  });

  it('create opens the tournament in the running room, cancel gives every buy-in and fee back, list shows both', async () => {
    const cash = {
      id: 'cash',
      name: 'cash',
      game: 'holdem',
      structure: 'no-limit',
      stakes: { small: 1, big: 2 },
      currency: 'play',
    };
    writeFileSync(join(data.dir, 'tables.json'), JSON.stringify({ tables: [cash] }));
    const entryFile = join(data.dir, 'entry.json');
    writeFileSync(entryFile, JSON.stringify(ENTRY));
    const server = await FeltServer.start(data.dir, await freePort());

    const created = await felt(['admin', 'tournament', 'create', entryFile, '--data', data.dir]);
    expect(created.json).toEqual({ ok: true, created: 'adm' });
    const again = await felt(['admin', 'tournament', 'create', entryFile, '--data', data.dir]);
    expect(again.status).toBe(1);
    expect(again.json).toMatchObject({ ok: false, error: { code: 'BAD_TOURNAMENT' } });

    const client = await ProtocolClient.connect(server.url);
    const signed = await client.ok('signup', {
      name: `adm${process.pid % 1000}`,
      password: 'correct horse battery',
    });
    const before = signed.balances.play;
    const id = await runOf(client, 'adm', 20_000);
    await client.ok('tournament-register', { tournamentId: id });
    expect((await client.ok('balances')).balances.play).toBe(before - 1100);

    const ended = client.next((m) => m.op === 'tournament-end', 20_000);
    const cancelled = await felt(['admin', 'tournament', 'cancel', id, '--data', data.dir]);
    expect(cancelled.json).toEqual({ ok: true, cancelled: id });
    const end = await ended;
    expect(end).toMatchObject({ tournamentId: id, state: 'cancelled', results: [] });
    expect((await client.ok('balances')).balances.play).toBe(before);
    expect((await client.ok('tournament-get', { tournamentId: id })).tournament.state).toBe('cancelled');

    const listed = await felt(['admin', 'tournament', 'list', '--data', data.dir]);
    expect(listed.json).toEqual({
      tournaments: [{ id: 'adm', name: 'Created by admin', kind: 'sit-and-go' }],
      cancelled: [id],
    });
    client.close();
    expect(await server.stop()).toBe(0);
    const audited = await audit(data.dir);
    expect(audited.conserved).toBe(true);
  }, 120_000);
});
