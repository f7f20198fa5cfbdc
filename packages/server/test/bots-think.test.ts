import { describe, expect, it } from 'vitest';
import { thinkTime } from '../src/bots/strategy.js';

describe('bots: think time', () => {
  it('a think lasts thinkMs ± spread·thinkMs, thinkMs on average', () => {
    expect(thinkTime(500, 0.5, () => 0)).toBe(250);
    expect(thinkTime(500, 0.5, () => 0.5)).toBe(500);
    expect(thinkTime(500, 0.5, () => 0.999_999)).toBeCloseTo(750, 2);
    // Evenly spread rolls average out to thinkMs exactly.
    const rolls = Array.from({ length: 1000 }, (_, i) => (i + 0.5) / 1000);
    const mean = rolls.reduce((sum, r) => sum + thinkTime(400, 0.3, () => r), 0) / rolls.length;
    expect(mean).toBeCloseTo(400, 9);
  });

  it('with no spread every think lasts exactly thinkMs', () => {
    for (const r of [0, 0.25, 0.999]) expect(thinkTime(500, 0, () => r)).toBe(500);
  });
});
