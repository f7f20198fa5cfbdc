/**
 * The final-table deal over a real WebSocket against a running room on a real SQLite file: proposed by
 * a player left, worked out once the table is between hands, seen by every player with each amount,
 * declined (play goes on) or accepted by all (the prizes paid from the pool in whole cents, places by
 * chips, the tournament over); every bad request a typed error that changes nothing. The controller's
 * timing rules (the deal lapses; the level clock stops while it is open) run on a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LegalView, ServerMessage, TournamentDealView, TournamentDetail } from '@felt/protocol';
import { manualClock } from '../src/table/index.js';
import { DEAL_MS } from '../src/tournament/deal.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { botRef, botTournament, driveUntil, holdemDefinition } from './tournament-helpers.js';
import { signedUp, startTestRoom, type TestClient, type TestRoom } from './transport-client.js';

const FAST = { betweenHandsMs: 1, actionMs: 5_000, timeBankMs: 0 } as const;
// Four entrants are paid two places (65 / 35 %): a deal shares both prizes among the four.
const SNG: TournamentEntry = {
  id: 'sng4',
  definition: holdemDefinition({ name: 'Four-handed', maxEntrants: 4, buyIn: 1000, fee: 100 }),
};
const POOL = 4 * 1000;

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

type Push<O extends ServerMessage['op']> = Extract<ServerMessage, { op: O }>;

/** Checks when it may, else folds: hands end at once and nobody goes out. */
function passive(client: TestClient): void {
  client.ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as ServerMessage;
    if (message.op === 'tournament-seat') void client.request('table-open', { tableId: message.tableId });
    else if (message.op === 'legal-actions') {
      const legal: LegalView = message.legal;
      const action = legal.check ? { type: 'check' } : { type: 'fold' };
      void client.request('act', { tableId: message.tableId, handId: message.handId, action });
    }
  });
}

async function errorCode(client: TestClient, op: Parameters<TestClient['request']>[0], fields: object) {
  const answer = await client.request(op, fields as Record<string, unknown>);
  return answer.op === 'error' ? answer.code : 'ack';
}

async function detail(client: TestClient, tournamentId: string): Promise<TournamentDetail> {
  return (await client.ok('tournament-get', { tournamentId })).tournament;
}

/** The open deal once its amounts are known (the final table has finished its hand). */
async function priced(client: TestClient, tournamentId: string): Promise<TournamentDealView> {
  for (let i = 0; i < 200; i++) {
    const deal = (await detail(client, tournamentId)).deal;
    if (deal !== null && deal.players.every((p) => p.amount !== null)) return deal;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the deal was never worked out');
}

describe('the final-table deal over the protocol', () => {
  it('a deal is proposed at the final table only: with two tables playing it is refused (NOT_FINAL_TABLE)', async () => {
    const t = botTournament(holdemDefinition({ maxEntrants: 12, seats: 6 }), { thinkMs: 50 });
    for (let i = 1; i <= 12; i++) expect((await t.director.register(botRef(i))).ok).toBe(true);
    expect(t.director.tables()).toHaveLength(2);
    const refused = await t.director.proposeDeal(1, 'icm');
    expect(refused.ok ? null : refused.error.code).toBe('NOT_FINAL_TABLE');
    expect(t.director.deal()).toBeNull();
    await t.director.close();
  });

  it('proposed, declined (play goes on), proposed again and accepted by all: prizes in cents adding up to the pool, places by chips, the tournament over', async () => {
    room = await startTestRoom({ tables: [], tournaments: [SNG], tournamentClocks: FAST });
    const players = await Promise.all([signedUp(room), signedUp(room), signedUp(room), signedUp(room)]);
    const [ann, bob, cal, dan] = players.map((p) => p.client) as [
      TestClient,
      TestClient,
      TestClient,
      TestClient,
    ];
    const { tournaments } = await ann.ok('tournament-list');
    const id = tournaments.find((t) => t.tournamentId.startsWith('sng4@'))!.tournamentId;
    const before = (await ann.ok('balances')).balances.play;

    // Before the start, nobody is playing.
    await ann.ok('tournament-register', { tournamentId: id });
    expect(await errorCode(ann, 'tournament-deal-propose', { tournamentId: id, kind: 'icm' })).toBe(
      'NOT_PLAYING',
    );
    const ends = players.map((p) =>
      p.client.next((m): m is Push<'tournament-end'> => m.op === 'tournament-end', 60_000),
    );
    for (const p of players) passive(p.client);
    for (const client of [bob, cal, dan]) await client.ok('tournament-register', { tournamentId: id });
    expect((await detail(ann, id)).state).toBe('running');

    const outsider = (await signedUp(room)).client;
    expect(await errorCode(outsider, 'tournament-deal-propose', { tournamentId: id, kind: 'icm' })).toBe(
      'NOT_REGISTERED',
    );
    expect(await errorCode(ann, 'tournament-deal-propose', { tournamentId: id, kind: 'halves' })).toBe(
      'BAD_MESSAGE',
    );
    expect(await errorCode(bob, 'tournament-deal-accept', { tournamentId: id })).toBe('NO_DEAL_OPEN');
    expect(await errorCode(bob, 'tournament-deal-decline', { tournamentId: id })).toBe('NO_DEAL_OPEN');
    expect((await detail(ann, id)).deal).toBeNull();

    // A chip chop, declined by one: it is off and play goes on.
    const proposed = await ann.ok('tournament-deal-propose', { tournamentId: id, kind: 'chip-chop' });
    expect(proposed.deal).toMatchObject({ kind: 'chip-chop', proposer: players[0].id });
    expect(await errorCode(bob, 'tournament-deal-propose', { tournamentId: id, kind: 'icm' })).toBe(
      'DEAL_OPEN',
    );
    const chop = await priced(ann, id);
    expect(chop.players.map((p) => p.account).sort()).toEqual(players.map((p) => p.id).sort());
    expect(chop.players.reduce((sum, p) => sum + p.amount!, 0)).toBe(POOL);
    expect(chop.players.find((p) => p.account === players[0].id)?.accepted).toBe(true);
    expect(chop.expiresAt).not.toBeNull();
    // Nothing is dealt while it is open.
    const held = await detail(ann, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await detail(ann, id)).players).toEqual(held.players);
    await bob.ok('tournament-deal-accept', { tournamentId: id });
    expect((await detail(ann, id)).deal?.players.find((p) => p.account === players[1].id)?.accepted).toBe(
      true,
    );
    await cal.ok('tournament-deal-decline', { tournamentId: id });
    expect((await detail(ann, id)).deal).toBeNull();
    expect(await errorCode(dan, 'tournament-deal-accept', { tournamentId: id })).toBe('NO_DEAL_OPEN');
    const handsBefore = held.players.map((p) => p.chips).join();
    await expect
      .poll(async () => (await detail(ann, id)).players.map((p) => p.chips).join(), { timeout: 10_000 })
      .not.toBe(handsBefore);

    // An ICM deal, accepted by all: the prizes are paid and the tournament is over.
    await dan.ok('tournament-deal-propose', { tournamentId: id, kind: 'icm' });
    const icm = await priced(ann, id);
    expect(icm.players.reduce((sum, p) => sum + p.amount!, 0)).toBe(POOL);
    for (const p of icm.players) expect(Number.isSafeInteger(p.amount)).toBe(true);
    for (const client of [ann, bob]) await client.ok('tournament-deal-accept', { tournamentId: id });
    expect((await detail(ann, id)).state).toBe('running');
    await cal.ok('tournament-deal-accept', { tournamentId: id });

    const ended = await Promise.all(ends);
    expect(ended.every((e) => e.state === 'finished')).toBe(true);
    const over = await detail(ann, id);
    expect(over.state).toBe('finished');
    expect(over.deal).toBeNull();
    expect(over.results.reduce((sum, r) => sum + r.prize, 0)).toBe(POOL);
    // Places by chips as they stood: the biggest stack first.
    const chipsOf = new Map(icm.players.map((p) => [p.account, p.chips]));
    const byPlace = [...over.results].sort((a, b) => a.place - b.place);
    for (let i = 1; i < byPlace.length; i++)
      expect(chipsOf.get(byPlace[i - 1]!.account)!).toBeGreaterThanOrEqual(chipsOf.get(byPlace[i]!.account)!);
    for (const [i, p] of players.entries()) {
      const amount = icm.players.find((x) => x.account === p.id)!.amount!;
      expect(over.results.find((r) => r.account === p.id)?.prize).toBe(amount);
      expect((await p.client.ok('balances')).balances.play, `player ${i}`).toBe(before - 1100 + amount);
    }
    expect(await errorCode(ann, 'tournament-deal-propose', { tournamentId: id, kind: 'icm' })).toBe(
      'NOT_PLAYING',
    );
    for (const p of players) p.client.close();
    outsider.close();
  }, 60_000);
});

describe('the final-table deal in the controller, on a manual clock', () => {
  /** Three bots at one table, a deal proposed by the first as the first hand is dealt, driven until worked out. */
  async function pricedDeal(levelLength: { unit: 'hands' | 'minutes'; value: number }) {
    const clock = manualClock();
    const t = botTournament(holdemDefinition({ maxEntrants: 3, levelLength }), { clock, seed: 4 });
    for (let i = 1; i <= 3; i++) expect((await t.director.register(botRef(i))).ok).toBe(true);
    await driveUntil(clock, () => t.director.figures().hands > 0);
    expect((await t.director.proposeDeal(1, 'chip-chop')).ok).toBe(true);
    expect(t.director.deal()?.amounts).toBeNull();
    return { clock, t };
  }

  it('a deal unanswered for DEAL_MS after its amounts are known lapses, and play goes on', async () => {
    const { clock, t } = await pricedDeal({ unit: 'hands', value: 3 });
    await driveUntil(clock, () => t.director.deal()?.amounts != null);
    const deal = t.director.deal()!;
    expect(deal.expiresAt).toBe(clock.now() + DEAL_MS);
    expect([...deal.accepted]).toEqual([1]);
    const hands = t.director.figures().hands;

    // A moment before its time it is still open, and no hand has been dealt.
    clock.advance(DEAL_MS - 1);
    await driveUntil(clock, () => true);
    expect(t.director.deal()).toBe(deal);
    expect(t.director.figures().hands).toBe(hands);
    // At its time it lapses, and the table deals again.
    clock.advance(1);
    await driveUntil(clock, () => true);
    expect(t.director.deal()).toBeNull();
    await driveUntil(clock, () => t.director.figures().hands > hands, { limitMs: 60_000 });
    expect(t.director.phase).toBe('running');
    // A player may propose again once it is off.
    expect((await t.director.proposeDeal(2, 'icm')).ok).toBe(true);
    expect(t.errors).toEqual([]);
    await t.director.close();
  });

  it('the level clock stops while a deal is open: the level has the time it had when the deal was proposed once it is off, and the view says it is stopped', async () => {
    const { clock, t } = await pricedDeal({ unit: 'minutes', value: 10 });
    const proposedAt = t.director.clock()!;
    expect(proposedAt).toMatchObject({ phase: 'level', paused: true });
    const level = t.director.level();
    // The hand in play finishes, the amounts are worked out, and the players talk it over.
    await driveUntil(clock, () => t.director.deal()?.amounts != null);
    clock.advance(DEAL_MS / 2);
    await driveUntil(clock, () => true);
    expect(t.director.clock()).toEqual(proposedAt);
    // Declined: the time runs again from where it stood.
    expect((await t.director.declineDeal(2)).ok).toBe(true);
    expect(t.director.clock()).toEqual({ ...proposedAt, paused: false });
    clock.advance(1000);
    expect(t.director.clock()?.remainingMs).toBe(proposedAt.remainingMs! - 1000);
    expect(t.director.level()).toBe(level);
    expect(t.errors).toEqual([]);
    await t.director.close();
  });

  it('a deal proposed during a break stops the break’s time too: once the deal is off, the break lasts what it had left, then the next level is dealt', async () => {
    const clock = manualClock();
    const def = holdemDefinition({
      maxEntrants: 3,
      startingChips: 10_000,
      levelLength: { unit: 'minutes', value: 1 },
      breaks: { everyLevels: 1, minutes: 5 },
    });
    // Bots thinking three seconds (of the manual clock): the first level deals a few hands only.
    const t = botTournament(def, { clock, seed: 4, thinkMs: 3000 });
    for (let i = 1; i <= 3; i++) expect((await t.director.register(botRef(i))).ok).toBe(true);
    await driveUntil(clock, () => t.director.clock()?.phase === 'break');
    clock.advance(60_000);
    const [proposer, other] = t.director
      .standings()
      .filter((e) => !e.out)
      .map((e) => e.ref.account) as [number, number];
    // Every table is between hands: the deal is worked out at once, and the break's time stops.
    expect((await t.director.proposeDeal(proposer, 'icm')).ok).toBe(true);
    expect(t.director.deal()?.amounts).not.toBeNull();
    const held = t.director.clock()!;
    expect(held).toMatchObject({ phase: 'break', remainingMs: 4 * 60_000, paused: true });
    clock.advance(DEAL_MS / 2);
    await driveUntil(clock, () => true);
    expect(t.director.clock()).toEqual(held);

    expect((await t.director.declineDeal(other)).ok).toBe(true);
    const hands = t.director.figures().hands;
    clock.advance(held.remainingMs! - 1);
    await driveUntil(clock, () => true);
    expect(t.director.clock()).toMatchObject({ phase: 'break', remainingMs: 1, paused: false });
    expect(t.director.figures().hands).toBe(hands);
    clock.advance(1);
    await driveUntil(clock, () => t.director.figures().hands > hands, { limitMs: 60_000 });
    expect(t.director.level()).toBe(1);
    expect(t.errors).toEqual([]);
    await t.director.close();
  });
});
