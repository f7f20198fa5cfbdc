/**
 * Registration and the start: a sit & go starts when its seats are full; a scheduled tournament at
 * its time, with at least its minimum of entrants, else it is cancelled (every buy-in and fee back).
 * Late registration (and re-entry) stays open until the end of the late-registration level.
 */
import type { TournamentDefinition } from './structure.js';

export type StartDecision = 'wait' | 'start' | 'cancel';

type Registration = Pick<
  TournamentDefinition,
  'kind' | 'startsAt' | 'minEntrants' | 'maxEntrants' | 'lateRegistrationLevels'
>;

/** Whether a tournament that has not started starts now, waits, or is cancelled for want of entrants. */
export function startDecision(def: Registration, registered: number, now: number): StartDecision {
  if (def.kind === 'sit-and-go') return registered >= def.maxEntrants ? 'start' : 'wait';
  if (now < (def.startsAt ?? 0)) return 'wait';
  return registered >= def.minEntrants ? 'start' : 'cancel';
}

/** Where the tournament stands for a new entry: not started yet, or started and at `level` (0-based). */
export type Progress = { readonly started: false } | { readonly started: true; readonly level: number };

/** Whether a new entry is taken: seats left, and before the start or during late registration. */
export function registrationOpen(def: Registration, progress: Progress, entries: number): boolean {
  if (entries >= def.maxEntrants) return false;
  if (!progress.started) return true;
  return def.lateRegistrationLevels !== undefined && progress.level <= def.lateRegistrationLevels;
}
