import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from '../src/components/App';
import { StoreContext } from '../src/hooks';
import { Store, type StorageLike } from '../src/state/store';
import { FakeNetwork, flush } from './fake-socket';
import { holdemView } from './fixtures';

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const lobbyRow = {
  tableId: 'nl-holdem-1',
  name: 'Aldebaran',
  game: 'holdem',
  structure: 'no-limit',
  currency: 'play',
  stakes: { small: 2, big: 2 },
  stakesText: '1/2',
  seats: 6,
  taken: 2,
  free: 4,
  waiting: 0,
  minBuyIn: 40,
  maxBuyIn: 200,
  averagePot: 37,
  handsPerHour: 61,
};

const render = (store: Store): string =>
  renderToStaticMarkup(createElement(StoreContext, { value: store }, createElement(App)));

async function signedIn() {
  const network = new FakeNetwork();
  const storage = new MemoryStorage();
  const store = new Store({ url: 'ws://room/ws', socket: network.factory, storage });
  const socket = network.last;
  socket.open();
  const signUp = store.signUp('alice', 'correct horse');
  expect(socket.sent[0]).toMatchObject({ op: 'signup', name: 'alice', password: 'correct horse' });
  socket.ack('signup', {
    token: 'tok_abcdefghijklmnop',
    account: { id: 1, name: 'alice' },
    balances: { play: 100_000, real: 0 },
  });
  await flush();
  socket.ack('lobby-subscribe', { tables: [lobbyRow] });
  await signUp;
  return { network, storage, store, socket };
}

describe('Store and screens against a fake socket', () => {
  it('signs up, keeps the token, lists the lobby with its columns', async () => {
    const { store, storage } = await signedIn();
    expect(storage.getItem('felt.token')).toBe('tok_abcdefghijklmnop');
    expect(store.getState().session?.balances.play).toBe(100_000);
    const html = render(store);
    expect(html).toContain('Aldebaran');
    expect(html).toContain('Texas Hold&#x27;em');
    expect(html).toContain('No limit');
    expect(html).toContain('2/6');
    expect(html).toContain('0.37');
    expect(html).toContain('61');
    expect(html).toContain('1,000');
  });

  it('opens a table and draws what the viewer may see: his cards up, the others face down', async () => {
    const { store, socket } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', { seat: 0 });
    await opening;
    socket.receive({ op: 'table-snapshot', tableId: 'nl-holdem-1', view: holdemView({ actor: 0 }) });
    socket.receive({
      op: 'legal-actions',
      tableId: 'nl-holdem-1',
      handId: 7,
      legal: {
        seat: 0,
        fold: true,
        check: false,
        call: 1,
        bringIn: null,
        raise: { min: 4, max: 200 },
        raiseTos: null,
        discard: null,
        split: false,
      },
    });
    socket.receive({
      op: 'clock',
      tableId: 'nl-holdem-1',
      handId: 7,
      seat: 0,
      deadline: Date.now() + 15_000,
      timeBankMs: 30_000,
    });
    const html = render(store);
    expect(html).toContain('aria-label="Ace of spades"');
    expect(html).toContain('aria-label="King of diamonds"');
    expect((html.match(/aria-label="face-down card"/g) ?? []).length).toBe(2);
    expect(html).toContain('Call 0.01');
    expect(html).toContain('Raise to 0.04');
    expect(html).toContain('Pot');
    expect(html).toContain('All in');
    expect(html).toContain('role="progressbar"');

    const acting = store.act('nl-holdem-1', { type: 'raise', to: 10 });
    expect(socket.sent.at(-1)).toMatchObject({
      op: 'act',
      tableId: 'nl-holdem-1',
      action: { type: 'raise', to: 10 },
    });
    expect(store.getState().tables['nl-holdem-1']!.legal).toBeNull();
    socket.ack('act');
    await expect(acting).resolves.toBe(true);
  });

  it('a refused request becomes a toast and changes nothing', async () => {
    const { store, socket } = await signedIn();
    const topUp = store.topUp(10_000_000);
    socket.refuse('top-up', 'TOP_UP_LIMIT', 'play money tops up to 1,000 at most');
    await topUp;
    expect(store.getState().toast).toBe('play money tops up to 1,000 at most');
    expect(store.getState().session?.balances.play).toBe(100_000);
    expect(render(store)).toContain('role="alert"');
  });

  it('after a dropped connection: notice, then resume with the token and re-open the tables', async () => {
    const { store, network } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    network.last.ack('table-open', { seat: 0 });
    await opening;
    network.last.close();
    expect(store.getState().status).toBe('reconnecting');
    expect(render(store)).toContain('reconnecting');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const socket = network.last;
    expect(network.sockets).toHaveLength(2);
    socket.open();
    expect(socket.sent[0]).toMatchObject({ op: 'resume', token: 'tok_abcdefghijklmnop' });
    socket.ack('resume', {
      account: { id: 1, name: 'alice' },
      balances: { play: 99_000, real: 0 },
      tables: ['nl-holdem-1'],
    });
    await flush();
    expect(socket.sent.map((frame) => frame['op'])).toContain('table-open');
    expect(store.getState().status).toBe('open');
    expect(render(store)).not.toContain('reconnecting');
    store.close();
  });
});
