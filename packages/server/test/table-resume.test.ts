/**
 * A hand handed over in play (`resume-hand`): table A deals a hand and plays part of it; table B — a
 * new owner — restores the seats and resumes the hand from A's journal (the state it was dealt from
 * and the actions recorded); then both play the same remaining decisions, and must show every player
 * the same hand and end it with the same settlement (history included) and stacks.
 */
import { randomBelow, seededRandom, type RandomSource } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import type { HandStart } from '../src/table/hand-start.js';
import type { TableConfig, TableView } from '../src/table/index.js';
import { actor, harness, randomDecision, sitAll, tick, type Harness } from './table-helpers.js';

type Game = Partial<TableConfig> & Pick<TableConfig, 'game' | 'structure'>;

const HOLDEM: Game = { game: 'holdem', structure: 'no-limit' };

/** The view without what a fresh owner's clock makes different (the deadlines). */
function comparable(view: TableView): unknown {
  const hand = view.hand;
  if (hand === null) return view;
  return {
    ...view,
    hand: {
      ...hand,
      deadline: null,
      runTwice: hand.runTwice === null ? null : { ...hand.runTwice, deadline: 0 },
    },
  };
}

/**
 * Makes one decision (or run-it-twice answer), chosen at the first table, at every table; false when
 * the first table's hand is over.
 */
async function decide(tables: readonly Harness[], handId: number, random: RandomSource): Promise<boolean> {
  const a = tables[0]!;
  const hand = a.table.view(null).hand;
  if (hand?.handId !== handId) return false;
  if (hand.runTwice !== null) {
    const seat = hand.runTwice.seats.find((s) => !hand.runTwice!.accepted.includes(s))!;
    const player = a.players.find((p) => p.account === a.table.view(null).seats[seat]!.account)!;
    const command = { type: 'run-twice', accept: randomBelow(random, 3) > 0 } as const;
    for (const h of tables) expect(await h.table.handle(player, command)).toEqual({ ok: true });
    return true;
  }
  const who = actor(a)!;
  for (const h of tables) expect(actor(h)).toEqual(who);
  const command = { type: 'act', action: randomDecision(a, who, random) } as const;
  for (const h of tables) expect(await h.table.handle(who, command)).toEqual({ ok: true });
  return true;
}

/** A deals and plays `before` decisions; B takes the hand over from A's journal. Null: the hand ended first. */
async function handOver(
  game: Game,
  seed: number,
  before: number | ((a: Harness) => Promise<void>),
  players = 3,
): Promise<{ a: Harness; b: Harness; handId: number; random: RandomSource } | null> {
  const random = seededRandom(seed * 7 + 1);
  const a = harness(game, { seed, players });
  await sitAll(a, 200);
  await tick(a, 2_000);
  const handId = a.table.view(null).hand!.handId;
  if (typeof before === 'function') await before(a);
  else {
    for (let i = 0; i < before; i++) {
      if (!(await decide([a], handId, random))) return null;
    }
  }
  await a.table.idle();
  if (a.table.view(null).hand?.handId !== handId) return null;
  const b = harness(game, { seed: seed + 1000, players });
  b.storage.adopt(a.storage, handId);
  const stored = a.storage.started.get(handId)!;
  // The seats as A's storage holds them (a player who folded and left is gone).
  for (const seat of a.table.view(null).seats) {
    if (seat === null) continue;
    const player = b.players.find((q) => q.account === seat.account)!;
    const restored = await b.table.control({
      type: 'restore-seat',
      player,
      seat: seat.seat,
      stack: seat.stack,
    });
    expect(restored).toEqual({ ok: true });
  }
  const actions = a.storage.actions.filter((r) => r.handId === handId).map((r) => r.action);
  const resumed = await b.table.control({ type: 'resume-hand', handId, start: stored.start!, actions });
  expect(resumed).toEqual({ ok: true });
  await b.table.idle();
  return { a, b, handId, random };
}

/** Both tables play the hand taken over to its end alike, every view equal after every decision. */
async function endAlike(taken: NonNullable<Awaited<ReturnType<typeof handOver>>>): Promise<void> {
  const { a, b, handId, random } = taken;
  for (const p of a.players)
    expect(comparable(b.table.view(p.account))).toEqual(comparable(a.table.view(p.account)));
  while (await decide([a, b], handId, random)) {
    await Promise.all([a.table.idle(), b.table.idle()]);
    for (const p of a.players)
      expect(comparable(b.table.view(p.account))).toEqual(comparable(a.table.view(p.account)));
  }
  await b.table.idle();
  expect(b.table.view(null).hand?.handId).not.toBe(handId);
  expect(b.storage.settled.get(handId)).toEqual(a.storage.settled.get(handId));
  expect(b.table.view(null).seats.map((s) => s?.stack)).toEqual(
    a.table.view(null).seats.map((s) => s?.stack),
  );
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
}

/** Hands over and plays to the end on both; the number of hands that were resumed (not over before). */
async function resumedHandsEndAlike(game: Game, seeds: number, players = 3): Promise<number> {
  let resumed = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const taken = await handOver(game, seed, randomBelow(seededRandom(seed), 14), players);
    if (taken === null) continue;
    resumed++;
    await endAlike(taken);
  }
  return resumed;
}

/** Heads-up, all in before the flop at a table offering run it twice; `then`: what A does next. */
const allInThen =
  (then: (a: Harness) => Promise<void>) =>
  async (a: Harness): Promise<void> => {
    const first = actor(a)!;
    const raise = a.table.view(first.account).hand!.legal!.raise!;
    await a.table.handle(first, { type: 'act', action: { type: 'raise', to: raise.max } });
    await a.table.handle(actor(a)!, { type: 'act', action: { type: 'call' } });
    await a.table.idle();
    expect(a.table.view(null).hand!.runTwice).not.toBeNull();
    await then(a);
  };

describe('a hand handed over in play goes on exactly as it would have', () => {
  it("hold'em no limit (every street, all-ins): the resumed hand ends with the same settlement", async () => {
    expect(await resumedHandsEndAlike(HOLDEM, 40, 4)).toBeGreaterThan(20);
  });

  it('pot-limit Omaha hi-lo at a table that offers run it twice', async () => {
    expect(
      await resumedHandsEndAlike({ game: 'omaha-hilo', structure: 'pot-limit', runItTwice: true }, 30),
    ).toBeGreaterThan(12);
  });

  it('seven-card stud (bring-in, fixed limit)', async () => {
    expect(await resumedHandsEndAlike({ game: 'stud', structure: 'fixed-limit' }, 30)).toBeGreaterThan(12);
  });

  it('2-7 triple draw (draws resumed)', async () => {
    expect(
      await resumedHandsEndAlike({ game: 'triple-draw-27', structure: 'fixed-limit' }, 30),
    ).toBeGreaterThan(12);
  });
});

describe('a hand handed over at run it twice', () => {
  const game: Game = { ...HOLDEM, runItTwice: true };
  const answer = (accept: boolean, count: number) => async (a: Harness) => {
    const offer = a.table.view(null).hand!.runTwice!;
    for (const seat of offer.seats.slice(0, count)) {
      const player = a.players.find((p) => p.account === a.table.view(null).seats[seat]!.account)!;
      await a.table.handle(player, { type: 'run-twice', accept });
    }
  };

  it('on offer, unanswered or agreed by some: the offer is made again to everybody', async () => {
    for (const then of [answer(true, 0), answer(true, 1)]) {
      const taken = (await handOver(game, 11, allInThen(then), 2))!;
      const offer = taken.b.table.view(null).hand!.runTwice!;
      expect(offer.accepted).toEqual([]);
      // A's player who agreed agrees again at B.
      if (taken.a.table.view(null).hand!.runTwice!.accepted.length > 0) await answer(true, 1)(taken.b);
      await endAlike(taken);
    }
  });
});

describe('resume-hand', () => {
  it('a player who folded and left is not seated again; the hand goes on without him', async () => {
    const leaves = async (a: Harness) => {
      const first = actor(a)!;
      await a.table.handle(first, { type: 'act', action: { type: 'fold' } });
      expect(await a.table.handle(first, { type: 'leave' })).toEqual({ ok: true });
    };
    const taken = (await handOver(HOLDEM, 21, leaves, 3))!;
    expect(taken.b.table.view(null).seats.filter((seat) => seat !== null)).toHaveLength(2);
    await endAlike(taken);
  });

  it('gives the player to act a fresh decision clock and his time bank as at the deal', async () => {
    const taken = (await handOver(HOLDEM, 3, 1))!;
    const { b } = taken;
    const hand = b.table.view(null).hand!;
    expect(hand.deadline).toBe(b.clock.now() + 15_000);
    const seat = b.table.view(null).seats[hand.actor!]!;
    expect(seat.timeBankMs).toBe(30_000);
  });

  it('is refused, the table unchanged, when a seat is not as the hand was dealt, the start is damaged or an action does not replay', async () => {
    const a = harness(HOLDEM, { seed: 5 });
    await sitAll(a, 200);
    await tick(a, 2_000);
    const handId = a.table.view(null).hand!.handId;
    const stored = a.storage.started.get(handId)!;
    const start = JSON.parse(stored.start!) as HandStart;
    const actions = a.storage.actions.filter((r) => r.handId === handId).map((r) => r.action);
    const b = harness(HOLDEM, { seed: 6 });
    b.storage.adopt(a.storage, handId);
    for (const [p, seat] of start.plan.order.entries()) {
      const player = b.players.find((q) => q.account === start.accounts[p])!;
      // The first player's stack is not the one he was dealt with.
      const stack = start.stacks[p]! - (p === 0 ? 1 : 0);
      await b.table.control({ type: 'restore-seat', player, seat, stack });
    }
    const wrongSeat = await b.table.control({ type: 'resume-hand', handId, start: stored.start!, actions });
    expect(wrongSeat).toMatchObject({ ok: false, error: { code: 'WRONG_STATE' } });
    const c = harness(HOLDEM, { seed: 7 });
    c.storage.adopt(a.storage, handId);
    for (const [p, seat] of start.plan.order.entries()) {
      const player = c.players.find((q) => q.account === start.accounts[p])!;
      await c.table.control({ type: 'restore-seat', player, seat, stack: start.stacks[p]! });
    }
    const damaged = await c.table.control({ type: 'resume-hand', handId, start: '{"plan"', actions });
    expect(damaged).toMatchObject({ ok: false, error: { code: 'WRONG_STATE' } });
    const tampered = actions.map((json) => JSON.stringify({ ...(JSON.parse(json) as object), events: 1 }));
    const replay = await c.table.control({
      type: 'resume-hand',
      handId,
      start: stored.start!,
      actions: tampered,
    });
    expect(replay).toMatchObject({ ok: false, error: { code: 'WRONG_STATE' } });
    expect(c.table.view(null).hand).toBeNull();
    expect(c.errors).toEqual([]);
  });
});
