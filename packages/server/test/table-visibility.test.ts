/**
 * One visibility rule on every path: what a viewer sees of a hand's down cards follows the ACCOUNT
 * they were dealt to, never the seat. A folds and leaves, N takes his seat at once: the live snapshot,
 * the events, the pushed and the asked-for summary and the stored per-account history all agree that
 * A's cards are A's alone.
 */
import { describe, expect, it } from 'vitest';
import type { TableMessage } from '../src/table/index.js';
import { actor, disconnect, harness, sitAll, tick, type Harness } from './table-helpers.js';

/** Every string leaf of a value (card texts only ever appear as whole strings). */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

const seesAll = (texts: readonly string[], cards: readonly string[]): boolean =>
  cards.every((card) => texts.includes(card));
const seesAny = (texts: readonly string[], cards: readonly string[]): boolean =>
  cards.some((card) => texts.includes(card));

describe('visibility follows the account dealt the cards', () => {
  it('a player folds and leaves, a newcomer takes his seat at once: every path shows A’s cards to A alone', async () => {
    const h: Harness = harness({ game: 'holdem', structure: 'no-limit' }, { players: 4, seed: 5 });
    const [, , , newcomer] = h.players;
    // three play; the fourth is an account watching the table until he sits
    await sitAll({ ...h, players: h.players.slice(0, 3) }, 200);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    const a = actor(h)!;
    const seatA = h.table.view(a.account).you!;
    const cardsA = h.table.view(a.account).hand!.players.find((p) => p.seat === seatA)!.cards;
    expect(cardsA.every((c) => c !== '??')).toBe(true);
    expect((await h.table.handle(a, { type: 'act', action: { type: 'fold' } })).ok).toBe(true);
    expect((await h.table.handle(a, { type: 'leave' })).ok).toBe(true);
    expect((await h.table.handle(newcomer!, { type: 'sit', seat: seatA, buyIn: 200 })).ok).toBe(true);
    const others = h.players.slice(0, 3).filter((p) => p.account !== a.account);

    // the live snapshot, while the hand runs
    const live = (viewer: number | null) => leaves(h.table.view(viewer).hand);
    expect(seesAll(live(a.account), cardsA)).toBe(true);
    for (const viewer of [newcomer!.account, ...others.map((p) => p.account), null])
      expect(seesAny(live(viewer), cardsA)).toBe(false);

    // play the hand out (checks and calls: the others show down)
    for (let i = 0; i < 50 && h.table.view(null).hand?.handId === handId; i++) {
      const who = actor(h)!;
      const legal = h.table.view(who.account).hand!.legal!;
      await h.table.handle(who, { type: 'act', action: legal.check ? { type: 'check' } : { type: 'call' } });
    }
    expect(h.table.view(null).hand?.handId).not.toBe(handId);

    const messages = (viewer: number | 'spectator'): TableMessage[] => h.inbox.get(viewer)!;
    const events = (viewer: number | 'spectator') =>
      leaves(messages(viewer).filter((m) => m.type === 'table-event' && m.handId === handId));
    const pushed = (viewer: number | 'spectator') =>
      leaves(messages(viewer).filter((m) => m.type === 'hand-summary' && m.summary.handId === handId));
    const asked = async (viewer: number | null) => leaves(await h.table.lastSummary(viewer));
    const stored = h.storage.settled.get(handId)!.history;
    const history = (viewer: number) => stored.views.find((v) => v.userId === viewer)?.phh ?? null;

    // A: his own cards on every path (the hand was his)
    expect(seesAll(events(a.account), cardsA)).toBe(true);
    expect(seesAll(pushed(a.account), cardsA)).toBe(true);
    expect(seesAll(await asked(a.account), cardsA)).toBe(true);
    expect(history(a.account)).toContain(cardsA.join(''));
    expect(stored.phh).toContain(cardsA.join(''));

    // the newcomer on the same seat, the others in the hand, a spectator: never on any path
    for (const viewer of [newcomer!.account, ...others.map((p) => p.account)]) {
      expect(seesAny(events(viewer), cardsA)).toBe(false);
      expect(seesAny(pushed(viewer), cardsA)).toBe(false);
      expect(seesAny(await asked(viewer), cardsA)).toBe(false);
      const phh = history(viewer);
      if (phh !== null) expect(phh).not.toContain(cardsA.join(''));
    }
    expect(history(newcomer!.account)).toBeNull();
    expect(seesAny(events('spectator'), cardsA)).toBe(false);
    expect(seesAny(pushed('spectator'), cardsA)).toBe(false);
    expect(seesAny(await asked(null), cardsA)).toBe(false);
    expect(h.errors).toEqual([]);
  });
});

describe('who sits and who watches (house bots)', () => {
  it('a bot’s seat is marked as one; the audience counts distinct accounts and anonymous watchers', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 2 });
    const bot = { account: 50, name: 'house', bot: true };
    h.storage.balances.set(bot.account, 10_000);
    expect((await h.table.handle(bot, { type: 'sit', seat: 4, buyIn: 200 })).ok).toBe(true);
    expect((await h.table.handle(h.players[0]!, { type: 'sit', seat: 0, buyIn: 200 })).ok).toBe(true);
    const seats = h.table.view(null).seats;
    expect(seats[4]).toMatchObject({ account: 50, bot: true });
    expect(seats[0]).toMatchObject({ account: 1, bot: false });
    h.table.subscribe(1, () => undefined); // a second tab: still one account
    expect(h.table.audience()).toEqual({ accounts: [1, 2], anonymous: 1 });
    disconnect(h, 2);
    expect(h.table.audience()).toEqual({ accounts: [1], anonymous: 1 });
  });
});
