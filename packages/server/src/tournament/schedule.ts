/**
 * Tournaments of the table file (`{ "tables": […], "tournaments": [TournamentEntry, …] }`): each entry a
 * definition with an id and, for a scheduled tournament, its schedule — once (`startsAt`) or recurring
 * (`firstAt` and then every `everyMinutes`). A sit & go has no schedule: one is open for registration
 * at any time, the next opening as one starts. Pure: times come in as arguments (ms since the epoch).
 */
import { fail, ok, type Result } from '@felt/engine';
import { DEFAULT_CLOCKS, type ClockConfig } from '../table/types.js';
import { validateDefinition, type TournamentDefinition } from './structure.js';

export type Schedule =
  { readonly startsAt: number } | { readonly firstAt: number; readonly everyMinutes: number };

export interface TournamentEntry {
  readonly id: string;
  /** Without `startsAt`: each run's start is its schedule's. */
  readonly definition: TournamentDefinition;
  readonly schedule?: Schedule;
  /** Its tables' clocks in ms (the table file's `clocks`, as a cash table's); default the tables' own. */
  readonly clocks?: Partial<ClockConfig>;
}

/** One run of an entry: its own id and its definition with its start. */
export interface TournamentRun {
  readonly id: string;
  readonly entry: string;
  readonly definition: TournamentDefinition;
}

const MINUTE_MS = 60_000;
const ID = /^[A-Za-z0-9_.:-]{1,40}$/;
const isTime = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Checks the table file's tournaments: unique ids, valid definitions, a schedule for each scheduled one only. */
export function checkTournamentSet(
  entries: readonly TournamentEntry[],
): Result<readonly TournamentEntry[], 'BAD_TOURNAMENT'> {
  const ids = new Set<string>();
  for (const entry of entries) {
    const bad = (why: string) => fail('BAD_TOURNAMENT', `tournament ${JSON.stringify(entry.id)}: ${why}`);
    if (typeof entry.id !== 'string' || !ID.test(entry.id)) return bad('a bad id');
    if (ids.has(entry.id)) return bad('the id appears twice');
    ids.add(entry.id);
    const schedule = entry.schedule;
    if (entry.definition.kind === 'sit-and-go') {
      if (schedule !== undefined) return bad('a sit & go has no schedule');
    } else if (schedule === undefined) return bad('a scheduled tournament needs a schedule');
    else if ('startsAt' in schedule) {
      if (!isTime(schedule.startsAt)) return bad('startsAt is a time in ms');
    } else if (
      !isTime(schedule.firstAt) ||
      !Number.isSafeInteger(schedule.everyMinutes) ||
      schedule.everyMinutes < 1
    )
      return bad('a recurring schedule has firstAt (ms) and everyMinutes (a whole number ≥ 1)');
    if (entry.clocks !== undefined && !goodClocks(entry.clocks))
      return bad(`clocks are whole ms ≥ 0 of ${Object.keys(DEFAULT_CLOCKS).join(', ')}`);
    // A scheduled definition is checked as its first run, with that run's start.
    const first = schedule === undefined ? entry.definition : runAt(entry, firstStart(schedule)).definition;
    const valid = validateDefinition(first);
    if (!valid.ok) return bad(valid.error.message);
  }
  return ok(entries);
}

function goodClocks(clocks: unknown): boolean {
  if (typeof clocks !== 'object' || clocks === null) return false;
  return Object.entries(clocks).every(
    ([key, ms]) => key in DEFAULT_CLOCKS && Number.isSafeInteger(ms) && (ms as number) >= 0,
  );
}

const firstStart = (schedule: Schedule): number =>
  'startsAt' in schedule ? schedule.startsAt : schedule.firstAt;

/** The runs of a scheduled entry starting after `now`, at most `count` (none for a sit & go). */
export function upcomingRuns(entry: TournamentEntry, now: number, count: number): TournamentRun[] {
  const schedule = entry.schedule;
  if (schedule === undefined) return [];
  const starts: number[] = [];
  if ('startsAt' in schedule) {
    if (schedule.startsAt > now) starts.push(schedule.startsAt);
  } else {
    const every = schedule.everyMinutes * MINUTE_MS;
    const skipped = now < schedule.firstAt ? 0 : Math.floor((now - schedule.firstAt) / every) + 1;
    for (let k = skipped; starts.length < count; k++) starts.push(schedule.firstAt + k * every);
  }
  return starts.slice(0, count).map((startsAt) => runAt(entry, startsAt));
}

/** The run of `entry` starting at `startsAt`; its id names the entry and the start. */
export function runAt(entry: TournamentEntry, startsAt: number): TournamentRun {
  return {
    id: `${entry.id}@${new Date(startsAt).toISOString()}`,
    entry: entry.id,
    definition: { ...entry.definition, startsAt },
  };
}

/** What a room holds of the runs, for {@link runsDue}. */
export interface RunsHeld {
  /** A run of the entry is open for registration. */
  registering(entryId: string): boolean;
  /** The run is known (open, playing, ended) or cancelled: it is not opened (again). */
  known(runId: string): boolean;
}

/**
 * The runs to open now: a sit & go run for each sit & go entry without one open, the next run of each
 * scheduled entry not known yet. A sit & go run is named like a scheduled one by the time it opens (the
 * next free millisecond if that name is taken), but keeps its definition without a start: it starts
 * when full.
 */
export function runsDue(entries: readonly TournamentEntry[], now: number, held: RunsHeld): TournamentRun[] {
  const due: TournamentRun[] = [];
  for (const entry of entries) {
    if (entry.schedule === undefined) {
      if (held.registering(entry.id)) continue;
      let at = now;
      while (held.known(runAt(entry, at).id)) at++;
      due.push({ id: runAt(entry, at).id, entry: entry.id, definition: entry.definition });
      continue;
    }
    const next = upcomingRuns(entry, now, 1)[0];
    if (next !== undefined && !held.known(next.id)) due.push(next);
  }
  return due;
}
