import { describe, expect, it } from 'vitest';
import { registrationOpen, startDecision } from '../src/tournament/index.js';

const sitAndGo = { kind: 'sit-and-go', minEntrants: 6, maxEntrants: 6 } as const;
const scheduled = {
  kind: 'scheduled',
  startsAt: 1_000,
  minEntrants: 10,
  maxEntrants: 100,
  lateRegistrationLevels: 2,
} as const;

describe('start and registration (issue 20)', () => {
  it('a sit & go starts when its seats are full', () => {
    expect(startDecision(sitAndGo, 5, 0)).toBe('wait');
    expect(startDecision(sitAndGo, 6, 0)).toBe('start');
  });

  it('a scheduled tournament starts at its time with its minimum of entrants, else it is cancelled', () => {
    expect(startDecision(scheduled, 50, 999)).toBe('wait');
    expect(startDecision(scheduled, 10, 1_000)).toBe('start');
    expect(startDecision(scheduled, 9, 1_000)).toBe('cancel');
  });

  it('registration is open before the start and during late registration, while seats are left', () => {
    expect(registrationOpen(scheduled, { started: false }, 99)).toBe(true);
    expect(registrationOpen(scheduled, { started: false }, 100)).toBe(false);
    expect(registrationOpen(scheduled, { started: true, level: 2 }, 40)).toBe(true);
    expect(registrationOpen(scheduled, { started: true, level: 3 }, 40)).toBe(false);
    expect(registrationOpen(sitAndGo, { started: true, level: 0 }, 5)).toBe(false);
  });
});
