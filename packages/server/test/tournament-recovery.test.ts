/**
 * A tournament after a crash: its checkpoint (stored after every step, as JSON) brings it back with the
 * same players, stacks, seats and level, the hands in progress cancelled (the stacks are those of each
 * table's last finished hand), the level clock paused while the room was down; it then plays to its
 * winner with every chip and cent where it belongs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import {
  storeCheckpoints,
  storedCheckpoint,
  type TournamentCheckpoint,
} from '../src/tournament/checkpoint.js';
import { elapsedMs } from '../src/tournament/clock.js';
import { DEAL_MS } from '../src/tournament/deal.js';
import { manualClock } from '../src/table/index.js';
import { watchingTables } from '../src/tournament/bots.js';
import { TournamentDirector } from '../src/tournament/director.js';
import { ledgerMoney } from '../src/tournament/money.js';
import { botDeps, botRef, botTournament, driveUntil, holdemDefinition } from './tournament-helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Saves as JSON (what storage keeps); resolves `reached` with the first checkpoint `until` accepts. */
function recorder(until: (c: TournamentCheckpoint) => boolean) {
  const saved: TournamentCheckpoint[] = [];
  let crashed = false;
  let reach: (c: TournamentCheckpoint) => void = () => undefined;
  const reached = new Promise<TournamentCheckpoint>((resolve) => (reach = resolve));
  return {
    saved,
    reached,
    crash: () => (crashed = true),
    save: (c: TournamentCheckpoint): Promise<void> => {
      if (crashed) return Promise.resolve();
      const stored = JSON.parse(JSON.stringify(c)) as TournamentCheckpoint;
      saved.push(stored);
      if (until(stored)) {
        crashed = true;
        reach(stored);
      }
      return Promise.resolve();
    },
  };
}

/** The crash: the tables stop where they are (their hands unfinished) and the bots go. */
async function crash(t: { director: TournamentDirector; bots: { stop(): void } }): Promise<void> {
  t.bots.stop();
  for (const table of t.director.tables()) await table.dispose();
}

const stacks = (c: TournamentCheckpoint) => c.entrants.map((e) => [e.ref.account, e.stack, e.out]);

describe('a tournament after a crash', () => {
  it('goes on from its checkpoint with the same players, stacks, seats and level, and plays to its winner with the ledger conserved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-recovery-'));
    dirs.push(dir);
    const storage = await openMigratedSqliteStorage({ file: join(dir, 'felt.db') });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const user = await storage.createUser({ name: `p${i}`, passwordHash: 'x', passwordSalt: 'x' });
        if (!user.ok) throw new Error(user.error.message);
        await storage.topUp(user.value.id, 2000);
        ids.push(user.value.id);
      }
      const def = holdemDefinition({ maxEntrants: 12, seats: 6 });
      const first = recorder((c) => c.phase === 'running' && c.entrants.some((e) => e.out));
      const before = botTournament(def, {
        seed: 3,
        money: ledgerMoney(storage, 'tt', 'play'),
        save: first.save,
      });
      for (const id of ids) expect((await before.director.register(botRef(id))).ok).toBe(true);
      const reached = await first.reached;
      await crash(before);
      // What the room's database holds is what a restart reads.
      await storeCheckpoints(storage)(reached);
      const inPlay = await storage.tournamentsInPlay();
      expect(inPlay.map((t) => t.id)).toEqual(['tt']);
      const stored = storedCheckpoint(inPlay[0]!);
      expect(stored).toEqual(reached);
      expect(stored.entrants.reduce((sum, e) => sum + (e.out ? 0 : e.stack), 0)).toBe(12 * def.startingChips);

      const again = recorder(() => false);
      const after = botDeps({ seed: 4, money: ledgerMoney(storage, 'tt', 'play'), save: again.save });
      const director = await TournamentDirector.resume(stored, after.deps);
      const resumed = again.saved[0]!;
      expect(stacks(resumed)).toEqual(stacks(stored));
      expect(resumed.seating.map((t) => t.seats)).toEqual(stored.seating.map((t) => t.seats));
      expect(resumed.clock?.level).toBe(stored.clock?.level);
      expect(resumed.results).toEqual(stored.results);
      await director.done;
      await storeCheckpoints(storage)(director.checkpoint());
      expect(await storage.tournamentsInPlay()).toEqual([]);
      expect(after.errors).toEqual([]);
      expect(director.figures().conserved).toBe(true);
      const results = director.results();
      expect(results).toHaveLength(12);
      expect(results.reduce((sum, r) => sum + r.prize, 0)).toBe(12 * def.buyIn);
      const audit = await storage.audit();
      expect(audit.problems).toEqual([]);
      expect(audit.currencies.play).toMatchObject({ prizePools: 0, house: 12 * def.fee, sum: 0 });
      for (const id of ids) {
        const prize = results.find((r) => r.account === id)!.prize;
        expect((await storage.balances(id)).play).toBe(2000 - def.buyIn - def.fee + prize);
      }
    } finally {
      await storage.close();
    }
  }, 120_000);

  it('a level in hands whose last hand was being dealt at the crash: that hand is dealt again at its own level’s stakes, and ends the level when it finishes', async () => {
    // Heads-up, levels of 3 hands: crash while the 3rd hand of the first level is dealt.
    const def = holdemDefinition({ maxEntrants: 2 });
    const first = recorder(
      (c) => c.phase === 'running' && c.clock?.level === 0 && c.clock.handsByTable['1'] === 2,
    );
    const before = botTournament(def, { seed: 8, save: first.save });
    for (let i = 1; i <= 2; i++) expect((await before.director.register(botRef(i))).ok).toBe(true);
    const stored = await first.reached;
    await crash(before);
    expect(stored.entrants.every((e) => !e.out)).toBe(true);

    const again = recorder(() => false);
    const after = botDeps({ seed: 9, save: again.save });
    // Watch each table the players are seated at (before they sit, so before any hand) for its hands' big blinds.
    const bigBlinds: number[] = [];
    const follower = watchingTables(after.deps.follower!, (table) => {
      let shown: number | null = null;
      table.subscribe(null, (message) => {
        if (message.type !== 'table-snapshot' || message.view.hand === null) return;
        if (message.view.hand.handId === shown) return;
        shown = message.view.hand.handId;
        bigBlinds.push(message.view.stakes.small); // a table's `small` is its big blind
      });
    });
    const director = await TournamentDirector.resume(stored, { ...after.deps, follower });
    await director.done;
    expect(after.errors).toEqual([]);
    const levels = def.levels.map((l) => l.blinds!.big);
    // The hand the crash cancelled at level 0's stakes; then level 1 for its 3 hands (if the match lasts).
    expect(bigBlinds[0]).toBe(levels[0]);
    expect(bigBlinds.slice(1, 4).every((big) => big === levels[1])).toBe(true);
    const afterFirst = again.saved.find((c) => c.clock!.level > 0 || c.phase === 'finished')!;
    if (afterFirst.phase !== 'finished')
      expect(afterFirst.clock).toMatchObject({ level: 1, handsByTable: {} });
  }, 60_000);

  it('the level clock is paused across the restart: the time the room was down is not counted', async () => {
    const def = holdemDefinition({ levelLength: { unit: 'minutes', value: 10 } });
    const first = recorder((c) => c.phase === 'running' && c.clock !== null && c.clock.elapsedMs > 0);
    const before = botTournament(def, { seed: 5, save: first.save });
    for (let i = 1; i <= def.maxEntrants; i++)
      expect((await before.director.register(botRef(i))).ok).toBe(true);
    const stored = await first.reached;
    await crash(before);
    expect(stored.clock!.runningSince).toBeNull();
    // The room stays down a while; none of it may count.
    const downUntil = Date.now() + 300;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, downUntil - Date.now())));
    const again = recorder(() => false);
    const after = botDeps({ seed: 6, save: again.save });
    const restarting = Date.now();
    const director = await TournamentDirector.resume(stored, after.deps);
    const upFor = Date.now() - restarting;
    const resumed = again.saved[0]!;
    expect(resumed.clock!.level).toBe(stored.clock!.level);
    const counted = elapsedMs(resumed.clock!, Date.now()) - stored.clock!.elapsedMs;
    expect(counted).toBeGreaterThanOrEqual(0);
    expect(counted).toBeLessThanOrEqual(upFor);
    expect((await director.cancel()).ok).toBe(true);
    expect(after.errors).toEqual([]);
  }, 60_000);

  it('an open deal survives a crash: after the restart it is open again with the same players, amounts and answers, the time it had left to be answered, and the level clock still stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'felt-tournament-recovery-'));
    dirs.push(dir);
    const storage = await openMigratedSqliteStorage({ file: join(dir, 'felt.db') });
    try {
      const clock = manualClock();
      const def = holdemDefinition({ maxEntrants: 3, levelLength: { unit: 'minutes', value: 10 } });
      const first = recorder(() => false);
      const before = botTournament(def, { clock, seed: 9, save: first.save });
      for (let i = 1; i <= 3; i++) expect((await before.director.register(botRef(i))).ok).toBe(true);
      await driveUntil(clock, () => before.director.figures().hands > 0);
      expect((await before.director.proposeDeal(1, 'icm')).ok).toBe(true);
      await driveUntil(clock, () => before.director.deal()?.amounts != null);
      expect(before.director.deal()!.players).toHaveLength(3);
      clock.advance(20_000);
      const [answering, waiting] = before.director.deal()!.players.filter((a) => a !== 1) as [number, number];
      expect((await before.director.acceptDeal(answering)).ok).toBe(true);
      const deal = before.director.deal()!;
      const levelClock = before.director.clock()!;
      const checkpoint = first.saved.at(-1)!;
      expect(checkpoint.deal).toEqual({
        kind: 'icm',
        proposer: 1,
        players: deal.players,
        amounts: deal.amounts,
        accepted: [1, answering],
        remainingMs: deal.expiresAt! - clock.now(),
      });
      await crash(before);
      // Through the room's database, as a restart reads it.
      await storeCheckpoints(storage)(checkpoint);
      const stored = storedCheckpoint((await storage.tournamentsInPlay())[0]!);
      expect(stored).toEqual(checkpoint);

      // The room is down five minutes: none of it counts against the deal or the level.
      clock.advance(5 * 60_000);
      const after = botDeps({ clock, seed: 5 });
      const director = await TournamentDirector.resume(stored, after.deps);
      const reopened = director.deal()!;
      expect(reopened).toMatchObject({
        kind: 'icm',
        proposer: 1,
        players: deal.players,
        amounts: deal.amounts,
      });
      expect([...reopened.accepted]).toEqual([1, answering]);
      expect(reopened.expiresAt).toBe(clock.now() + checkpoint.deal!.remainingMs!);
      expect(director.clock()).toEqual(levelClock);
      // Still answered: the last player accepts, and each is paid his amount.
      expect((await director.acceptDeal(waiting)).ok).toBe(true);
      expect(director.phase).toBe('finished');
      const prizes = new Map(director.results().map((r) => [r.account, r.prize]));
      expect(deal.players.map((a) => prizes.get(a))).toEqual(deal.amounts);
      expect(after.errors).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('a deal proposed during the hand a crash cancelled is worked out when the table opens again, from the stacks of the checkpoint', async () => {
    const clock = manualClock();
    const first = recorder(() => false);
    const before = botTournament(holdemDefinition({ maxEntrants: 3 }), { clock, seed: 4, save: first.save });
    for (let i = 1; i <= 3; i++) expect((await before.director.register(botRef(i))).ok).toBe(true);
    await driveUntil(clock, () => before.director.figures().hands > 0);
    expect((await before.director.proposeDeal(2, 'chip-chop')).ok).toBe(true);
    const checkpoint = first.saved.at(-1)!;
    expect(checkpoint.deal).toMatchObject({ kind: 'chip-chop', proposer: 2, amounts: null, accepted: [2] });
    await crash(before);

    const after = botDeps({ clock, seed: 5 });
    const director = await TournamentDirector.resume(checkpoint, after.deps);
    const deal = director.deal()!;
    expect(deal.amounts).not.toBeNull();
    expect(deal.expiresAt).toBe(clock.now() + DEAL_MS);
    expect([...deal.accepted]).toEqual([2]);
    // Worked out from the stacks as the checkpoint holds them (the hand in play cancelled).
    const chips = new Map(checkpoint.entrants.map((e) => [e.ref.account, e.stack]));
    expect(director.standings().map((e) => e.stack)).toEqual(deal.players.map((a) => chips.get(a)));
    expect(after.errors).toEqual([]);
    await director.close();
  });
});
