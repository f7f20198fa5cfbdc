/**
 * A room that holds against hostile players (issue 23), tried as an attacker would: over real WebSocket
 * connections to a real server on a real SQLite file. Each test is one hole that was open:
 * another player's hidden cards seen from his seat, names that differ only in case, play money topped
 * up past its ceiling by parking chips at a table, and refusals that showed the ledger's internal keys.
 */
import type { CardView } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Push } from '../src/bots/client.js';
import type { ClockConfig, TableConfig } from '../src/table/types.js';
import { Player } from './integration-helpers.js';
import { startTestRoom, TestClient, uniqueName, type TestRoom } from './transport-client.js';

const CLOCKS: ClockConfig = {
  actionMs: 60_000,
  drawMs: 60_000,
  runTwiceMs: 60_000,
  timeBankMs: 0,
  timeBankRefillMs: 0,
  betweenHandsMs: 200,
};

const TABLES: TableConfig[] = [
  {
    id: 'nl-seat',
    name: 'nl-seat',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    seats: 6,
    clocks: CLOCKS,
  },
  {
    id: 'nl-park',
    name: 'nl-park',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    seats: 6,
    maxBuyIn: 1_000_000,
    clocks: CLOCKS,
  },
  {
    id: 'nl-real',
    name: 'nl-real',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 10, big: 20 },
    currency: 'real',
    seats: 6,
    clocks: CLOCKS,
  },
];

/** The accounts' default ceiling. */
const PLAY_MONEY_CEILING = 1_000_000;

let room: TestRoom;
const url = (): string => room.server.url.replace('localhost', '127.0.0.1');

beforeAll(async () => {
  room = await startTestRoom({ tables: TABLES, houseBots: { pollMs: 3_600_000 } });
});

afterAll(async () => {
  await room.close();
});

/** Every string leaf of a value (card texts only ever appear as whole strings). */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

const isCard = (text: string): boolean => /^[2-9TJQKA][cdhs]$/.test(text);

/** Polls `test` until it holds. */
async function until(test: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('hidden cards: a newcomer on a folded player’s seat sees nothing of his hand', () => {
  it('A folds and leaves mid-hand, N takes A’s seat at once: N’s snapshots, events and the hand’s summary never show A’s cards', async () => {
    const players = await Promise.all(['a', 'b', 'c'].map((p) => Player.signUp(url(), uniqueName(p))));
    const newcomer = await Player.signUp(url(), uniqueName('n'));
    const seenByNewcomer: Push[] = [];
    newcomer.client.onPush((message) => {
      seenByNewcomer.push(message);
    });
    for (const player of players) player.autoplay = false;
    await newcomer.client.ok('table-open', { tableId: 'nl-seat' });
    for (const [seat, player] of players.entries()) await player.sit('nl-seat', seat, 10_000);

    // The first to act is A: he looks at his cards, folds and leaves.
    await until(() => players.some((p) => p.legal !== null), 'somebody to act');
    const a = players.find((p) => p.legal !== null)!;
    const { handId } = a.legal!;
    const seatA = a.legal!.legal.seat;
    await until(
      () => a.view?.hand?.handId === handId || a.events.some((e) => e.handId === handId),
      'A dealt',
    );
    const cardsA = [
      ...new Set(
        [
          ...leaves(a.view?.hand?.handId === handId ? a.view.hand : null),
          ...leaves(
            a.events.filter(
              (e) => e.handId === handId && e.event.type === 'deal-hole' && e.event.seat === seatA,
            ),
          ),
        ].filter(isCard),
      ),
    ] as CardView[];
    expect(cardsA.length).toBe(2);
    await a.client.ok('act', { tableId: 'nl-seat', handId, action: { type: 'fold' } });
    await a.client.ok('seat-leave', { tableId: 'nl-seat' });
    await newcomer.sit('nl-seat', seatA, 10_000);

    // The other two check and call the hand out.
    const others = players.filter((p) => p !== a);
    for (const player of others) {
      player.autoplay = true;
      const waiting = player.legal;
      if (waiting !== null && waiting.handId === handId)
        void player.client.request('act', {
          tableId: 'nl-seat',
          handId,
          action: waiting.legal.check ? { type: 'check' } : { type: 'call' },
        });
    }
    await until(
      () => seenByNewcomer.some((m) => m.op === 'hand-summary' && m.summary.handId === handId),
      'the hand’s summary',
    );
    const asked = await newcomer.client.ok('hand-summary', { tableId: 'nl-seat' });
    const history = await newcomer.client.ok('history-list', {});

    const shown = leaves([seenByNewcomer, asked, history]);
    expect(seenByNewcomer.some((m) => m.op === 'table-snapshot')).toBe(true);
    for (const card of cardsA) expect(shown).not.toContain(card);
    // …while A himself, who was dealt them, still finds them in his own history of the hand.
    const own = await a.client.ok('history-fetch', { handId });
    for (const card of cardsA) expect(JSON.stringify(own)).toContain(card);
    for (const player of [...players, newcomer]) player.close();
  });
});

describe('names are unique regardless of case', () => {
  it('Victim and VICTIM cannot sign up beside victim; login by any case opens victim’s own account, named as he chose', async () => {
    const name = uniqueName('victim');
    const victim = await TestClient.connect(room);
    const created = await victim.ok('signup', { name, password: 'correct horse' });
    for (const impostor of [name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)]) {
      const attacker = await TestClient.connect(room);
      expect(await attacker.request('signup', { name: impostor, password: 'correct horse' })).toMatchObject({
        op: 'error',
        code: 'NAME_TAKEN',
      });
      const login = await attacker.ok('login', { name: impostor, password: 'correct horse' });
      expect(login.account).toEqual({ id: created.account.id, name });
      attacker.close();
    }
    victim.close();
  });
});

describe('the play-money ceiling counts the chips at tables', () => {
  it('top up to the ceiling, buy in, top up again: refused, and nothing changes', async () => {
    const client = await TestClient.connect(room);
    await client.ok('signup', { name: uniqueName('park'), password: 'correct horse' });
    const ceiling = PLAY_MONEY_CEILING;
    const start = (await client.ok('balances')).balances.play;
    await client.ok('top-up', { amount: ceiling - start });
    await client.ok('table-open', { tableId: 'nl-park' });
    await client.ok('seat-take', { tableId: 'nl-park', seat: 0, buyIn: 20_000 });
    const again = await client.request('top-up', { amount: 20_000 });
    expect(again).toMatchObject({ op: 'error', code: 'TOP_UP_LIMIT' });
    expect(await client.request('top-up', { amount: 1 })).toMatchObject({
      op: 'error',
      code: 'TOP_UP_LIMIT',
    });
    expect((await client.ok('balances')).balances.play).toBe(ceiling - 20_000);
    // Back from the table, he holds exactly the ceiling.
    expect((await client.ok('seat-leave', { tableId: 'nl-park' })).balances.play).toBe(ceiling);
    client.close();
  });
});

describe('players are refused in plain words, never with the ledger’s internal keys', () => {
  const internal = /user:|seat:|pot:|house:|cashier:|top-up:|would hold|\d{3,}/;

  it('a buy-in beyond the balance: INSUFFICIENT_FUNDS, "not enough money in your balance"', async () => {
    const client = await TestClient.connect(room);
    await client.ok('signup', { name: uniqueName('poor'), password: 'correct horse' });
    await client.ok('table-open', { tableId: 'nl-real' });
    const refused = await client.request('seat-take', { tableId: 'nl-real', seat: 1, buyIn: 1_000 });
    expect(refused).toMatchObject({ op: 'error', code: 'INSUFFICIENT_FUNDS' });
    const message = (refused as { message: string }).message;
    expect(message).toBe('not enough money in your balance');
    expect(message).not.toMatch(internal);
    client.close();
  });

  it('adding chips at the table beyond the balance: the same plain refusal', async () => {
    const client = await TestClient.connect(room);
    await client.ok('signup', { name: uniqueName('rebuy'), password: 'correct horse' });
    await client.ok('table-open', { tableId: 'nl-park' });
    const play = (await client.ok('balances')).balances.play;
    await client.ok('seat-take', { tableId: 'nl-park', seat: 2, buyIn: 20_000 });
    const refused = await client.request('rebuy', { tableId: 'nl-park', amount: play });
    expect(refused).toMatchObject({
      op: 'error',
      code: 'INSUFFICIENT_FUNDS',
      message: 'not enough money in your balance',
    });
    expect((refused as { message: string }).message).not.toMatch(internal);
    await client.ok('seat-leave', { tableId: 'nl-park' });
    client.close();
  });
});
