import { seededRandom } from '@felt/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planButtonHand, type PlayerRef, type SeatPicture, type TableView } from '../src/table/index.js';
import { harness, playHand, sitAll, tick, type Harness } from './table-helpers.js';

const paid = (seat: number, more: Partial<SeatPicture> = {}): SeatPicture => ({
  seat,
  ready: true,
  paid: true,
  missedSmall: false,
  missedBig: false,
  wantsToPost: false,
  ...more,
});
const fresh = (seat: number, wantsToPost = false): SeatPicture => paid(seat, { paid: false, wantsToPost });

describe('seating rules (RULES.md §1)', () => {
  it('new player sitting between the button and the blinds waits', () => {
    const plan = planButtonHand([paid(0), fresh(1, true), paid(2), paid(4)], 10, 4, 1, 2)!;
    expect(plan.button).toBe(0);
    expect(plan.order).toEqual([2, 4, 0]);
  });
  it('new player seated in the big blind plays it', () => {
    const plan = planButtonHand([paid(0), paid(2), fresh(3), paid(6)], 10, 6, 1, 2)!;
    expect(plan.order).toEqual([2, 3, 6, 0]);
    expect(plan.blinds).toEqual([1, 2, 0, 0]);
    expect(plan.nowPaid).toEqual([3]);
  });
  it('new player elsewhere posts a big blind or waits for it', () => {
    const posting = planButtonHand([paid(0), paid(2), paid(4), fresh(6, true)], 10, 9, 1, 2)!;
    expect(posting.order).toEqual([2, 4, 6, 0]);
    expect(posting.blinds).toEqual([1, 2, 2, 0]);
    const waiting = planButtonHand([paid(0), paid(2), paid(4), fresh(6, false)], 10, 9, 1, 2)!;
    expect(waiting.order).toEqual([2, 4, 0]);
  });
  it('the button never goes to a player who has not paid his blinds', () => {
    const plan = planButtonHand([paid(0), fresh(1, true), paid(2), paid(3)], 10, 0, 1, 2)!;
    expect(plan.button).toBe(2);
    for (let previous = 0; previous < 10; previous++)
      expect(
        planButtonHand([paid(0), fresh(1, true), paid(5), paid(7)], 10, previous, 1, 2)!.button,
      ).not.toBe(1);
  });
  it('missed blinds are marked: MS passed for the small blind, ML for the big one', () => {
    const out = (seat: number) => paid(seat, { ready: false });
    const small = planButtonHand([paid(0), out(1), paid(2), paid(3)], 10, 9, 1, 2)!;
    expect(small.missedSmall).toEqual([1]);
    expect(small.order).toEqual([2, 3, 0]);
    const big = planButtonHand([paid(0), paid(1), out(2), paid(3)], 10, 9, 1, 2)!;
    expect(big.missedBig).toEqual([2]);
    expect(big.order).toEqual([1, 3, 0]);
  });
  it('missed blinds are posted to come back: the big one live, the small one dead', () => {
    const back = paid(6, { missedSmall: true, missedBig: true, wantsToPost: true });
    const plan = planButtonHand([paid(0), paid(2), paid(4), back], 10, 9, 1, 2)!;
    expect(plan.order).toEqual([2, 4, 6, 0]);
    expect(plan.blinds).toEqual([1, 2, 2, 0]);
    expect(plan.deadBlinds).toEqual([0, 0, 1, 0]);
    const waits = planButtonHand([paid(0), paid(2), paid(4), { ...back, wantsToPost: false }], 10, 9, 1, 2)!;
    expect(waits.order).toEqual([2, 4, 0]);
  });
  it('heads-up the button posts the small blind', () => {
    const plan = planButtonHand([paid(3), paid(7)], 10, 3, 1, 2)!;
    expect(plan.button).toBe(7);
    expect(plan.order).toEqual([3, 7]);
    expect(plan.blinds).toEqual([2, 1]);
  });
});

describe('tables: seats', () => {
  it('one seat per account per table; buy-in within the range', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 2 });
    const [a, b] = h.players as [(typeof h.players)[0], (typeof h.players)[0]];
    expect((await h.table.handle(a, { type: 'sit', seat: 0, buyIn: 10 })).ok).toBe(false); // min 40
    expect((await h.table.handle(a, { type: 'sit', seat: 0, buyIn: 201 })).ok).toBe(false); // max 200
    expect((await h.table.handle(a, { type: 'sit', seat: 0, buyIn: 100 })).ok).toBe(true);
    expect(await h.table.handle(a, { type: 'sit', seat: 1, buyIn: 100 })).toMatchObject({
      ok: false,
      error: { code: 'ALREADY_SEATED' },
    });
    expect(await h.table.handle(b, { type: 'sit', seat: 0, buyIn: 100 })).toMatchObject({
      ok: false,
      error: { code: 'SEAT_TAKEN' },
    });
    h.storage.balances.set(b.account, 50);
    expect(await h.table.handle(b, { type: 'sit', seat: 1, buyIn: 100 })).toMatchObject({
      ok: false,
      error: { code: 'INSUFFICIENT_FUNDS' },
    });
    expect(h.storage.balances.get(a.account)).toBe(100_000 - 100);
  });

  it('new player posts a big blind to play at once, or waits', async () => {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 5 });
    const [p1, p2, p3, p4, p5] = h.players as [
      (typeof h.players)[0],
      (typeof h.players)[0],
      (typeof h.players)[0],
      (typeof h.players)[0],
      (typeof h.players)[0],
    ];
    for (const [p, seat] of [
      [p1, 0],
      [p2, 2],
      [p3, 4],
    ] as const)
      await h.table.handle(p, { type: 'sit', seat, buyIn: 100 });
    await playHand(h, seededRandom(1)); // button 0, SB 2, BB 4
    await h.table.handle(p4, { type: 'sit', seat: 1, buyIn: 100, post: 'post' });
    await h.table.handle(p5, { type: 'sit', seat: 3, buyIn: 100, post: 'post' });
    await tick(h, 2_000); // button 2, SB 4, BB 0; seat 3 (between button and blinds) waits, seat 1 posts
    const hand = h.table.view(null).hand!;
    expect(h.table.view(null).button).toBe(2);
    expect(hand.players.map((p) => p.seat)).toEqual([4, 0, 1, 2]);
    expect(hand.players.find((p) => p.seat === 1)!.committed).toBe(2);
    expect(h.table.view(null).seats[3]!.status).toBe('waiting');
    expect(h.table.view(null).seats[1]!.paid).toBe(true);
    await playHand(h, seededRandom(2)); // button 4: seat 3 is no longer between the button and the blinds
    await tick(h, 2_000);
    expect(h.table.view(null).hand!.players.map((p) => p.seat)).toContain(3);
  });

  it('sit-out: missed blinds marked, and posted to come back (the small one dead)', async () => {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 4 });
    await sitAll(h, 100, [0, 2, 4, 6]);
    const random = seededRandom(2);
    await playHand(h, random); // button 0, SB 2, BB 4
    await h.table.handle(h.players[3]!, { type: 'sit-out' });
    await playHand(h, random); // button 2, SB 4, BB: seat 6 out → ML, BB 0
    expect(h.table.view(null).seats[6]).toMatchObject({
      status: 'sitting-out',
      missed: { small: false, big: true },
    });
    expect(h.table.view(null).hand).toBeNull();
    await playHand(h, random); // button 4, seat 6 passed for the small blind → MS
    expect(h.table.view(null).seats[6]!.missed).toEqual({ small: true, big: true });
    await h.table.handle(h.players[3]!, { type: 'sit-in', post: 'post' });
    await tick(h, 2_000); // button 0, SB 2, BB 4, seat 6 posts 2 live + 1 dead
    const events = h.inbox
      .get(h.players[3]!.account)!
      .flatMap((m) =>
        m.type === 'table-event' && m.handId === h.table.view(null).hand!.handId ? [m.event] : [],
      );
    expect(events.filter((e) => e.type === 'post' && e.seat === 6)).toEqual([
      { type: 'post', seat: 6, kind: 'dead-blind', amount: 1, allIn: false },
      { type: 'post', seat: 6, kind: 'blind', amount: 2, allIn: false },
    ]);
    expect(h.table.view(null).seats[6]!.missed).toEqual({ small: false, big: false });
  });

  it('the button never goes to a player who has not paid his blinds (many hands)', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 5 });
    await sitAll(h, 200, [0, 1, 2, 3, 4]);
    const random = seededRandom(4);
    const paidBefore = new Map<number, boolean>();
    for (let n = 0; n < 30; n++) {
      paidBefore.clear();
      if (n === 3) await h.table.handle(h.players[4]!, { type: 'leave' });
      if (n === 5) await h.table.handle(h.players[4]!, { type: 'sit', seat: 4, buyIn: 200 });
      if (n === 8) await h.table.handle(h.players[1]!, { type: 'sit-out' });
      if (n === 14) await h.table.handle(h.players[1]!, { type: 'sit-in', post: 'wait' });
      for (const s of h.table.view(null).seats)
        if (s) paidBefore.set(s.seat, s.paid && !s.missed.big && !s.missed.small);
      await tick(h, 2_000);
      const view = h.table.view(null);
      if (view.hand === null) continue;
      // (the very first hand starts afresh: nobody has paid yet)
      if ([...paidBefore.values()].filter(Boolean).length >= 2)
        expect(paidBefore.get(view.button!)).toBe(true);
      await playHand(h, random);
    }
  });

  it('leave: a player in a hand is folded at his turn and cashed out after it', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const hand = h.table.view(null).hand!;
    const leaverSeat = hand.players.find((p) => p.seat !== hand.actor)!.seat;
    const leaver = h.players.find((p) => p.account === h.table.view(null).seats[leaverSeat]!.account)!;
    await h.table.handle(leaver, { type: 'leave' });
    expect(h.table.view(null).seats[leaverSeat]!.status).toBe('leaving');
    await playHand(h, seededRandom(3));
    expect(h.table.view(null).seats[leaverSeat]).toBeNull();
    expect(h.storage.seat('t1', leaver.account)).toBe(0);
    const events = h.inbox
      .get('spectator')!
      .flatMap((m) => (m.type === 'table-event' && m.handId === hand.handId ? [m.event] : []));
    expect(
      events.some((e) => e.type === 'fold' && e.seat === leaverSeat) ||
        events.some((e) => e.type === 'award' && e.seat === leaverSeat),
    ).toBe(true);
    expect(h.storage.balances.get(leaver.account)! + h.storage.seat('t1', leaver.account)).toBeGreaterThan(0);
  });

  it('every accepted action is durable before it is announced', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3 });
    await sitAll(h, 100);
    await playHand(h, seededRandom(8));
    const firstAnnounce = h.log.findIndex((l) => l.startsWith('announce'));
    expect(h.log.findIndex((l) => l.startsWith('start'))).toBeLessThan(firstAnnounce);
    const lastRecord = h.log.findLastIndex((l) => l.startsWith('record'));
    const endAnnounce = h.log.findIndex((l) => l.endsWith(' end'));
    expect(h.log.findIndex((l) => l.startsWith('settle'))).toBeLessThan(endAnnounce);
    expect(lastRecord).toBeLessThan(endAnnounce);
  });
});

describe('tables: blinds without auto-post (the table asks before each blind)', () => {
  /**
   * Seats 0, 2, 4, 6; one hand played (button 0, SB 2, BB 4); seat 6 turns auto-post off and is asked
   * for the big blind of the next.
   */
  async function askedForTheBigBlind(): Promise<{ h: Harness; p: PlayerRef }> {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 4 });
    await sitAll(h, 100, [0, 2, 4, 6]);
    await playHand(h, seededRandom(2));
    const p = h.players[3]!;
    expect(await h.table.handle(p, { type: 'auto-post', on: false })).toEqual({ ok: true });
    await tick(h, 2_000); // button 2, SB 4, BB 6
    return { h, p };
  }
  const started = (h: Harness): number => h.log.filter((line) => line.startsWith('start')).length;

  it('auto-post off: the table asks him for his blind, everybody sees it, and it deals once he posts', async () => {
    const { h, p } = await askedForTheBigBlind();
    const snapshots = h.inbox.get('spectator')!.flatMap((m) => (m.type === 'table-snapshot' ? [m.view] : []));
    // With auto-post on (everybody in the first hand) nobody was asked.
    expect(snapshots.slice(0, -1).every((view) => view.blindRequest === null)).toBe(true);
    const request = { seat: 6, blind: 2, dead: 0, deadline: h.clock.now() + 15_000 };
    expect(snapshots.at(-1)!.blindRequest).toEqual(request);
    expect(h.table.view(null)).toMatchObject({ hand: null, blindRequest: request });
    expect(started(h)).toBe(1); // nothing dealt, nothing stored while he is asked
    expect(await h.table.handle(p, { type: 'post-blind', post: true })).toEqual({ ok: true });
    const view = h.table.view(null);
    expect(view.blindRequest).toBeNull();
    expect(view.hand!.players.map((player) => [player.seat, player.committed])).toEqual([
      [4, 1],
      [6, 2],
      [0, 0],
      [2, 0],
    ]);
    expect(h.storage.total()).toBe(4 * 100_000);
  });

  it('declining the blind sits him out, marks the blind he missed, and the next player posts it', async () => {
    const { h, p } = await askedForTheBigBlind();
    expect(await h.table.handle(p, { type: 'post-blind', post: false })).toEqual({ ok: true });
    const view = h.table.view(null);
    expect(view.seats[6]).toMatchObject({ status: 'sitting-out', missed: { small: false, big: true } });
    expect(view.blindRequest).toBeNull();
    expect(view.hand!.players.map((player) => [player.seat, player.committed])).toEqual([
      [4, 1],
      [0, 2],
      [2, 0],
    ]);
  });

  it('no answer within the action clock: he is sat out and the hand goes on without him', async () => {
    const { h } = await askedForTheBigBlind();
    // A player sitting down meanwhile does not start the next hand nor his clock again.
    h.storage.balances.set(5, 1_000);
    await tick(h, 5_000);
    expect(await h.table.handle({ account: 5, name: 'late' }, { type: 'sit', seat: 8, buyIn: 100 })).toEqual({
      ok: true,
    });
    await tick(h, 9_999);
    expect(h.table.view(null)).toMatchObject({ hand: null, blindRequest: { seat: 6 } });
    await tick(h, 1);
    const view = h.table.view(null);
    expect(view.seats[6]).toMatchObject({ status: 'sitting-out', missed: { big: true } });
    expect(view.hand!.players.map((player) => player.seat)).toEqual([4, 0, 2]);
  });

  it('an answer nobody asked for is refused and changes nothing', async () => {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 4 });
    await sitAll(h, 100, [0, 2, 4, 6]);
    const wrongState = { ok: false, error: { code: 'WRONG_STATE', message: 'no blind of yours is awaited' } };
    expect(await h.table.handle(h.players[3]!, { type: 'post-blind', post: true })).toEqual(wrongState);
    const { h: asked } = await askedForTheBigBlind();
    const before = asked.table.view(null);
    expect(await asked.table.handle(asked.players[0]!, { type: 'post-blind', post: false })).toEqual(
      wrongState,
    );
    expect(
      await asked.table.handle({ account: 99, name: 'stranger' }, { type: 'post-blind', post: true }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_SEATED' } });
    expect(asked.table.view(null)).toEqual(before);
  });

  it('switching auto-post on, sitting out or leaving while asked answers at once', async () => {
    const on = await askedForTheBigBlind();
    await on.h.table.handle(on.p, { type: 'auto-post', on: true });
    expect(on.h.table.view(null).hand!.players.find((player) => player.seat === 6)!.committed).toBe(2);

    const out = await askedForTheBigBlind();
    await out.h.table.handle(out.p, { type: 'sit-out' });
    expect(out.h.table.view(null).hand!.players.map((player) => player.seat)).toEqual([4, 0, 2]);
    expect(out.h.table.view(null).seats[6]!.missed.big).toBe(true);

    const gone = await askedForTheBigBlind();
    await gone.h.table.handle(gone.p, { type: 'leave' });
    expect(gone.h.table.view(null).seats[6]).toBeNull();
    expect(gone.h.table.view(null).hand!.players.map((player) => player.seat)).toEqual([4, 0, 2]);
    expect(gone.h.storage.seat('t1', gone.p.account)).toBe(0);
    expect(gone.h.storage.total()).toBe(4 * 100_000);
  });

  it('a returning player who chose to post his missed blinds has agreed: he is not asked', async () => {
    const { h, p } = await askedForTheBigBlind();
    await h.table.handle(p, { type: 'post-blind', post: false }); // sat out, marked ML
    await playHand(h, seededRandom(3));
    await h.table.handle(p, { type: 'sit-in', post: 'post' });
    await playHand(h, seededRandom(4));
    await tick(h, 2_000);
    const view = h.table.view(null);
    expect(view.blindRequest).toBeNull();
    expect(view.hand!.players.map((player) => player.seat)).toContain(6);
  });
});

describe('blinds asked for and answered at random (property)', () => {
  const ANSWERS = ['post', 'decline', 'no answer', 'auto-post on', 'sit-out', 'leave'] as const;
  /** Seated players who could be dealt in (everybody stays connected here). */
  const canPlay = (view: TableView): number =>
    view.seats.filter((seat) => seat !== null && seat.status !== 'sitting-out' && seat.stack > 0).length;

  it('chips are conserved, only players with auto-post or who agreed post blinds, and the table never stalls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 16 }),
        fc.integer({ min: 1, max: 1e6 }),
        async (autoPosts, answers, seed) => {
          const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 5, seed });
          const before = h.storage.total();
          for (const [i, p] of h.players.entries())
            await h.table.handle(p, { type: 'sit', seat: i * 2, buyIn: 200, autoPost: autoPosts[i]! });
          const random = seededRandom(seed);
          const agreed = new Set<number>();
          /** Checks who posted in the hand in progress, then plays it out. */
          const playOut = async (): Promise<void> => {
            const view = h.table.view(null);
            const handId = view.hand!.handId;
            const posters = h.inbox
              .get('spectator')!
              .flatMap((m) =>
                m.type === 'table-event' && m.handId === handId && m.event.type === 'post'
                  ? [m.event.seat]
                  : [],
              );
            for (const seat of posters) expect(view.seats[seat]!.autoPost || agreed.has(seat)).toBe(true);
            agreed.clear();
            await playHand(h, random);
          };
          let next = 0;
          for (let step = 0; step < 60 && next < answers.length; step++) {
            const view = h.table.view(null);
            if (view.hand !== null) {
              await playOut();
              continue;
            }
            const request = view.blindRequest;
            if (request === null) {
              // Between hands: those who were sat out come back (waiting for the big blind).
              for (const p of h.players)
                if (view.seats.find((seat) => seat?.account === p.account)?.status === 'sitting-out')
                  await h.table.handle(p, { type: 'sit-in' });
              const handsBefore = h.storage.settled.size;
              await tick(h, 2_000);
              const after = h.table.view(null);
              // (a hand may start and end within the tick: an all-in blind and nobody to act)
              if (
                after.hand === null &&
                after.blindRequest === null &&
                h.storage.settled.size === handsBefore
              ) {
                // No stall: nothing starts only when fewer than two players can play.
                expect(canPlay(after)).toBeLessThan(2);
                break;
              }
              continue;
            }
            const asked = h.players.find((p) => p.account === view.seats[request.seat]!.account)!;
            const answer = answers[next++]!;
            const settledBefore = h.storage.settled.size;
            if (answer === 'post' || answer === 'auto-post on') agreed.add(request.seat);
            if (answer === 'no answer') await tick(h, 15_000);
            else
              expect(
                await h.table.handle(
                  asked,
                  answer === 'post' || answer === 'decline'
                    ? { type: 'post-blind', post: answer === 'post' }
                    : answer === 'auto-post on'
                      ? { type: 'auto-post', on: true }
                      : { type: answer },
                ),
              ).toEqual({ ok: true });
            const answered = h.table.view(null);
            // Any answer moves the table on at once: a hand (perhaps already over), the next blind
            // asked for, or too few players to deal.
            if (canPlay(answered) >= 2)
              expect(
                answered.hand !== null ||
                  answered.blindRequest !== null ||
                  h.storage.settled.size > settledBefore,
              ).toBe(true);
            const seat = answered.seats[request.seat];
            if (answer === 'leave') expect(seat).toBeNull();
            if (answer === 'decline' || answer === 'no answer' || answer === 'sit-out')
              expect(seat!.status).toBe('sitting-out');
            expect(h.storage.total()).toBe(before);
          }
          if (h.table.view(null).hand !== null) await playOut();
          expect(h.errors).toEqual([]);
          expect(h.storage.total()).toBe(before);
          for (const seat of h.table.view(null).seats)
            if (seat) expect(h.storage.seat('t1', seat.account)).toBe(seat.stack);
          await h.table.dispose();
        },
      ),
      // The example: a hand that starts and ends within one tick (an all-in blind, nobody to act).
      { numRuns: 40, examples: [[[false, true, true, false, true], ['leave', 'post'], 66339]] },
    );
  });
});

describe('a table taken over from a process that died (restore-seat)', () => {
  it('seats each player again with the chips his seat account holds, without a buy-in, and deals', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit', clocks: { betweenHandsMs: 100 } });
    const [ann, bob] = h.players as [PlayerRef, PlayerRef];
    // The chips are in the seats already (they never left them when the last owner's hand was cancelled).
    h.storage.seats.set(`t1:${ann.account}`, 300);
    h.storage.seats.set(`t1:${bob.account}`, 500);
    const total = h.storage.total();
    expect(await h.table.control({ type: 'restore-seat', player: ann, seat: 4, stack: 300 })).toEqual({
      ok: true,
    });
    expect(await h.table.control({ type: 'restore-seat', player: bob, seat: 1, stack: 500 })).toEqual({
      ok: true,
    });
    const view = h.table.view(null);
    expect(view.seats[4]).toMatchObject({ account: ann.account, stack: 300 });
    expect(view.seats[1]).toMatchObject({ account: bob.account, stack: 500 });
    expect(h.log.filter((line) => line.startsWith('buy-in'))).toEqual([]);
    await tick(h, 200);
    expect(h.table.view(null).hand).not.toBeNull();
    expect(h.storage.total()).toBe(total);
  });

  it('is refused during a hand, for a seat taken, twice for one account, and for a stack not positive', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit', clocks: { betweenHandsMs: 100 } });
    const [ann, bob, cal] = h.players as [PlayerRef, PlayerRef, PlayerRef];
    for (const player of [ann, bob]) h.storage.seats.set(`t1:${player.account}`, 300);
    const restore = (player: PlayerRef, seat: number, stack: number) =>
      h.table.control({ type: 'restore-seat', player, seat, stack });
    expect((await restore(ann, 0, 300)).ok).toBe(true);
    expect(await restore(bob, 0, 300)).toMatchObject({ ok: false, error: { code: 'SEAT_TAKEN' } });
    expect(await restore(ann, 2, 300)).toMatchObject({ ok: false, error: { code: 'ALREADY_SEATED' } });
    expect(await restore(bob, 2, 0)).toMatchObject({ ok: false, error: { code: 'BAD_BUY_IN' } });
    expect((await restore(bob, 2, 300)).ok).toBe(true);
    await tick(h, 200);
    expect(h.table.view(null).hand).not.toBeNull();
    expect(await restore(cal, 3, 300)).toMatchObject({ ok: false, error: { code: 'WRONG_STATE' } });
  });
});
