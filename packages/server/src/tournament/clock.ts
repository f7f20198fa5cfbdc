/**
 * The level clock as pure state: time comes in as arguments (`now`, milliseconds on any clock that
 * only moves forward while the process runs), never read here.
 *
 * Phases: 'level' (the level's time runs), 'break-due' (the level is over and a break follows: tables
 * finish the hand they are dealing and start no new one; no time runs), 'break' (the break's time
 * runs). A paused clock (`runningSince === null`) counts no time: the controller pauses it and stores
 * the paused state at each checkpoint, so after a restart `resumeClock` goes on with the remaining time
 * the level had when it was stored; the time the room was down is not counted.
 *
 * Levels by hands: a level ends when one table has finished `levelLength.value` hands dealt in it
 * (the others move up with it at their next hand); breaks still last minutes.
 */
import { fail, ok, type Result } from '@felt/engine';
import type { TournamentClockView } from '@felt/protocol';
import type { TournamentDefinition } from './structure.js';

const MINUTE_MS = 60_000;

export interface LevelClock {
  /** The level (0-based) being played, or, in a break, the level just played. */
  readonly level: number;
  readonly phase: 'level' | 'break-due' | 'break';
  /** Time of the current level or break already counted, up to `runningSince`. */
  readonly elapsedMs: number;
  /** When the clock last started counting; null = paused. */
  readonly runningSince: number | null;
  /** Levels by hands: hands of this level finished, by table. */
  readonly handsByTable: Readonly<Record<string, number>>;
}

export type ClockDefinition = Pick<TournamentDefinition, 'levelLength' | 'breaks'>;
export type ClockErrorCode = 'BREAK_NOT_DUE' | 'CLOCK_RUNNING' | 'CLOCK_PAUSED' | 'TIME_BACKWARDS';

/** A clock at the start of the first level, running from `now`. */
export function startClock(now: number): LevelClock {
  return { level: 0, phase: 'level', elapsedMs: 0, runningSince: now, handsByTable: {} };
}

/** The time counted in the current level or break at `now`. */
export function elapsedMs(clock: LevelClock, now: number): number {
  return clock.elapsedMs + (clock.runningSince === null ? 0 : Math.max(0, now - clock.runningSince));
}

/** The length of the current phase in ms: null for a level counted in hands; 0 for a break that is due. */
function phaseLengthMs(def: ClockDefinition, clock: LevelClock): number | null {
  switch (clock.phase) {
    case 'level':
      return def.levelLength.unit === 'minutes' ? def.levelLength.value * MINUTE_MS : null;
    case 'break-due':
      return 0;
    case 'break':
      return (def.breaks?.minutes ?? 0) * MINUTE_MS;
  }
}

/** Time left in the current level or break at `now`; null for a level counted in hands (see `remainingHands`). */
export function remainingMs(def: ClockDefinition, clock: LevelClock, now: number): number | null {
  const length = phaseLengthMs(def, clock);
  return length === null ? null : Math.max(0, length - elapsedMs(clock, now));
}

/** Levels by hands: hands left in the level (for the table that has dealt the most); null for levels by minutes. */
export function remainingHands(def: ClockDefinition, clock: LevelClock): number | null {
  if (def.levelLength.unit !== 'hands' || clock.phase !== 'level') return null;
  return Math.max(0, def.levelLength.value - Math.max(0, ...Object.values(clock.handsByTable)));
}

/** Whether a break follows level `level` (0-based). */
export function breakAfter(def: ClockDefinition, level: number): boolean {
  return def.breaks !== undefined && (level + 1) % def.breaks.everyLevels === 0;
}

/** The clock once level `clock.level` is over at instant `at`: a break due, or the next level from `at`. */
function endLevel(def: ClockDefinition, clock: LevelClock, at: number): LevelClock {
  if (breakAfter(def, clock.level))
    return { ...clock, phase: 'break-due', elapsedMs: 0, runningSince: null, handsByTable: {} };
  return { level: clock.level + 1, phase: 'level', elapsedMs: 0, runningSince: at, handsByTable: {} };
}

/**
 * The clock at `now`: every level or break whose time ran out has ended, each at the instant it ran
 * out (so the next starts exactly then). Stops at a break that is due: the controller starts it.
 */
export function advanceClock(def: ClockDefinition, clock: LevelClock, now: number): LevelClock {
  let current = clock;
  for (;;) {
    const length = phaseLengthMs(def, current);
    if (current.runningSince === null || length === null || current.phase === 'break-due') return current;
    const endsAt = current.runningSince + (length - current.elapsedMs);
    if (endsAt > now) return current;
    current =
      current.phase === 'break'
        ? { level: current.level + 1, phase: 'level', elapsedMs: 0, runningSince: endsAt, handsByTable: {} }
        : endLevel(def, current, endsAt);
  }
}

/**
 * Levels by hands: counts a hand of the current level finished at `table` at `now`; the level ends
 * with the hand that completes it. Levels by minutes: unchanged.
 */
export function countHand(def: ClockDefinition, clock: LevelClock, table: string, now: number): LevelClock {
  if (def.levelLength.unit !== 'hands' || clock.phase !== 'level') return clock;
  const hands = (clock.handsByTable[table] ?? 0) + 1;
  const counted = { ...clock, handsByTable: { ...clock.handsByTable, [table]: hands } };
  return hands >= def.levelLength.value ? endLevel(def, counted, now) : counted;
}

/** Starts a break that is due, at `now` (when every table has finished its hand). */
export function beginBreak(clock: LevelClock, now: number): Result<LevelClock, ClockErrorCode> {
  if (clock.phase !== 'break-due') return fail('BREAK_NOT_DUE', `no break is due (phase ${clock.phase})`);
  return ok({ ...clock, phase: 'break', elapsedMs: 0, runningSince: now });
}

/** Stops counting time at `now` (a pause, or the state to store at a checkpoint). */
export function pauseClock(clock: LevelClock, now: number): Result<LevelClock, ClockErrorCode> {
  if (clock.runningSince === null) return fail('CLOCK_PAUSED', 'the clock is already paused');
  if (now < clock.runningSince) return fail('TIME_BACKWARDS', 'now is before the clock started');
  return ok({ ...clock, elapsedMs: elapsedMs(clock, now), runningSince: null });
}

/** Counts time again from `now` (after a pause or a restart). A break that is due stays stopped until `beginBreak`. */
export function resumeClock(clock: LevelClock, now: number): Result<LevelClock, ClockErrorCode> {
  if (clock.runningSince !== null) return fail('CLOCK_RUNNING', 'the clock is already running');
  if (clock.phase === 'break-due') return ok(clock);
  return ok({ ...clock, runningSince: now });
}

/**
 * What the players are shown of the clock at `now` (the tournament page and the table's bar). The
 * controller keeps it paused only while a final-table deal is open (a break due counts no time either,
 * but is not paused: it waits for the tables).
 */
export function clockView(def: ClockDefinition, clock: LevelClock, now: number): TournamentClockView {
  return {
    phase: clock.phase,
    remainingMs: remainingMs(def, clock, now),
    remainingHands: remainingHands(def, clock),
    breakNext: clock.phase === 'level' && breakAfter(def, clock.level),
    paused: clock.runningSince === null && clock.phase !== 'break-due',
  };
}
