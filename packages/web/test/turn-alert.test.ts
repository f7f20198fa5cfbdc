import { describe, expect, it } from 'vitest';
import { BASE_TITLE, newlyAwaiting, tablesAwaiting, turnTitle } from '../src/turn-alert';

const legal = { seat: 0 } as never;

describe('turn alerts', () => {
  it('a table waits for him exactly when it offers him legal actions, in the order the tables were opened', () => {
    const tables = { a: { legal: null }, b: { legal }, c: { legal } } as never;
    expect(tablesAwaiting({ open: ['c', 'a', 'b'], tables })).toEqual(['c', 'b']);
    expect(tablesAwaiting({ open: ['a'], tables })).toEqual([]);
    expect(tablesAwaiting({ open: ['gone'], tables })).toEqual([]);
  });

  it('the title flashes between the alert and the plain title while a table waits, and is plain otherwise', () => {
    expect(turnTitle(0, 0)).toBe(BASE_TITLE);
    expect(turnTitle(1, 0)).toBe('▶ Your turn — Felt');
    expect(turnTitle(1, 1)).toBe(BASE_TITLE);
    expect(turnTitle(3, 2)).toBe('▶ Your turn at 3 tables — Felt');
  });

  it('a tone only for a table that starts waiting, not again for one still waiting', () => {
    expect(newlyAwaiting([], ['a'])).toEqual(['a']);
    expect(newlyAwaiting(['a'], ['a'])).toEqual([]);
    expect(newlyAwaiting(['a'], ['a', 'b'])).toEqual(['b']);
    expect(newlyAwaiting(['a', 'b'], [])).toEqual([]);
  });
});
