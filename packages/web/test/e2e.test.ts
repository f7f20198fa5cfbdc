/**
 * The web client in a real headless Chromium against the real `felt serve`: players sign up in their own
 * browser sessions, sit at one table and play whole hands of hold'em (3 players), Omaha hi/lo, 7-card stud
 * and 5-card draw (2 players each). Each decision checks what the deciding player sees: his own cards face
 * up, no opponent's down card, and stacks + pot = the buy-ins. Screenshots go to a temporary directory,
 * or with FELT_SCREENSHOTS=1 to docs/screenshots/ (the README's pictures).
 */
import { gzipSync } from 'node:zlib';
import type { WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chipsOnTable,
  e2eReady,
  passivePolicy,
  playHand,
  screenshot,
  seatCards,
  signUp,
  sit,
  startRoom,
  type Player,
  type Policy,
  type Room,
} from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e skipped: ${ready.why}`);

const clocks = { betweenHandsMs: 5000 };
const TABLES = [
  {
    id: 'e2e-holdem',
    name: "Hold'em NL",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks,
  },
  {
    id: 'e2e-omaha-hilo',
    name: 'Omaha Hi/Lo',
    game: 'omaha-hilo',
    structure: 'fixed-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks,
  },
  {
    id: 'e2e-stud',
    name: 'Stud',
    game: 'stud',
    structure: 'fixed-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks,
  },
  {
    id: 'e2e-ask',
    name: 'Blinds asked',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks,
  },
  {
    id: 'e2e-draw',
    name: 'Draw',
    game: 'draw5',
    structure: 'fixed-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks,
  },
];

/**
 * Budgets for the lobby's first load (localhost, no cache) and the bundle. The sizes are asserted; the
 * times are printed and checked against their budgets by people, not by the test: a busy machine must
 * not fail a correctness run (docs/web.md states the budgets and the figures measured).
 */
export const BUDGETS = {
  /** First contentful paint of the page (printed, not asserted). */
  fcpMs: 1500,
  /** A returning player (session token kept): from navigation to the lobby's rows on screen (printed, not asserted). */
  lobbyMs: 1000,
  /** JavaScript of the first load, gzip. */
  jsGzipBytes: 100 * 1024,
  /** Everything the first load fetches (HTML + JS + CSS), uncompressed as served. */
  firstLoadBytes: 350 * 1024,
};

describe.skipIf(!ready.ok)('web client end to end (headless Chromium, real server)', () => {
  let room: Room;
  const everyone: Player[] = [];

  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);

  afterAll(async () => {
    for (const player of everyone) await player.context.close().catch(() => undefined);
    await room.stop();
  });

  const join = async (base: string, tableId: string, seat: number, amount?: string): Promise<Player> => {
    const player = await signUp(room, base);
    everyone.push(player);
    await sit(player, tableId, seat, amount);
    return player;
  };

  /** The players leave their seats (chips back to the balance) so their table stops dealing. */
  const leave = async (players: readonly Player[]): Promise<void> => {
    for (const player of players) {
      const before = await player.page.getByTestId('play-balance').innerText();
      await player.page.getByRole('button', { name: 'Leave seat' }).click();
      await expect.poll(() => player.page.getByTestId('play-balance').innerText()).not.toBe(before);
      await player.context.close();
    }
  };

  it('lobby: first load within the size budgets, every table listed with its columns, filters', async () => {
    const context = await room.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(room.url);
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    const load = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const navigation = performance.getEntriesByType('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      return {
        fcp: paint?.startTime ?? 0,
        bytes: resources.reduce((sum, r) => sum + r.encodedBodySize, 0) + (navigation?.encodedBodySize ?? 0),
        scripts: resources
          .filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
          .map((r) => r.name),
      };
    });
    const scripts = await Promise.all(
      load.scripts.map(async (src) => gzipSync(Buffer.from(await (await fetch(src)).arrayBuffer())).length),
    );
    await page.getByLabel('Name').fill(`lobby${String(Date.now() % 100_000)}`);
    await page.getByLabel('Password').fill('correct horse battery');
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('.lobby-table tbody tr').first().waitFor();
    const signUpMs = Date.now() - clicked;
    // First load of the lobby for a returning player: a fresh navigation that resumes the session.
    const navigated = Date.now();
    await page.reload();
    await page.locator('.lobby-table tbody tr').first().waitFor();
    const lobbyMs = Date.now() - navigated;
    const jsGzip = scripts.reduce((a, b) => a + b, 0);
    console.log(
      `web budgets: fcp ${Math.round(load.fcp)} ms (≤ ${BUDGETS.fcpMs}), lobby on load ${lobbyMs} ms (≤ ${BUDGETS.lobbyMs}), ` +
        `sign-up to lobby ${signUpMs} ms (server scrypt included, no budget), ` +
        `first-load bytes ${load.bytes} (≤ ${BUDGETS.firstLoadBytes}), JS gzip ${jsGzip} (≤ ${BUDGETS.jsGzipBytes})`,
    );
    expect(load.fcp).toBeGreaterThan(0);
    expect(load.bytes).toBeLessThanOrEqual(BUDGETS.firstLoadBytes);
    expect(jsGzip).toBeLessThanOrEqual(BUDGETS.jsGzipBytes);

    const rows = page.locator('.lobby-table tbody tr');
    await expect.poll(() => rows.count()).toBe(TABLES.length);
    await expect.poll(() => page.locator('.lobby-table').innerText()).toContain('Omaha Hi/Lo');
    await page.getByLabel('Game', { exact: true }).selectOption('stud');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Game', { exact: true }).selectOption('');
    await screenshot(page, 'lobby.png');
    // Phone size: the same lobby, narrower columns.
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'lobby-phone.png');
    await context.close();
  });

  it("hold'em, three players: a raise typed in the box, calls, the board, showdown; a dropped connection comes back", async () => {
    const alice = await join('alice', 'e2e-holdem', 0, '200');
    const bob = await signUp(room, 'bob');
    everyone.push(bob);
    // Bob's socket goes through a route the test can cut.
    const routes: WebSocketRoute[] = [];
    await bob.page.routeWebSocket(/\/ws$/, (ws) => {
      ws.connectToServer();
      routes.push(ws);
    });
    await bob.page.reload();
    await bob.page.locator('.lobby-table tbody tr').first().waitFor();
    await sit(bob, 'e2e-holdem', 1, '200');
    const carol = await join('carol', 'e2e-holdem', 2, '200');
    const players = [alice, bob, carol];

    let raised = false;
    let dropped = false;
    const policy: Policy = async (page, player) => {
      const box = page.getByLabel(/amount \(type\)$/);
      if (!raised && (await box.count()) > 0) {
        raised = true;
        await box.fill('10');
        await box.press('Enter');
        return true;
      }
      if (!dropped && player === bob) {
        dropped = true;
        const before = (await seatCards(bob.page)).find((entry) => entry.seat === 1)?.codes;
        for (const route of routes.splice(0)) await route.close();
        await bob.page.getByTestId('reconnecting').waitFor();
        await bob.page.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 15_000 });
        // Back with the same seat and the same cards.
        await expect
          .poll(async () => (await seatCards(bob.page)).find((entry) => entry.seat === 1)?.codes)
          .toEqual(before);
        return false;
      }
      return passivePolicy(page, player);
    };
    // The first hand may start as soon as two are seated; the second deals all three in.
    const first = await playHand(players, { policy });
    expect(raised).toBe(true);
    expect(dropped).toBe(true);
    expect(first.results.join('\n')).toMatch(/wins [\d,.]+/);
    expect(await alice.page.getByTestId('hand-log').innerText()).toMatch(/(raises to|bets) 10\b/);
    // A player who sat down during a hand may have to wait for the big blind (the room's rule): deal on
    // until each of the three has played a hand, all three at once when the button allows.
    const seen = new Set(first.own.keys());
    let hand = first;
    for (let number = 1; number <= 4 && (number === 1 || seen.size < 3); number++) {
      hand = await playHand(players, { afterHand: number });
      for (const seat of hand.own.keys()) seen.add(seat);
    }
    expect(hand.own.size).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(new Set([0, 1, 2]));
    // The seat's "muck losing hands" option, on by default; the box shows what the server holds.
    const muckLosing = carol.page.getByLabel('Muck losing hands');
    await expect.poll(() => muckLosing.isChecked()).toBe(true);
    await muckLosing.click();
    await expect.poll(() => muckLosing.isChecked()).toBe(false);
    const log = await alice.page.getByTestId('hand-log').innerText();
    expect(log).toMatch(/calls|checks/);
    expect(log).toMatch(/Board: /);
    // The result names the winner and the chips; stacks add up to the buy-ins.
    expect(hand.results.join('\n')).toMatch(/wins [\d,.]+/);
    const chips = await chipsOnTable(alice.page);
    expect(chips.stacks).toBe(players.reduce((sum, p) => sum + p.buyIn, 0));
    await screenshot(alice.page, 'table-holdem.png');
    await alice.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(alice.page, 'table-holdem-phone.png');
    await alice.page.setViewportSize({ width: 1280, height: 860 });

    // The hand history and the replayer.
    await alice.page.getByRole('button', { name: 'Hand history' }).click();
    // (the players leave after the history is checked, below)
    await alice.page.locator('.panel .log button').first().click();
    const replayer = alice.page.getByRole('dialog', { name: /^Replay of hand/ });
    await replayer.waitFor();
    await replayer.getByRole('button', { name: 'Next step' }).click();
    await replayer.getByRole('button', { name: 'Next step' }).click();
    await expect.poll(() => replayer.getByTestId('replay-step').innerText()).toMatch(/^3 \/ \d+$/);
    await expect.poll(() => replayer.getByTestId('replay-line').innerText()).toMatch(/is dealt/);
    await replayer.getByRole('button', { name: 'Last step' }).click();
    await expect.poll(() => replayer.getByTestId('replay-line').innerText()).toMatch(/ wins [\d,.]+/);
    await replayer.getByRole('button', { name: 'Close' }).click();
    await replayer.waitFor({ state: 'detached' });
    await leave(players);
  });

  it('auto-post off: the page asks him for his blind, everybody sees whom the table waits for, he posts and is dealt in', async () => {
    const gail = await join('gail', 'e2e-ask', 0);
    const hugo = await signUp(room, 'hugo');
    everyone.push(hugo);
    await sit(hugo, 'e2e-ask', 1, undefined, { wait: true, autoPost: false });
    const ask = hugo.page.getByRole('group', { name: 'Post your blind' });
    await ask.waitFor();
    await expect
      .poll(() => gail.page.locator('.seat[data-seat="1"] .status').innerText())
      .toBe('Posting blind?');
    expect((await seatCards(hugo.page)).every((seat) => seat.codes.length === 0)).toBe(true);
    await ask.getByRole('button', { name: 'Post blind' }).click();
    await ask.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await seatCards(hugo.page)).find((seat) => seat.seat === 1)?.codes ?? [])
      .toHaveLength(2);
    const own = (await seatCards(hugo.page)).find((seat) => seat.seat === 1)!;
    expect(own.codes.every((code) => code !== '' && !code.includes('?'))).toBe(true);
    await leave([gail, hugo]);
  });

  it('Omaha hi/lo, two players: four cards each, the board, high and low halves named', async () => {
    const dora = await join('dora', 'e2e-omaha-hilo', 0);
    const eve = await join('eve', 'e2e-omaha-hilo', 3);
    const hand = await playHand([dora, eve]);
    for (const seen of hand.own.values()) expect(seen.codes).toHaveLength(4);
    const result = hand.results.join('\n');
    expect(result).toMatch(/wins [\d,.]+/);
    // A low half is named only with a qualifying low; the high half always is when a low exists.
    if (result.includes('low half')) expect(result).toContain('high half');
    expect(await dora.page.locator('.centre [aria-label="Board"] svg').count()).toBe(5);
    await screenshot(dora.page, 'table-omaha-hilo.png');
    await leave([dora, eve]);
  });

  it('7-card stud, two players: own down cards face up to him only, up cards to both, bring-in', async () => {
    const fred = await join('fred', 'e2e-stud', 0);
    const gina = await join('gina', 'e2e-stud', 1);
    await fred.page.getByText('Settings', { exact: true }).click();
    await fred.page.getByLabel('Four-colour deck').check();
    await fred.page.getByText('Settings', { exact: true }).click();
    let compared = false;
    const hand = await playHand([fred, gina], {
      onDecision: async (player) => {
        if (compared) return;
        const other = player === fred ? gina : fred;
        const mine = (await seatCards(player.page)).find((entry) =>
          entry.codes.every((code) => code !== '??'),
        );
        const theirView = (await seatCards(other.page)).find((entry) => entry.seat === mine?.seat);
        if (mine === undefined || theirView === undefined) return;
        // Down cards: face up (marked) for the owner, backs for the other; up cards the same for both.
        expect(mine.down.filter(Boolean).length).toBeGreaterThanOrEqual(2);
        for (const [i, code] of mine.codes.entries()) {
          if (mine.down[i] === true) expect(theirView.codes[i]).toBe('??');
          else expect(theirView.codes[i]).toBe(code);
        }
        compared = true;
      },
    });
    expect(compared).toBe(true);
    expect(hand.results.join('\n')).toMatch(/wins [\d,.]+/);
    expect(await fred.page.getByTestId('hand-log').innerText()).toMatch(/brings in|completes|bets/);
    await screenshot(fred.page, 'table-stud.png');
    await leave([fred, gina]);
  });

  it('5-card draw, two players: discards picked by clicking cards, replaced; showdown', async () => {
    const hana = await join('hana', 'e2e-draw', 0);
    const ivan = await join('ivan', 'e2e-draw', 1);
    let drawShot = false;
    const hand = await playHand([hana, ivan], {
      onDecision: async (player) => {
        if (drawShot || !(await player.page.getByRole('group', { name: 'Draw' }).isVisible())) return;
        await player.page
          .getByRole('group', { name: 'Draw' })
          .getByRole('button', { name: /^Discard .* of / })
          .first()
          .click();
        await screenshot(player.page, 'table-draw.png');
        drawShot = true;
      },
    });
    expect(drawShot).toBe(true);
    for (const seen of hand.own.values()) expect(seen.codes).toHaveLength(5);
    const log = await hana.page.getByTestId('hand-log').innerText();
    expect(log).toMatch(/discards \d|stands pat/);
    expect(hand.results.join('\n')).toMatch(/wins [\d,.]+/);
    await leave([hana, ivan]);
  });
});
