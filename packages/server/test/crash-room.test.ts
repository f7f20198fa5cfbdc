/**
 * RULES.md §1, server crash, for real: `felt bots` play at several tables while the `felt serve`
 * process is killed (SIGKILL) in the middle of hands, again and again, and restarted on the same file.
 * After every kill `felt admin audit` finds every chip (each seat holds at least what its player put
 * into the hand in progress); after every restart the bots come back (resume, seated again) and play on;
 * at the end, with the server stopped, every chip is back in the players' accounts.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableConfig } from '../src/table/types.js';
import {
  audit,
  felt,
  FeltServer,
  freePort,
  tempDir,
  writeTables,
  type FeltRun,
} from './integration-helpers.js';

const KILLS = 4;

const table = (id: string, game: TableConfig['game'], structure: TableConfig['structure']): TableConfig => ({
  id,
  name: id,
  game,
  structure,
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 3,
  clocks: { betweenHandsMs: 50 },
});

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

describe('crash: SIGKILL in the middle of hands, again and again', () => {
  const data = tempDir('felt-crash-');
  afterAll(() => {
    data.remove();
  });

  it('every chip is where the rules say after every kill and restart', async () => {
    writeTables(data.dir, [
      table('crash-nl', 'holdem', 'no-limit'),
      table('crash-stud', 'stud', 'fixed-limit'),
    ]);
    const port = await freePort();
    let server = await FeltServer.start(data.dir, port);
    const children: ChildProcess[] = [];
    const runs: Promise<FeltRun>[] = [
      ['holdem', 'nl'],
      ['stud', 'fl'],
    ].map(([game, structure]) =>
      felt(
        [
          'bots',
          '--url',
          server.url,
          '--bots',
          '6',
          '--game',
          game!,
          '--structure',
          structure!,
          '--seconds',
          '600',
          '--think-ms',
          '5',
          '--detail',
        ],
        (child) => {
          children.push(child);
        },
      ),
    );
    // Everybody seated before the first crash.
    const seatedBy = Date.now() + 60_000;
    for (;;) {
      const response = await fetch(`http://127.0.0.1:${port}/api/tables`);
      const { tables } = (await response.json()) as { tables: { taken: number }[] };
      if (tables.reduce((sum, t) => sum + t.taken, 0) >= 12) break;
      if (Date.now() > seatedBy) throw new Error('the bots did not sit down');
      await sleep(100);
    }
    let caughtMidHand = 0;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        // Let the bots (re)connect, sit down and play a while, then pull the plug.
        await sleep(2500 + Math.floor(Math.random() * 1000));
        await server.kill();
        const crashed = await audit(data.dir);
        expect(crashed.conserved, JSON.stringify(crashed.problems)).toBe(true);
        expect(crashed.problems).toEqual([]);
        if (crashed.handsInProgress > 0) {
          caughtMidHand++;
          // What the hands in progress hold is counted in their pots (the audit checks that every seat
          // still holds what its player put in).
          expect(crashed.currencies.play.pots).toBeGreaterThan(0);
        }
        server = await FeltServer.start(data.dir, port);
        expect(server.logs.filter((line) => line.msg === 'recovery')).toEqual([
          expect.objectContaining({ level: 'warn', handsCancelled: expect.any(Number) as unknown }),
        ]);
      }
      await sleep(1500);
    } catch (error) {
      await server.kill();
      throw error;
    } finally {
      for (const child of children) child.kill('SIGTERM');
    }
    const results = await Promise.all(runs);
    for (const run of results) {
      expect(run.status, run.stderr).toBe(0);
      const line = run.json as { hands: number; seated: number };
      expect(line.hands).toBeGreaterThan(0);
    }
    await server.stop();
    const final = await audit(data.dir);
    expect(final.conserved).toBe(true);
    expect(final.handsInProgress).toBe(0);
    expect(final.currencies.play.seats).toBe(0);
    expect(final.currencies.play.pots).toBe(0);
    // 12 bots, 100,000 play chips each (plus any top-ups): all of it in their accounts.
    expect(final.currencies.play.accounts).toBe(-final.currencies.play.external);
    expect(final.currencies.play.accounts).toBeGreaterThanOrEqual(12 * 100_000);
    expect(caughtMidHand).toBeGreaterThanOrEqual(KILLS - 1);
  });
});
