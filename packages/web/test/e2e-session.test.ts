/**
 * Staying signed in, in a real Chromium against the real `felt serve` (issue 24 defect 6, on the session
 * design of issue 23 hole 6, docs/security.md): the player signs in, changes his settings and sits; he
 * closes the page; a new page is signed in by the HttpOnly cookie (which no script in it can read), his
 * table open and his settings kept; he logs out, and a new page is signed out. The client runs under the
 * room's Content-Security-Policy without a single violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eReady, signUp, sit, startRoom, type Room } from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e skipped: ${ready.why}`);

const TABLES = [
  {
    id: 'e2e-stay',
    name: "Hold'em NL",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
  },
];

describe.skipIf(!ready.ok)('staying signed in (headless Chromium, real server)', () => {
  let room: Room;

  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);

  afterAll(async () => {
    await room.stop();
  });

  it('closing the tab keeps him signed in, at his table, with his settings; logout ends it for every new page', async () => {
    const player = await signUp(room, 'stay');
    const { context } = player;
    const cspViolations: string[] = [];
    const watch = (page: typeof player.page): void => {
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
    };
    watch(player.page);
    await player.page.getByText('Settings', { exact: true }).click();
    await player.page.getByLabel('Four-colour deck').check();
    await player.page.getByLabel('Keyboard shortcuts').uncheck();
    await player.page.getByLabel('F checks when checking is free').check();
    await player.page.getByText('Settings', { exact: true }).click();
    await sit(player, 'e2e-stay', 0);
    // No page script can read the session: the cookie is HttpOnly and nothing is kept in storage.
    const readable = await player.page.evaluate(() => ({
      cookie: document.cookie,
      local: Object.keys(localStorage)
        .map((key) => localStorage.getItem(key))
        .join(),
      session: Object.keys(sessionStorage)
        .map((key) => sessionStorage.getItem(key))
        .join(),
    }));
    expect(readable.cookie).not.toMatch(/felt_session/);
    expect(`${readable.local}${readable.session}`).not.toMatch(/token/i);
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'felt_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await player.page.close();

    const page = await context.newPage();
    watch(page);
    await page.goto(room.url);
    await expect
      .poll(() => page.getByLabel('Signed in as').textContent(), { timeout: 20_000 })
      .toBe(player.name);
    await page.locator('.table-screen[data-table="e2e-stay"]').waitFor({ timeout: 20_000 });
    await page.locator('.seat.me[data-seat="0"]').waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('Four-colour deck').isChecked()).toBe(true);
    expect(await page.getByLabel('Keyboard shortcuts').isChecked()).toBe(false);
    expect(await page.getByLabel('F checks when checking is free').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Leave seat' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    expect((await context.cookies()).some((cookie) => cookie.name === 'felt_session')).toBe(false);
    await page.close();

    const after = await context.newPage();
    watch(after);
    // The new page's resume is refused: there is no session left to resume.
    const refused = new Promise<void>((resolve) => {
      after.on('websocket', (socket) => {
        socket.on('framereceived', (frame) => {
          if (typeof frame.payload === 'string' && frame.payload.includes('"code":"BAD_TOKEN"')) resolve();
        });
      });
    });
    await after.goto(room.url);
    await refused;
    await after.getByRole('button', { name: 'Sign up' }).waitFor();
    expect(await after.getByLabel('Signed in as').count()).toBe(0);
    // The settings stay with the browser after logout (they are not secrets).
    expect(await after.evaluate(() => localStorage.getItem('felt.prefs'))).toContain('"fourColour":true');
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 120_000);
});
