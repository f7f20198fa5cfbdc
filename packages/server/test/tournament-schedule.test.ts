/** The table file's tournaments: what is refused, when a recurring schedule's runs start, reading the file. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTournamentSet, runAt, upcomingRuns, type TournamentEntry } from '../src/tournament/schedule.js';
import { loadTournamentSet } from '../src/tournament/table-file.js';
import { holdemDefinition } from './tournament-helpers.js';

const MIN = 60_000;
const sng: TournamentEntry = { id: 'sng-6', definition: holdemDefinition() };
const daily: TournamentEntry = {
  id: 'daily',
  definition: holdemDefinition({ kind: 'scheduled', minEntrants: 2, maxEntrants: 100 }),
  schedule: { firstAt: Date.UTC(2026, 11, 1, 20), everyMinutes: 24 * 60 },
};

describe('the table file’s tournaments', () => {
  it('a valid set is accepted as it is', () => {
    const set = [
      sng,
      daily,
      { ...daily, id: 'once', schedule: { startsAt: 1_000 }, clocks: { actionMs: 5_000, betweenHandsMs: 0 } },
    ];
    expect(checkTournamentSet(set)).toEqual({ ok: true, value: set });
  });

  it('refused, with the reason: a bad or repeated id, a bad definition, a sit & go with a schedule, a scheduled one without, a bad schedule, bad clocks', () => {
    const refusals = [
      [{ ...sng, id: 'a b' }],
      [sng, sng],
      [{ ...sng, definition: holdemDefinition({ name: '' }) }],
      [{ ...sng, schedule: { startsAt: 5 } }],
      [{ id: 'x', definition: daily.definition }],
      [{ ...daily, schedule: { firstAt: 0, everyMinutes: 0 } }],
      [{ ...daily, schedule: { startsAt: -1 } }],
      [{ ...sng, clocks: { actionMs: -1 } }],
      [{ ...sng, clocks: { napMs: 10 } }],
    ].map((set) => {
      const checked = checkTournamentSet(set as TournamentEntry[]);
      return checked.ok ? null : checked.error.message;
    });
    expect(refusals).toEqual([
      'tournament "a b": a bad id',
      'tournament "sng-6": the id appears twice',
      'tournament "sng-6": a tournament needs a name',
      'tournament "sng-6": a sit & go has no schedule',
      'tournament "x": a scheduled tournament needs a schedule',
      'tournament "daily": a recurring schedule has firstAt (ms) and everyMinutes (a whole number ≥ 1)',
      'tournament "daily": startsAt is a time in ms',
      ...Array.from(
        { length: 2 },
        () =>
          'tournament "sng-6": clocks are whole ms ≥ 0 of actionMs, drawMs, runTwiceMs, timeBankMs, timeBankRefillMs, betweenHandsMs',
      ),
    ]);
  });

  it('a recurring schedule’s runs start at its first time and then every period, each after now, named by its start', () => {
    const first = Date.UTC(2026, 11, 1, 20);
    expect(upcomingRuns(daily, first - 1, 2).map((r) => r.definition.startsAt)).toEqual([
      first,
      first + 1440 * MIN,
    ]);
    expect(upcomingRuns(daily, first, 1).map((r) => r.id)).toEqual(['daily@2026-12-02T20:00:00.000Z']);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 * MIN }),
        fc.integer({ min: 1, max: 600 }),
        (offset, every) => {
          const entry = { ...daily, schedule: { firstAt: first, everyMinutes: every } };
          const [next, after] = upcomingRuns(entry, first + offset, 2).map((r) => r.definition.startsAt!);
          expect(next! > first + offset).toBe(true);
          expect(next! - every * MIN <= Math.max(first + offset, first - 1)).toBe(true);
          expect((next! - first) % (every * MIN)).toBe(0);
          expect(after! - next!).toBe(every * MIN);
        },
      ),
    );
  });

  it('a one-off run starts once, and not after its time; a sit & go has no runs', () => {
    const once = { ...daily, schedule: { startsAt: 5_000 } };
    expect(upcomingRuns(once, 4_999, 3)).toEqual([runAt(once, 5_000)]);
    expect(upcomingRuns(once, 5_000, 3)).toEqual([]);
    expect(upcomingRuns(sng, 0, 3)).toEqual([]);
  });
});

describe('the tournaments of a table file on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-file-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, content: unknown): string => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it('are read beside its tables; no file or no list is none; a bad entry is an error naming the file', async () => {
    const file = write('good.json', { tables: [], tournaments: [sng, daily] });
    expect(await loadTournamentSet(file)).toEqual([sng, daily]);
    expect(await loadTournamentSet(join(dir, 'missing.json'))).toEqual([]);
    expect(await loadTournamentSet(write('tables-only.json', { tables: [] }))).toEqual([]);
    expect(await loadTournamentSet(null)).toEqual([]);
    const bad = write('bad.json', { tournaments: [sng, sng] });
    await expect(loadTournamentSet(bad)).rejects.toThrow(`${bad}: tournament "sng-6": the id appears twice`);
    const notList = write('not-list.json', { tournaments: {} });
    await expect(loadTournamentSet(notList)).rejects.toThrow('"tournaments" is a list');
  });
});
