import { describe, expect, it } from 'vitest';
import { chartGeometry } from '../src/components/console/chart';

describe('the live view’s charts', () => {
  it('the largest value reaches the top, zero the bottom, samples spread over the width', () => {
    expect(chartGeometry([0, 5, 10], 100, 50)).toEqual({ points: '0,50 50,25 100,0', top: 10 });
  });

  it('an all-zero line lies on the bottom; a missing figure leaves a gap, not a zero', () => {
    expect(chartGeometry([0, 0], 10, 8).points).toBe('0,8 10,8');
    expect(chartGeometry([4, null, 2], 10, 8).points).toBe('0,0 10,4');
  });

  it('one sample is a point at the left; none is an empty line', () => {
    expect(chartGeometry([3], 10, 8).points).toBe('0,0');
    expect(chartGeometry([], 10, 8)).toEqual({ points: '', top: 0 });
  });
});
