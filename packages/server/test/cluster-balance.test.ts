/**
 * The tables' spread over the members (src/cluster/balance.ts): targets that add up to the tables and
 * differ by one at most, the remainder to the oldest members; a member hands over only what it runs over
 * its target and what the others lack, so that a balanced cluster hands nothing over.
 */
import { describe, expect, it } from 'vitest';
import { loadOf, targetsOf } from '../src/cluster/balance.js';
import type { ClusterView, MemberId } from '../src/cluster/registry.js';

/** A view of live members `members` and the live leases `held` (member by table). */
const viewOf = (members: readonly MemberId[], held: Record<string, MemberId>, expired: string[] = []) =>
  ({
    members: members.map((id) => ({ id, label: `m${id}`, address: '', heartbeatAgeMs: 0, live: true })),
    leases: Object.entries(held).map(([tableId, memberId]) => ({
      tableId,
      memberId,
      epoch: 1,
      ageMs: 0,
      expiresInMs: expired.includes(tableId) ? -1 : 3000,
    })),
    runs: [],
  }) satisfies ClusterView;

describe('the spread of the tables over the members', () => {
  it('the targets add up to the tables, differ by one at most, and the extra ones go to the oldest members', () => {
    expect([...targetsOf([7, 3, 5], 7)]).toEqual([
      [3, 3],
      [5, 2],
      [7, 2],
    ]);
    expect([...targetsOf([1, 2], 6).values()]).toEqual([3, 3]);
    expect([...targetsOf([1], 0).values()]).toEqual([0]);
  });

  it('a member over its target hands over what it has too many of, while a new member lacks its share', () => {
    const view = viewOf([1, 2, 3], { a: 1, b: 1, c: 1, d: 1, e: 2, f: 2 });
    expect(loadOf(view, 1, 6)).toEqual({ running: 4, target: 2, surplus: 2 });
    expect(loadOf(view, 2, 6)).toEqual({ running: 2, target: 2, surplus: 0 });
    expect(loadOf(view, 3, 6)).toEqual({ running: 0, target: 2, surplus: 0 });
  });

  it('nothing is handed over when no member lacks its share (free tables are taken instead)', () => {
    // Member 1 holds four of eight with member 2 at its target and two tables free.
    const view = viewOf([1, 2], { a: 1, b: 1, c: 1, d: 1, e: 2, f: 2, g: 2, h: 2 }, ['g', 'h']);
    expect(loadOf(view, 1, 8).surplus).toBe(0);
    expect(loadOf(view, 2, 8)).toEqual({ running: 2, target: 4, surplus: 0 });
  });

  it('a balanced cluster hands nothing over, whatever member looks', () => {
    const view = viewOf([1, 2, 3], { a: 1, b: 1, c: 1, d: 2, e: 2, f: 3, g: 3 });
    for (const member of [1, 2, 3]) expect(loadOf(view, member, 7).surplus).toBe(0);
  });

  it('the leases of a member no longer live are nobody’s load', () => {
    const view = viewOf([2], { a: 1, b: 1, c: 2 });
    expect(loadOf(view, 2, 3)).toEqual({ running: 1, target: 3, surplus: 0 });
  });
});
