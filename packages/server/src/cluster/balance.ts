/**
 * How many tables each live member should run: the tables over the members, the remainder to the oldest
 * (lowest ids). Every member computes the same targets from the same view, so they agree without talking:
 * a member under its target takes free tables, one over its target hands tables over while another is
 * under — and since the targets do not move unless a member or a table comes or goes, a table handed over
 * is never handed back (no ping-pong). The tournament runs are spread over the members the same way
 * (./tournaments.ts), apart from the tables.
 */
import type { ClusterView, MemberId } from './registry.js';

/** Each live member's target, by member id. */
export function targetsOf(members: readonly MemberId[], tableCount: number): Map<MemberId, number> {
  const sorted = [...members].sort((a, b) => a - b);
  const base = Math.floor(tableCount / Math.max(1, sorted.length));
  const extra = tableCount - base * sorted.length;
  return new Map(sorted.map((member, at) => [member, base + (at < extra ? 1 : 0)]));
}

/** The members, and the leases of one kind (the tables', or the tournament runs') spread over them. */
export interface LeaseSpread {
  readonly members: ClusterView['members'];
  readonly leases: readonly Pick<ClusterView['leases'][number], 'memberId' | 'expiresInMs'>[];
}

/** What the view says of one member's load: the tables it runs, its target, and how many to hand over. */
export interface Load {
  readonly running: number;
  readonly target: number;
  /** Tables it should hand over now: over its target, and no more than the others lack. */
  readonly surplus: number;
}

/** `me`'s load in `view` among `tableCount` tables (the leases that have not run out, of live members). */
export function loadOf(view: LeaseSpread, me: MemberId, tableCount: number): Load {
  const live = view.members.filter((member) => member.live).map((member) => member.id);
  if (!live.includes(me)) live.push(me);
  const targets = targetsOf(live, tableCount);
  const running = new Map<MemberId, number>(live.map((member) => [member, 0]));
  for (const lease of view.leases) {
    const count = running.get(lease.memberId);
    if (lease.expiresInMs > 0 && count !== undefined) running.set(lease.memberId, count + 1);
  }
  let lacking = 0;
  for (const [member, target] of targets) lacking += Math.max(0, target - running.get(member)!);
  const mine = running.get(me)!;
  const target = targets.get(me)!;
  return { running: mine, target, surplus: Math.min(Math.max(0, mine - target), lacking) };
}
