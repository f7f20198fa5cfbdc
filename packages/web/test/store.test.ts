import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from '../src/components/App';
import { StoreContext } from '../src/hooks';
import { CONSOLE_SCREEN, Store, type SessionHttp, type StorageLike } from '../src/state/store';
import { FakeNetwork, flush } from './fake-socket';
import TournamentBar from '../src/components/tournament/TournamentBar';
import TournamentLobby from '../src/components/tournament/TournamentLobby';
import { TOURNAMENT_LOBBY_SCREEN } from '../src/tournament';
import { holdemView, TOURNAMENT_RUN, tournamentDetail } from './fixtures';

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
  paused: false,
};

const render = (store: Store): string =>
  renderToStaticMarkup(createElement(StoreContext, { value: store }, createElement(App)));

const renderIn = <P extends object>(store: Store, component: FunctionComponent<P>, props: P): string =>
  renderToStaticMarkup(createElement(StoreContext, { value: store }, createElement(component, props)));

const alice = { account: { id: 1, name: 'alice' }, balances: { play: 100_000, real: 0 } };

/** The room's session endpoints, answering from a list of (path → status, body). */
class FakeHttp {
  readonly posted: { path: string; body: unknown }[] = [];
  readonly answers = new Map<string, { status: number; body: unknown }>([
    ['/api/signup', { status: 200, body: alice }],
    ['/api/login', { status: 200, body: alice }],
    ['/api/logout', { status: 200, body: {} }],
  ]);
  readonly post: SessionHttp = (path, body) => {
    this.posted.push({ path, body });
    return Promise.resolve(this.answers.get(path) ?? { status: 404, body: null });
  };
}

async function signedIn() {
  const network = new FakeNetwork();
  const storage = new MemoryStorage();
  const http = new FakeHttp();
  const store = new Store({ urls: ['ws://room/ws'], socket: network.factory, http: http.post, storage });
  const first = network.last;
  first.open();
  // A page without a session: the first socket's resume is refused.
  first.refuse('resume', 'BAD_TOKEN', 'no session: sign in');
  await flush();
  await store.signUp('alice', 'correct horse');
  expect(http.posted).toEqual([{ path: '/api/signup', body: { name: 'alice', password: 'correct horse' } }]);
  // Signed in over HTTP: a fresh socket carries the cookie and resumes the session.
  expect(network.sockets).toHaveLength(2);
  const socket = network.last;
  socket.open();
  expect(socket.sent[0]).toEqual({ op: 'resume', id: expect.any(Number) as number });
  socket.ack('resume', { ...alice, tables: [] });
  await flush();
  socket.ack('lobby-subscribe', { tables: [lobbyRow] });
  await flush();
  return { network, storage, store, socket, http };
}

describe('Store and screens against a fake socket', () => {
  it('signs up over HTTP (no token anywhere in the page or its storage), lists the lobby with its columns', async () => {
    const { store, storage } = await signedIn();
    expect([...storage.items.values()].join()).not.toMatch(/tok/);
    expect(JSON.stringify(store.getState())).not.toMatch(/token/);
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
    socket.receive({
      op: 'table-snapshot',
      tableId: 'nl-holdem-1',
      seq: 3,
      view: holdemView({ actor: 0 }),
    });
    // The clock is stream message 4; the legal actions go with it.
    socket.receive({
      op: 'clock',
      tableId: 'nl-holdem-1',
      seq: 4,
      handId: 7,
      seat: 0,
      deadline: Date.now() + 15_000,
      timeBankMs: 30_000,
    });
    socket.receive({
      op: 'legal-actions',
      tableId: 'nl-holdem-1',
      seq: 4,
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
    const html = render(store);
    expect(html).toContain('aria-label="Ace of spades"');
    expect(html).toContain('aria-label="King of diamonds"');
    expect((html.match(/aria-label="face-down card"/g) ?? []).length).toBe(2);
    expect(html).toContain('Call 0.01');
    expect(html).toContain('Raise to 0.04');
    expect(html).toContain('Pot');
    expect(html).toContain('All in');
    // The default bet-size buttons of a big-bet table.
    for (const label of ['⅓ Pot', '½ Pot', '¾ Pot', 'Pot', '2.5×', '3×'])
      expect(html).toContain(`>${label}<`);
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

  it("a tournament table counts whole tournament chips: stacks, bets, pot and bet buttons with no '$' and no decimals", async () => {
    const { store, socket } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', { seat: 0 });
    await opening;
    const view = holdemView({ actor: 0 });
    const hand = view.hand!;
    socket.receive({
      op: 'table-snapshot',
      tableId: 'nl-holdem-1',
      seq: 3,
      view: {
        ...view,
        // A real-money tournament's table: its amounts are chips all the same.
        currency: 'chips',
        stakesText: '500/1000',
        seats: view.seats.map((s) => (s === null ? null : { ...s, stack: 152_333 })),
        hand: {
          ...hand,
          pots: [{ amount: 1_001, seats: [0, 1] }],
          currentBet: 1_000,
          players: hand.players.map((p) => {
            const bet = p.seat === 0 ? 1_000 : 501;
            return { ...p, stack: 152_333, bet, committed: bet + 500 };
          }),
        },
      },
    });
    socket.receive({
      op: 'clock',
      tableId: 'nl-holdem-1',
      seq: 4,
      handId: 7,
      seat: 0,
      deadline: Date.now() + 15_000,
      timeBankMs: 0,
    });
    socket.receive({
      op: 'legal-actions',
      tableId: 'nl-holdem-1',
      seq: 4,
      handId: 7,
      legal: {
        seat: 0,
        fold: true,
        check: false,
        call: 499,
        bringIn: null,
        raise: { min: 1_500, max: 153_333 },
        raiseTos: null,
        discard: null,
        split: false,
      },
    });
    const html = render(store);
    const table = html.slice(html.indexOf('class="table-screen"'));
    expect(table).toContain('152,333');
    expect(table).toContain('Call 499');
    expect(table).toContain('Raise to 1,500');
    expect(table).toContain('500/1000 tournament chips');
    expect(table).toContain('Pot 2,501');
    // What is read on the table: its text and the amounts in its titles and labels (the "2.5×" button is a size).
    const shown = [
      table.replace(/<[^>]*>/g, ' '),
      ...[...table.matchAll(/(?:title|aria-label)="([^"]*)"/g)].map((m) => m[1]),
    ];
    for (const text of shown) {
      expect(text).not.toContain('$');
      expect(text).not.toMatch(/\d\.\d\d(?!\d)/);
    }
  });

  it('applies the table stream by its number and marks house bots', async () => {
    const { store, socket } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', { seat: 0 });
    await opening;
    const view = holdemView();
    const seats = view.seats.map((seat) => (seat?.seat === 1 ? { ...seat, bot: true } : seat));
    socket.receive({ op: 'table-snapshot', tableId: 'nl-holdem-1', seq: 8, view: { ...view, seats } });
    const fold = { type: 'fold', seat: 1 } as const;
    socket.receive({ op: 'table-event', tableId: 'nl-holdem-1', handId: 7, seq: 8, event: fold });
    expect(store.getState().tables['nl-holdem-1']!.view!.hand!.players[1]!.folded).toBe(false);
    socket.receive({ op: 'table-event', tableId: 'nl-holdem-1', handId: 7, seq: 9, event: fold });
    expect(store.getState().tables['nl-holdem-1']!.view!.hand!.players[1]!.folded).toBe(true);
    expect(store.getState().tables['nl-holdem-1']!.seq).toBe(9);
    const html = render(store);
    expect((html.match(/class="bot-badge"[^>]*>BOT</g) ?? []).length).toBe(1);
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

  it("after a dropped connection: notice, then resume the cookie's session and re-open the tables", async () => {
    const { store, network } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    network.last.ack('table-open', { seat: 0 });
    await opening;
    network.last.close();
    expect(store.getState().status).toBe('reconnecting');
    expect(render(store)).toContain('reconnecting');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const socket = network.last;
    // The first page's socket, the signed-in one, and now the reconnection.
    expect(network.sockets).toHaveLength(3);
    socket.open();
    expect(socket.sent[0]).toEqual({ op: 'resume', id: expect.any(Number) as number });
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

describe('the session is the cookie; settings are kept', () => {
  it('a new page is signed in by the cookie, back at the table where he sits, with the settings kept', async () => {
    const { store, storage } = await signedIn();
    store.setPrefs({ fourColour: true, hotkeys: false, freeFold: 'check' });
    store.close();
    // The tab is closed; a new page with the same storage and the cookie the browser kept.
    const network = new FakeNetwork();
    const again = new Store({
      urls: ['ws://room/ws'],
      socket: network.factory,
      http: new FakeHttp().post,
      storage,
    });
    expect(again.getState().prefs).toEqual({
      fourColour: true,
      hotkeys: false,
      freeFold: 'check',
      betSizes: '1/3, 1/2, 3/4, pot, 2.5x, 3x',
      sound: true,
      mutedPlayers: [],
    });
    const socket = network.last;
    socket.open();
    socket.ack('resume', { ...alice, tables: ['nl-holdem-1'] });
    await flush();
    expect(again.getState().session?.account.name).toBe('alice');
    expect(again.getState().open).toEqual(['nl-holdem-1']);
    expect(again.getState().screen).toBe('nl-holdem-1');
    expect(socket.sent.map((frame) => frame['op'])).toEqual([
      'resume',
      'table-open',
      'lobby-subscribe',
      'notes-list',
    ]);
    again.close();
  });

  it("a refused sign-in throws the room's message and signs nobody in (the socket stays as it was)", async () => {
    const network = new FakeNetwork();
    const http = new FakeHttp();
    http.answers.set('/api/login', {
      status: 429,
      body: {
        code: 'TOO_MANY_ATTEMPTS',
        message: 'too many password attempts on this account; try again in 4 s',
      },
    });
    const store = new Store({ urls: ['ws://room/ws'], socket: network.factory, http: http.post });
    network.last.open();
    await expect(store.logIn('alice', 'wrong one')).rejects.toThrow(/try again in 4 s/);
    expect(store.getState().session).toBeNull();
    expect(network.sockets).toHaveLength(1);
    store.close();
  });

  it('logout posts to the room (the session ends there) and signs out', async () => {
    const { store, http } = await signedIn();
    await store.logOut();
    expect(http.posted.at(-1)).toEqual({ path: '/api/logout', body: {} });
    expect(store.getState().session).toBeNull();
    expect(store.getState().open).toEqual([]);
    store.close();
  });
});

describe('the felt says what the table has', () => {
  async function opened(view: ReturnType<typeof holdemView>) {
    const { store, socket } = await signedIn();
    const opening = store.openTable(view.tableId);
    socket.ack('table-open', { seat: 0 });
    await opening;
    socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 3, view });
    return { store, socket };
  }

  it('the pot is every chip of the hand, never "Pot 0 · total"', async () => {
    const { store } = await opened(holdemView());
    const html = render(store);
    expect(html).toContain('data-testid="pot-total">Pot 0.03</span>');
  });

  it('side pots are the view’s, and go when chips move until the next view', async () => {
    const view = holdemView({
      pots: [
        { amount: 2, seats: [0, 1] },
        { amount: 1, seats: [1] },
      ],
    });
    const allIn = {
      ...view,
      hand: { ...view.hand!, players: view.hand!.players.map((p) => ({ ...p, allIn: p.seat === 0 })) },
    };
    const { store, socket } = await opened(allIn);
    expect(render(store)).toContain('Side pot 1');
    socket.receive({
      op: 'table-event',
      tableId: view.tableId,
      seq: 4,
      handId: 7,
      event: { type: 'call', seat: 1, amount: 1, allIn: false },
    });
    const html = render(store);
    expect(html).not.toContain('Main pot');
    expect(html).toContain('Pot 0.04');
  });

  it('a stud table has no dealer button and no blinds to auto-post', async () => {
    const { store } = await opened({ ...holdemView(), game: 'stud', structure: 'fixed-limit' });
    const html = render(store);
    expect(html).not.toContain('Dealer button');
    expect(html).not.toContain('Auto-post blinds');
    const holdem = await opened(holdemView());
    expect(render(holdem.store)).toContain('Dealer button');
    expect(render(holdem.store)).toContain('Auto-post blinds');
  });

  it('a table’s tab shows its name, which names its game, once', async () => {
    const { store } = await opened(holdemView());
    const tabs = /<nav[^]*?<\/nav>/.exec(render(store))?.[0] ?? '';
    expect(tabs).toContain('>Aldebaran<');
    expect(tabs).not.toContain('Hold');
  });
  it("table chat: an open table's lines are shown, a player's mute hides his and is kept in the settings, only a seated player gets the box", async () => {
    const { store, socket, storage } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', { seat: 0 });
    await opening;
    socket.receive({ op: 'table-snapshot', tableId: 'nl-holdem-1', seq: 3, view: holdemView() });
    const chat = (from: { id: number; name: string }, text: string, tableId = 'nl-holdem-1') => {
      socket.receive({ op: 'chat', tableId, from, text, at: Date.now() });
    };
    chat({ id: 2, name: 'bob' }, 'nice hand');
    chat({ id: 3, name: 'cleo' }, 'ty');
    chat({ id: 9, name: 'dan' }, 'not this table', 'other-table');
    expect(store.getState().chat['nl-holdem-1']!.map((line) => line.text)).toEqual(['nice hand', 'ty']);
    expect(store.getState().chat['other-table']).toBeUndefined();
    let html = render(store);
    expect(html).toContain('nice hand');
    expect(html).toContain('aria-label="Chat message"');

    store.muteChat(2, true);
    html = render(store);
    expect(html).not.toContain('nice hand');
    expect(html).toContain('ty');
    expect(html).toContain('1 hidden');
    expect(JSON.parse(storage.getItem('felt.prefs')!)).toMatchObject({ mutedPlayers: [2] });

    const sending = store.sendChat('nl-holdem-1', 'gl');
    expect(socket.sent.at(-1)).toMatchObject({ op: 'chat-send', tableId: 'nl-holdem-1', text: 'gl' });
    socket.refuse('chat-send', 'RATE_LIMITED', 'too many chat messages: wait a few seconds');
    await expect(sending).resolves.toBe(false);
    expect(store.getState().toast).toBe('too many chat messages: wait a few seconds');

    for (let i = 0; i < 60; i++) chat({ id: 3, name: 'cleo' }, `line ${i}`);
    expect(store.getState().chat['nl-holdem-1']).toHaveLength(50);
    await store.closeTable('nl-holdem-1');
    expect(store.getState().chat['nl-holdem-1']).toBeUndefined();
  });

  it('a watcher reads the chat but gets no box to write in', async () => {
    const { store, socket } = await signedIn();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', {});
    await opening;
    socket.receive({
      op: 'table-snapshot',
      tableId: 'nl-holdem-1',
      seq: 3,
      view: { ...holdemView(), you: null },
    });
    socket.receive({
      op: 'chat',
      tableId: 'nl-holdem-1',
      from: { id: 2, name: 'bob' },
      text: 'hello',
      at: 1,
    });
    const html = render(store);
    expect(html).toContain('hello');
    expect(html).not.toContain('aria-label="Chat message"');
  });
  it("his notes on players: loaded with his session, a tag and the note shown at the player's seat, saved to the room, removed when emptied", async () => {
    const { store, socket } = await signedIn();
    socket.ack('notes-list', {
      notes: [{ about: { id: 2, name: 'bob' }, colour: 'red', note: 'bluffs rivers', updatedAt: 1 }],
    });
    await flush();
    const opening = store.openTable('nl-holdem-1');
    socket.ack('table-open', { seat: 0 });
    await opening;
    socket.receive({ op: 'table-snapshot', tableId: 'nl-holdem-1', seq: 3, view: holdemView() });
    const bob = holdemView().seats.find((seat) => seat !== null && seat.seat !== 0)!;
    expect(bob.account).toBe(2);
    let html = render(store);
    expect(html).toContain('class="note-tag note-red"');
    expect(html).toContain('title="bluffs rivers"');

    const saving = store.setNote(2, 'blue', 'calls down');
    expect(socket.sent.at(-1)).toMatchObject({
      op: 'note-set',
      about: 2,
      colour: 'blue',
      note: 'calls down',
    });
    socket.ack('note-set');
    await expect(saving).resolves.toBe(true);
    html = render(store);
    expect(html).toContain('class="note-tag note-blue"');
    expect(html).toContain('title="calls down"');

    const removing = store.setNote(2, null, '');
    socket.ack('note-set');
    await removing;
    expect(store.getState().notes).toEqual({});
    expect(render(store)).not.toContain('note-tag note-');
  });
});

describe('the staff console is offered to staff only', () => {
  it('a staff login answered TOTP_REQUIRED throws that code; sent again with the code, it signs in and the Console tab shows', async () => {
    const network = new FakeNetwork();
    const http = new FakeHttp();
    const operator = { account: { id: 9, name: 'olga', role: 'operator' }, balances: { play: 0, real: 0 } };
    http.answers.set('/api/login', {
      status: 401,
      body: { code: 'TOTP_REQUIRED', message: 'a staff account signs in with its authenticator’s code too' },
    });
    const store = new Store({ urls: ['ws://room/ws'], socket: network.factory, http: http.post });
    network.last.open();
    await expect(store.logIn('olga', 'correct horse')).rejects.toMatchObject({ code: 'TOTP_REQUIRED' });
    expect(store.getState().session).toBeNull();
    http.answers.set('/api/login', { status: 200, body: operator });
    await store.logIn('olga', 'correct horse', '123456');
    expect(http.posted.at(-1)).toEqual({
      path: '/api/login',
      body: { name: 'olga', password: 'correct horse', totp: '123456' },
    });
    const socket = network.last;
    socket.open();
    socket.ack('resume', { ...operator, tables: [] });
    await flush();
    expect(render(store)).toContain('>Console</button>');
    store.close();
  });

  it('a message from the room’s staff is shown to the player', async () => {
    const { store, socket } = await signedIn();
    socket.receive({ op: 'broadcast', tableId: null, text: 'the room restarts at 03:00' });
    await flush();
    expect(render(store)).toContain('Message from the room: the room restarts at 03:00');
    store.close();
  });

  it('a player’s page has no Console tab, and the console screen shows him the lobby', async () => {
    const { store } = await signedIn();
    expect(render(store)).not.toContain('Console');
    store.show(CONSOLE_SCREEN);
    expect(render(store)).not.toContain('Console');
    expect(render(store)).toContain('Aldebaran');
    store.close();
  });
  it('a table the staff closed leaves the lobby list', async () => {
    const { store, socket } = await signedIn();
    expect(store.getState().lobby.map((row) => row.tableId)).toEqual(['nl-holdem-1']);
    socket.receive({ op: 'lobby-table-removed', tableId: 'nl-holdem-1' });
    expect(store.getState().lobby).toEqual([]);
  });

  it("the bar sells him what the tournament sells at this level, with its price and chips; at the final table it offers a deal, shows a proposed one with each player's prize, and the server's refusal in words", async () => {
    const { store, socket } = await signedIn();
    const now = { fromLevel: 0, untilLevel: 2 };
    const detail = {
      ...tournamentDetail,
      rebuy: { cost: 1000, fee: 100, chips: 1_500, maxPerPlayer: 2, maxStack: 1_500, window: now },
      addOn: { cost: 500, fee: 0, chips: 3_000, maxPerPlayer: 1, window: { fromLevel: 3, untilLevel: 3 } },
      reEntry: { maxPerPlayer: 1, window: now },
    };
    const tableId = `${TOURNAMENT_RUN}-1`;
    const bar = (): string => renderIn(store, TournamentBar, { tableId, tournamentId: TOURNAMENT_RUN });
    let loading = store.loadTournament(TOURNAMENT_RUN);
    socket.ack('tournament-get', { tournament: detail });
    await loading;
    let html = bar();
    // Alice is in with 1,000 chips, at level 1: a rebuy is hers, the add-on is for level 4, re-entry once out.
    expect(html).toContain('Rebuy 10 + 1 for 1,500 chips');
    expect(html).not.toContain('Add-on');
    expect(html).not.toContain('Re-enter');
    expect(html).toContain('Propose ICM');
    expect(html).toContain('Propose chip chop');

    const buying = store.tournamentAct(TOURNAMENT_RUN, 'tournament-rebuy');
    expect(socket.sent.at(-1)).toMatchObject({ op: 'tournament-rebuy', tournamentId: TOURNAMENT_RUN });
    socket.refuse('tournament-rebuy', 'LIMIT_REACHED', 'two rebuys at most');
    await flush();
    socket.ack('tournament-get', { tournament: detail });
    expect(await buying).toBe('You have bought as many of those as one player may. (LIMIT_REACHED)');

    const deal = {
      kind: 'icm' as const,
      proposer: 2,
      expiresAt: null,
      players: [
        { account: 1, name: 'alice', chips: 1_000, amount: 1_150, accepted: false },
        { account: 2, name: 'bob', chips: 3_500, amount: 1_850, accepted: true },
      ],
    };
    loading = store.loadTournament(TOURNAMENT_RUN);
    socket.ack('tournament-get', { tournament: { ...detail, deal } });
    await loading;
    html = bar();
    expect(html).toContain('ICM deal proposed');
    expect(html).toContain('11.50');
    expect(html).toContain('18.50');
    expect(html).toContain('>Accept<');
    expect(html).toContain('>Decline<');
    expect(html).not.toContain('Propose ICM');
  });

  it('a tournament table: he follows the room to his table at the start and when moved (the old one closed), and the bar shows the level, clock, players left, average, rank, final table, the move (or the final table drawn) and his place and prize', async () => {
    const { store, socket } = await signedIn();
    const first = `${TOURNAMENT_RUN}-1`;
    const second = `${TOURNAMENT_RUN}-2`;
    const sentFor = (op: string, tableId: string): number =>
      socket.sent.filter((f) => f['op'] === op && f['tableId'] === tableId).length;
    socket.receive({
      op: 'tournament-seat',
      tournamentId: TOURNAMENT_RUN,
      tableId: first,
      seat: 2,
      moved: false,
    });
    expect(store.getState().screen).toBe(first);
    expect(sentFor('table-open', first)).toBe(1);
    socket.ack('tournament-get', { tournament: tournamentDetail });
    await flush();
    const bar = (tableId: string): string =>
      renderIn(store, TournamentBar, { tableId, tournamentId: TOURNAMENT_RUN });
    let html = bar(first);
    expect(html).toContain('Level 1');
    expect(html).toContain('Blinds 5/10');
    expect(html).toContain('1:05 to the next level');
    expect(html).toContain('2 left');
    expect(html).toContain('Average 2,250');
    expect(html).toMatch(/Your rank <b>2<\/b> of 2/);
    expect(html).toContain('Final table');
    expect(html).not.toContain('moved');

    socket.receive({
      op: 'tournament-seat',
      tournamentId: TOURNAMENT_RUN,
      tableId: second,
      seat: 5,
      moved: true,
    });
    expect(store.getState().screen).toBe(second);
    expect(store.getState().open).toEqual([second]);
    expect(sentFor('table-close', first)).toBe(1);
    expect(sentFor('table-open', second)).toBe(1);
    html = bar(second);
    expect(html).toContain('You were moved to table 2');
    // Not the table the tournament page names alone: no final table here.
    expect(html).not.toContain('Final table');
    store.dismissMove(TOURNAMENT_RUN);
    expect(bar(second)).not.toContain('moved');
    // Moved to the final table (the one the tournament page names alone): the notice says it was drawn.
    socket.receive({
      op: 'tournament-seat',
      tournamentId: TOURNAMENT_RUN,
      tableId: first,
      seat: 0,
      moved: true,
    });
    expect(bar(first)).toContain('The final table is drawn: you are at table 1.');
    expect(bar(first)).not.toContain('to balance the tables');
    store.dismissMove(TOURNAMENT_RUN);

    socket.receive({
      op: 'tournament-out',
      tournamentId: TOURNAMENT_RUN,
      result: { account: 1, name: 'alice', place: 2, tied: 1, prize: 1950 },
    });
    expect(bar(second)).toContain('You finished 2nd. Your prize: 19.50.');
    socket.receive({
      op: 'tournament-out',
      tournamentId: TOURNAMENT_RUN,
      result: { account: 1, name: 'alice', place: 1, tied: 1, prize: 3000 },
    });
    expect(bar(second)).toContain('You won the tournament! Your prize: 30.');
    store.close();
  });

  it('the tournament lobby lists each tournament with game, buy-in + fee, entrants, start and state; a refused registration says why with its code and moves no money', async () => {
    const { store, socket } = await signedIn();
    const sng = {
      ...tournamentDetail,
      tournamentId: 'sng@2026-12-03T15:00:00.000Z',
      name: 'Turbo six',
      kind: 'sit-and-go',
      startsAt: null,
      state: 'registering',
      entrants: 5,
      maxEntrants: 6,
      registered: false,
    };
    const listing = store.loadTournaments();
    socket.ack('tournament-list', { tournaments: [sng] });
    await listing;
    store.show(TOURNAMENT_LOBBY_SCREEN);
    const html = renderIn(store, TournamentLobby, {});
    expect(html).toContain('Turbo six');
    expect(html).toContain('Sit &amp; go');
    expect(html).toContain('Texas Hold&#x27;em NL');
    expect(html).toContain('10 + 1');
    expect(html).toContain('5/6');
    expect(html).toContain('When full');
    expect(html).toContain('Registering');
    expect(html).toContain('aria-label="Register for Turbo six"');

    const entering = store.enterTournament(sng.tournamentId, true);
    socket.refuse('tournament-register', 'REGISTRATION_CLOSED', 'the tournament is full');
    await flush();
    socket.ack('tournament-list', { tournaments: [sng] });
    socket.ack('tournament-get', { tournament: sng });
    expect(await entering).toBe(
      'Registration is closed: the tournament is full, over, or past late registration. (REGISTRATION_CLOSED)',
    );
    expect(store.getState().session?.balances.play).toBe(100_000);
    store.close();
  });
});
