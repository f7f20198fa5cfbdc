import { describe, expect, it } from 'vitest';
import { averageStack, standings } from '../src/tournament/index.js';

describe('standings', () => {
  it('ranks the players left by chips, equal stacks sharing a rank', () => {
    const ranked = standings(
      new Map([
        ['a', 300],
        ['b', 900],
        ['c', 300],
        ['d', 100],
      ]),
    );
    expect(ranked).toEqual([
      { player: 'b', chips: 900, rank: 1 },
      { player: 'a', chips: 300, rank: 2 },
      { player: 'c', chips: 300, rank: 2 },
      { player: 'd', chips: 100, rank: 4 },
    ]);
  });

  it('the average stack is the chips in play over the players left, in whole chips', () => {
    expect(averageStack(1_000, 3)).toBe(333);
    expect(averageStack(0, 0)).toBe(0);
  });
});
