/**
 * The room end to end: the real `felt serve` on a real SQLite file, and `felt bots` processes playing
 * over real WebSockets — several players play hands of every game to the end (every structure too),
 * bots spread over new tables as the lobby opens them, and the audit finds every chip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_GAMES, STRUCTURES, type TableSummary } from '@felt/protocol';
import type { TableConfig } from '../src/table/types.js';
import { audit, felt, FeltServer, tempDir, writeTables } from './integration-helpers.js';

const CODE = {
  'fixed-limit': 'fl',
  'spread-limit': 'sl',
  'pot-limit': 'pl',
  'half-pot-limit': 'hpl',
  'no-limit': 'nl',
} as const;
const CLOCKS = { betweenHandsMs: 150 };

/** One table a game, the structures taken in turn so that every one is played. */
const GAMES = ROOM_GAMES.map((game, i) => ({ game, structure: STRUCTURES[i % STRUCTURES.length]! }));

const tables: TableConfig[] = [
  ...GAMES.map(({ game, structure }) => ({
    id: `${game}-${CODE[structure]}`,
    name: `${game} ${structure}`,
    game,
    structure,
    stakes: { small: 100, big: 200 },
    currency: 'play' as const,
    clocks: CLOCKS,
  })),
  {
    id: 'six-max',
    name: 'Six-max',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 50, big: 100 },
    currency: 'play',
    seats: 6,
    clocks: CLOCKS,
  },
];

interface BotsLine {
  hands: number;
  actions: number;
  errors: number;
  latency_ms: { p50: number; p99: number };
}

describe('felt serve + felt bots: every game, end to end', () => {
  const data = tempDir('felt-integration-games-');
  let server: FeltServer;

  beforeAll(async () => {
    writeTables(data.dir, tables);
    server = await FeltServer.start(data.dir, 0);
  });
  afterAll(async () => {
    await server.stop();
    data.remove();
  });

  it('plays hands of all 13 games in all five structures to the end, with no error and every chip kept', async () => {
    const runs = await Promise.all(
      GAMES.map(({ game, structure }) =>
        felt([
          'bots',
          '--url',
          server.url,
          '--bots',
          '3',
          '--game',
          game,
          '--structure',
          CODE[structure],
          '--hands',
          '2',
          '--think-ms',
          '0',
        ]),
      ),
    );
    runs.forEach((run, i) => {
      const { game } = GAMES[i]!;
      expect(run.status, `${game}: ${run.stderr}`).toBe(0);
      const line = run.json as BotsLine;
      expect(Object.keys(line)).toEqual(['hands', 'actions', 'errors', 'latency_ms']);
      expect(line.hands, game).toBeGreaterThanOrEqual(2);
      expect(line.actions, game).toBeGreaterThan(0);
      expect(line.errors, game).toBe(0);
      expect(line.latency_ms.p50).toBeGreaterThan(0);
      expect(line.latency_ms.p99).toBeGreaterThanOrEqual(line.latency_ms.p50);
    });
    // Every game's table dealt its hands; the bots left, every chip is back in the accounts.
    const list = (
      (await (await fetch(`http://127.0.0.1:${server.port}/api/tables`)).json()) as { tables: TableSummary[] }
    ).tables;
    for (const { game, structure } of GAMES) {
      const table = list.find((t) => t.tableId === `${game}-${CODE[structure]}`)!;
      expect(table.handsPerHour, game).toBeGreaterThanOrEqual(2);
      expect(table.taken).toBe(0);
    }
    const report = await audit(data.dir);
    expect(report.conserved).toBe(true);
    expect(report.currencies.play.seats).toBe(0);
    expect(report.currencies.play.pots).toBe(0);
    expect(report.handsInProgress).toBe(0);
  });

  it('spreads bots over the tables of the chosen kind; the lobby opens new ones as they fill', async () => {
    const run = await felt([
      'bots',
      '--url',
      server.url,
      '--bots',
      '14',
      '--game',
      'holdem',
      '--structure',
      'nl',
      '--hands',
      '3',
      '--think-ms',
      '0',
      '--detail',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const line = run.json as BotsLine & {
      seated: number;
      tables: number;
      loopDelayMs: { p50: number; p99: number; max: number };
      peakMemoryMb: number;
    };
    // The set's only no-limit hold'em kind is `six-max`: 14 bots fill two tables and open a third.
    expect(line.seated).toBe(14);
    // The bots' own event-loop delay while measuring, in ms.
    expect(line.loopDelayMs.p50).toBeGreaterThanOrEqual(0);
    expect(line.loopDelayMs.p50).toBeLessThanOrEqual(line.loopDelayMs.p99);
    expect(line.loopDelayMs.p99).toBeLessThanOrEqual(line.loopDelayMs.max);
    // Its peak resident memory: a Node process holds tens of megabytes at least.
    expect(line.peakMemoryMb).toBeGreaterThan(10);
    expect(line.errors).toBe(0);
    expect(line.hands).toBeGreaterThanOrEqual(3);
    const list = (
      (await (await fetch(`http://127.0.0.1:${server.port}/api/tables`)).json()) as { tables: TableSummary[] }
    ).tables;
    const sixMax = list.filter((t) => t.tableId.startsWith('six-max'));
    expect(sixMax.map((t) => t.tableId)).toEqual(
      expect.arrayContaining(['six-max', 'six-max-2', 'six-max-3']),
    );
    expect(line.tables).toBe(3);
    expect((await audit(data.dir)).conserved).toBe(true);
  });

  it('refuses bad arguments with the usage', async () => {
    const run = await felt(['bots', '--bots', '2']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--url is required/);
    const game = await felt(['bots', '--url', server.url, '--bots', '2', '--game', 'razz']);
    expect(game.status).toBe(2);
  });
});
