/**
 * The room's seat and clock rules end to end: the real `felt serve` on a real SQLite file, players as
 * real WebSocket clients — a new player (waiting for the big blind, or posting one), missed blinds
 * after sitting out, blinds asked for when auto-post is off, disconnection and reconnection into the same hand, the time-out, and the
 * artificial all-in of a disconnected player at a real-money limit table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClockConfig, TableConfig } from '../src/table/types.js';
import { audit, felt, FeltServer, handsDealt, Player, tempDir, writeTables } from './integration-helpers.js';
import { nlHoldem } from './table-configs.js';

const CLOCKS: ClockConfig = {
  actionMs: 2500,
  drawMs: 2500,
  runTwiceMs: 2500,
  timeBankMs: 500,
  timeBankRefillMs: 0,
  betweenHandsMs: 200,
};

const nl = (id: string): TableConfig => nlHoldem(id, { clocks: CLOCKS });

const TABLES: TableConfig[] = [
  nl('nl-new'),
  nl('nl-missed'),
  nl('nl-disc'),
  nl('nl-timeout'),
  nl('nl-ask'),
  // A second between hands: time to ask for the summary before the next hand ends.
  { ...nl('nl-muck'), clocks: { ...CLOCKS, betweenHandsMs: 1000 } },
  {
    id: 'fl-real',
    name: 'Limit real',
    game: 'holdem',
    structure: 'fixed-limit',
    stakes: { small: 25, big: 50 },
    currency: 'real',
    seats: 6,
    clocks: CLOCKS,
  },
];

let counter = 0;
const fresh = (prefix: string): string => `${prefix}${process.pid % 10000}n${++counter}`;

describe('felt serve: seats, blinds, clocks and disconnections over real sockets', () => {
  const data = tempDir('felt-integration-seats-');
  let server: FeltServer;
  const players: Player[] = [];
  const join = async (prefix: string): Promise<Player> => {
    const player = await Player.signUp(server.url, fresh(prefix));
    players.push(player);
    return player;
  };

  beforeAll(async () => {
    writeTables(data.dir, TABLES);
    server = await FeltServer.start(data.dir, 0);
  });
  afterAll(async () => {
    for (const player of players) player.close();
    await server.stop();
    const report = await audit(data.dir);
    data.remove();
    expect(report.conserved).toBe(true);
  });

  it('new player: one waits for the big blind and plays it, one posts a live big blind at once', async () => {
    const [a, b, c, d] = [await join('na'), await join('nb'), await join('nc'), await join('nd')];
    await a.sit('nl-new', 0, 10_000);
    await b.sit('nl-new', 1, 10_000);
    await a.event((e) => e.type === 'deal-hole');
    await c.sit('nl-new', 3, 10_000, 'wait');
    expect(c.view?.seats[3]?.status).toBe('waiting');
    await d.sit('nl-new', 4, 10_000, 'post');
    for (const [player, seat] of [
      [c, 3],
      [d, 4],
    ] as const) {
      await player.event((e) => e.type === 'deal-hole' && e.seat === seat, 30_000);
      const first = handsDealt(player.events, seat)[0]!;
      const posts = player.events.filter(
        (p) => p.handId === first && p.event.type === 'post' && p.event.seat === seat,
      );
      // His first hand: a big blind (100 = the table's big blind), live.
      expect(posts.map((p) => p.event)).toEqual([expect.objectContaining({ kind: 'blind', amount: 100 })]);
    }
  });

  it('auto-post off: he is asked for each blind; he posts one, declines the next and is sat out', async () => {
    const [a, b] = [await join('aa'), await join('ab')];
    await a.sit('nl-ask', 0, 10_000);
    await b.sit('nl-ask', 1, 10_000, 'wait', false);
    // Heads-up, a fresh table: a has the button and the small blind, b the big blind — asked first.
    const asked = await a.until((view) => view.blindRequest !== null);
    expect(asked.blindRequest).toMatchObject({ seat: 1, blind: 100, dead: 0 });
    expect(asked.hand).toBeNull();
    expect(await a.client.request('post-blind', { tableId: 'nl-ask', post: true })).toMatchObject({
      ok: false,
      code: 'WRONG_STATE',
    });
    await b.client.ok('post-blind', { tableId: 'nl-ask', post: true });
    const first = await b.event((e) => e.type === 'post' && e.seat === 1);
    expect(first.event).toMatchObject({ kind: 'blind', amount: 100 });
    // The next hand he owes the small blind: asked again; he declines and is sat out, no hand without him.
    await b.until((view) => view.blindRequest?.seat === 1 && view.hand === null, 30_000);
    await b.client.ok('post-blind', { tableId: 'nl-ask', post: false });
    const after = await a.until((view) => view.seats[1]?.status === 'sitting-out');
    expect(after.blindRequest).toBeNull();
    expect(after.hand).toBeNull();
  });

  it('sit-out: not dealt in, missed blinds marked; coming back he posts them (the small one dead)', async () => {
    const [a, b, c] = [await join('ma'), await join('mb'), await join('mc')];
    await a.sit('nl-missed', 0, 10_000);
    await b.sit('nl-missed', 1, 10_000);
    await c.sit('nl-missed', 2, 10_000, 'post');
    await c.event((e) => e.type === 'deal-hole' && e.seat === 2, 30_000);
    await c.client.ok('sit-out', { tableId: 'nl-missed' });
    const outAt = a.events.length;
    const marked = await a.until((view) => {
      const seat = view.seats[2];
      return seat?.status === 'sitting-out' && (seat.missed.big || seat.missed.small);
    }, 30_000);
    expect(marked.seats[2]!.paid).toBe(true);
    // Hands dealt while he sat out did not include him.
    const started = new Set(
      a.events
        .slice(outAt)
        .filter((p) => p.event.type === 'deal-hole')
        .map((p) => p.handId),
    );
    const cHands = new Set(handsDealt(c.events, 2));
    const before = handsDealt(c.events, 2).length;
    const lastWithC = Math.max(...cHands);
    for (const hand of started) if (hand > lastWithC) expect(cHands.has(hand)).toBe(false);
    const owed = c.view!.seats[2]!.missed;
    await c.client.ok('missed-blinds', { tableId: 'nl-missed', choice: 'post' });
    await c.until((view) => view.seats[2]?.status !== 'sitting-out');
    const deadline = Date.now() + 30_000;
    while (handsDealt(c.events, 2).length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const back = handsDealt(c.events, 2)[before]!;
    expect(back).toBeGreaterThan(lastWithC);
    const posts = c.events
      .filter((p) => p.handId === back && p.event.type === 'post' && p.event.seat === 2)
      .map((p) => p.event);
    // A live big blind — his own, or in the big blind's place, which clears every mark — and the small
    // one dead when he owes it and is not the big blind.
    expect(posts).toContainEqual(expect.objectContaining({ kind: 'blind', amount: 100 }));
    for (const post of posts) expect([100, 50]).toContain(post.type === 'post' ? post.amount : 0);
    const inBigBlindsPlace = !c.events.some(
      (p) =>
        p.handId === back &&
        p.event.type === 'post' &&
        p.event.kind === 'blind' &&
        p.event.amount === 100 &&
        p.event.seat !== 2,
    );
    if (owed.small && !inBigBlindsPlace)
      expect(posts).toContainEqual(expect.objectContaining({ kind: 'dead-blind', amount: 50 }));
    expect(c.view?.seats[2]?.missed).toEqual({ small: false, big: false });
  });

  it('muck losing hands: a beaten hand is mucked unseen, his option is public, and a player dealt in may ask for the summary with it', async () => {
    const [a, b] = [await join('ka'), await join('kb')];
    await a.sit('nl-muck', 0, 10_000);
    await b.sit('nl-muck', 1, 10_000);
    await b.client.ok('muck-losing', { tableId: 'nl-muck', enabled: false });
    await a.until((view) => view.seats[1]?.muckLosing === false && view.seats[0]?.muckLosing === true);
    const muck = await a.event((e) => e.type === 'muck', 60_000);
    b.autoplay = false; // the next hand waits for him: the summary stays this hand's
    expect(muck.event).toEqual({ type: 'muck', seat: 0 });
    const cards = a.events
      .filter((p) => p.handId === muck.handId && p.event.type === 'deal-hole' && p.event.seat === 0)
      .flatMap((p) => (p.event.type === 'deal-hole' ? p.event.cards : []));
    expect(cards).toHaveLength(2);
    const seenByB = JSON.stringify(b.events.filter((p) => p.handId === muck.handId));
    for (const card of cards) expect(seenByB).not.toContain(`"${card}"`);
    const { summary } = await b.client.ok('hand-summary', { tableId: 'nl-muck' });
    expect(summary?.handId).toBe(muck.handId);
    expect(summary?.players.find((p) => p.seat === 0)).toMatchObject({ mucked: true, showed: false, cards });
    // The stored history: each player's own cards, never the mucked hand of the other.
    await b.event((e, p) => e.type === 'end' && p.handId === muck.handId);
    const { hands } = await b.client.ok('history-list', {});
    expect(hands.map((h) => h.handId)).toContain(muck.handId);
    const own = await a.client.ok('history-fetch', { handId: muck.handId });
    const other = await b.client.ok('history-fetch', { handId: muck.handId });
    expect(own.hand.text).toMatch(/^Felt Hand #\d+: /);
    expect(own.hand.text).toContain(`[${cards.join(' ')}]`);
    // The fair-dealing hashes (64 hex digits) may hold a card's two characters by chance ("…bb6ca…").
    const otherCards = (other.hand.phh + other.hand.text).replace(/[0-9a-f]{64}/g, '');
    for (const card of cards) expect(otherCards).not.toContain(card);
  });

  it('disconnect and reconnect: the seat is kept and he resumes the same hand with his cards and his turn', async () => {
    const [a, b] = [await join('da'), await join('db')];
    a.autoplay = false;
    await a.sit('nl-disc', 0, 10_000);
    await b.sit('nl-disc', 1, 10_000);
    await a.until(() => a.legal !== null);
    const handId = a.legal!.handId;
    const cards = a.view?.hand?.players.find((p) => p.seat === 0)?.cards ?? [];
    a.disconnect();
    await b.until((view) => view.seats[0]?.connected === false);
    expect(b.view?.seats[0]?.account).toBe(a.id);
    a.legal = null;
    a.view = null;
    const tables = await a.reconnect(server.url);
    expect(tables).toEqual(['nl-disc']);
    const view = await a.until((v) => v.you === 0 && v.hand?.handId === handId);
    const mine = view.hand!.players.find((p) => p.seat === 0)!;
    expect(mine.cards).toHaveLength(2);
    for (const card of mine.cards) expect(card).toMatch(/^[2-9TJQKA][cdhs]$/);
    if (cards.length === 2) expect(mine.cards).toEqual(cards);
    await a.until(() => a.legal?.handId === handId);
    const legal = a.legal!.legal;
    const answer = await a.client.request('act', {
      tableId: 'nl-disc',
      handId,
      action: legal.check ? { type: 'check' } : { type: 'call' },
    });
    expect(answer.ok).toBe(true);
    await b.until((v) => v.seats[0]?.connected === true);
  });

  it('time-out: the action clock, then the time bank, then check if free else fold', async () => {
    const [a, b] = [await join('ta'), await join('tb')];
    a.autoplay = false;
    await a.sit('nl-timeout', 0, 10_000);
    await b.sit('nl-timeout', 1, 10_000);
    await a.until(() => a.legal !== null);
    const asked = Date.now();
    const free = a.legal!.legal.check;
    const timeout = await b.event((e) => e.type === 'timeout' && e.seat === 0, 15_000);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(CLOCKS.actionMs + CLOCKS.timeBankMs - 200);
    expect(timeout.event).toEqual({ type: 'timeout', seat: 0, result: free ? 'check' : 'fold' });
  });

  it('artificial all-in: a disconnected player at a real-money limit table is all-in when his clock runs out', async () => {
    const [x, y] = [await join('xa'), await join('ya')];
    for (const player of [x, y]) {
      const credit = await felt([
        'admin',
        'credit',
        '--user',
        player.name,
        '--amount',
        '10000',
        '--data',
        data.dir,
      ]);
      expect(credit.status, credit.stdout).toBe(0);
    }
    x.autoplay = false;
    await x.sit('fl-real', 0, 300);
    await y.sit('fl-real', 1, 300);
    await x.until(() => x.legal !== null);
    const handId = x.legal!.handId;
    x.disconnect();
    const timeout = await y.event(
      (e, p) => e.type === 'timeout' && e.seat === 0 && p.handId === handId,
      15_000,
    );
    expect(timeout.event).toEqual({ type: 'timeout', seat: 0, result: 'artificial-all-in' });
    // The hand goes on without him and is settled; he is in the pots he matched.
    await y.event((e, p) => e.type === 'end' && p.handId === handId, 15_000);
    const report = await audit(data.dir);
    expect(report.conserved).toBe(true);
  });
});
