/**
 * The table on the screen, in a real Chromium against the real `felt serve`, for every family of games
 * (hold'em and Omaha boards, stud, 2-7 triple draw, Telesina, 32-card draw) at 1366×820 and 390×844,
 * with house bots filling the table: the page never scrolls at a table, the oval, the buy-in form and the
 * action bar are on the screen, the header and tabs leave the phone its table, the dealer button covers
 * nobody's cards, no seat covers the board, every card and every seat is on the screen; the lobby's Open buttons are on a phone's screen. And the
 * words on the felt: the time bank named, coloured and counted apart from the action clock; no dealer
 * button and no blinds to post at stud; no pot before the first chip or after the chips went to the
 * winners; a tab named by its table only.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameFamily } from '../src/format';
import {
  e2eReady,
  passivePolicy,
  screenshot,
  signUp,
  sit,
  startRoom,
  type Player,
  type Room,
} from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e skipped: ${ready.why}`);

const DESKTOP = { width: 1366, height: 820 };
const PHONE = { width: 390, height: 844 };
/** Header and tabs on a phone: at most this much above the table. */
const PHONE_CHROME_PX = 110;

/** One table of each family, house bots in all seats but the two the players take. */
const FAMILIES = [
  { game: 'holdem', structure: 'no-limit', bots: 4 },
  { game: 'omaha-hilo', structure: 'pot-limit', bots: 4 },
  { game: 'stud', structure: 'fixed-limit', bots: 4 },
  { game: 'triple-draw-27', structure: 'fixed-limit', bots: 4 },
  { game: 'telesina', structure: 'fixed-limit', bots: 4 },
  { game: 'draw32', structure: 'fixed-limit', bots: 3 },
] as const;
const TIME_BANK_TABLE = 'layout-time-bank';
const TABLES = [
  ...FAMILIES.map(({ game, structure, bots }) => ({
    id: `layout-${game}`,
    name: `Layout ${game}`,
    game,
    structure,
    stakes: { small: 100, big: 200 },
    currency: 'play',
    houseBots: bots,
    clocks: { betweenHandsMs: 3000 },
  })),
  {
    id: TIME_BANK_TABLE,
    name: 'Time bank',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    clocks: { actionMs: 4000, timeBankMs: 9000, betweenHandsMs: 3000 },
  },
];

/**
 * What is wrong with the page's layout right now: the page scrolls, a part of the table is off the
 * screen, the dealer button is over a card, the phone's header and tabs take too much.
 */
async function layoutFaults(page: Page, chromeLimit: number | null): Promise<string[]> {
  return page.evaluate((limit) => {
    const faults: string[] = [];
    const width = window.innerWidth;
    const height = window.innerHeight;
    const page = document.scrollingElement ?? document.documentElement;
    if (page.scrollHeight > height) faults.push(`the page scrolls down: ${page.scrollHeight} > ${height}`);
    if (page.scrollWidth > width) faults.push(`the page scrolls sideways: ${page.scrollWidth} > ${width}`);
    const box = (element: Element) => element.getBoundingClientRect();
    const onScreen = (selector: string) => {
      for (const element of document.querySelectorAll(selector)) {
        const r = box(element);
        if (r.top < 0 || r.left < -0.5 || r.bottom > height + 0.5 || r.right > width + 0.5)
          faults.push(
            `${selector} off the screen: ${[r.left, r.top, r.right, r.bottom].map(Math.round).join(',')}`,
          );
      }
    };
    onScreen('.table-screen .oval-wrap');
    onScreen('.table-screen [aria-label="Your actions"]');
    onScreen('.table-screen form[aria-label="Buy in"]');
    onScreen('.table-screen .oval-wrap svg[data-card]');
    onScreen('.table-screen .dealer-button');
    const oval = document.querySelector('.table-screen .oval-wrap');
    if (oval !== null) {
      const o = box(oval);
      for (const seat of document.querySelectorAll(
        '.table-screen .seat, .table-screen .seat svg[data-card]',
      )) {
        const r = box(seat);
        if (
          r.top < o.top - 0.5 ||
          r.left < o.left - 0.5 ||
          r.bottom > o.bottom + 0.5 ||
          r.right > o.right + 0.5
        )
          faults.push(
            `seat ${seat.closest('.seat')?.getAttribute('data-seat') ?? '?'} ${seat.tagName === 'svg' ? 'card' : 'plate'} out of the table's box: ${[r.left, r.top, r.right, r.bottom].map(Math.round).join(',')} in ${[o.left, o.top, o.right, o.bottom].map(Math.round).join(',')}`,
          );
      }
    }
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const seats = [...document.querySelectorAll('.table-screen .seat')].map(box);
    for (const card of document.querySelectorAll('.table-screen .centre svg[data-card]')) {
      const c = box(card);
      if (seats.some((seat) => meet(seat, c)))
        faults.push(`a seat covers the board's card at ${[c.left, c.top].map(Math.round).join(',')}`);
    }
    const cards = [...document.querySelectorAll('.table-screen .oval-wrap svg[data-card]')].map(box);
    for (const button of document.querySelectorAll('.table-screen .dealer-button')) {
      const d = box(button);
      for (const c of cards)
        if (meet(d, c))
          faults.push(
            `the dealer button ${[d.left, d.top].map(Math.round).join(',')} covers a card at ${[c.left, c.top, c.right, c.bottom].map(Math.round).join(',')}`,
          );
    }
    const main = document.querySelector('main');
    if (limit !== null && main !== null && box(main).top > limit)
      faults.push(`header and tabs take ${Math.round(box(main).top)} px before the table`);
    return faults;
  }, chromeLimit);
}

const chromeLimit = (player: Player) =>
  player.page.viewportSize()?.width === PHONE.width ? PHONE_CHROME_PX : null;

/** The hand number of the result the page shows (0: none yet). */
async function resultNumber(page: Page): Promise<number> {
  const title = page.locator('[data-testid="results"] h3');
  if ((await title.count()) === 0) return 0;
  return Number(/#(\d+)/.exec((await title.first().textContent()) ?? '')?.[1] ?? 0);
}

/**
 * Plays one hand passively with both players (house bots play the other seats), reading each page's
 * layout all along; returns the faults seen, each once, and how many times the pages were read.
 */
async function playWatching(players: readonly Player[]): Promise<{ faults: string[]; reads: number }> {
  const faults = new Set<string>();
  let reads = 0;
  const started = await Promise.all(players.map((player) => resultNumber(player.page)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the hand did not finish within 2 minutes');
    let done = 0;
    for (const [index, player] of players.entries()) {
      const seen = await layoutFaults(player.page, chromeLimit(player));
      if (seen.some((fault) => !faults.has(`${player.name}: ${fault}`)))
        // The picture of a fault, for whoever reads the failure (never among the README's).
        await player.page.screenshot({
          path: join(tmpdir(), 'felt-layout-faults', `${player.name}-${String(reads)}.png`),
        });
      for (const fault of seen) faults.add(`${player.name}: ${fault}`);
      reads++;
      // A pot in the middle always has chips in it.
      for (const text of await player.page.getByTestId('pot-total').allInnerTexts())
        expect(text).not.toMatch(/^Pot 0(\.00)?$/);
      if ((await resultNumber(player.page)) > started[index]!) done++;
      else await passivePolicy(player.page, player);
    }
    if (done === players.length) return { faults: [...faults], reads };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe.skipIf(!ready.ok)('the table on the screen, every family at both sizes (headless Chromium)', () => {
  let room: Room;

  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);

  afterAll(async () => {
    await room.stop();
  });

  it("a phone's lobby: every table's Open button on the screen, the page not wider than the phone", async () => {
    const phone = await signUp(room, 'lobby', PHONE);
    const rows = phone.page.locator('.lobby-table tbody tr[data-table-id]');
    expect(await rows.count()).toBe(TABLES.length);
    const boxes = await phone.page
      .getByRole('button', { name: /^Open / })
      .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().right));
    expect(boxes).toHaveLength(TABLES.length);
    for (const right of boxes) expect(right).toBeLessThanOrEqual(PHONE.width);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await phone.context.close();
  });

  for (const { game, bots } of FAMILIES) {
    it(`${game}: at 1366×820 and 390×844 the table and its action bar fit the screen, nothing scrolls, the dealer button covers no card`, async () => {
      const tableId = `layout-${game}`;
      const desk = await signUp(room, 'desk', DESKTOP);
      const phone = await signUp(room, 'phone', PHONE);
      // The buy-in form on the screen before the seat is taken.
      await phone.page
        .locator(`.lobby-table tr[data-table-id="${tableId}"]`)
        .getByRole('button', { name: /^Open/ })
        .click();
      await phone.page
        .getByRole('button', { name: /^Sit at seat \d+$/ })
        .first()
        .click();
      await phone.page.getByRole('form', { name: 'Buy in' }).waitFor();
      expect(await layoutFaults(phone.page, PHONE_CHROME_PX)).toEqual([]);
      // The house bots come while somebody watches: seated before the players pick free seats.
      await expect
        .poll(() => phone.page.locator('.table-screen .seat[data-name]').count(), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(bots);
      await phone.page.getByRole('button', { name: 'Cancel' }).click();
      await phone.page.getByRole('tab', { name: 'Lobby' }).click();
      await sit(desk, tableId, null);
      await sit(phone, tableId, null);

      const { faults, reads } = await playWatching([desk, phone]);
      expect(reads).toBeGreaterThan(4);
      expect(faults).toEqual([]);
      // After the hand: its cards and winners stay, the pot does not (the chips went to the winners).
      for (const player of [desk, phone]) {
        expect(await player.page.getByTestId('pots').innerText()).toBe('');
        expect(await layoutFaults(player.page, chromeLimit(player))).toEqual([]);
      }
      await screenshot(desk.page, `family-${game}.png`);
      await screenshot(phone.page, `family-${game}-phone.png`);

      // The words of the table: a tab named by the table only; no button and no blinds at stud.
      for (const player of [desk, phone]) {
        const page = player.page;
        const tab = page.getByRole('tab', { selected: true });
        expect(await tab.innerText()).toMatch(new RegExp(`^Layout ${game}( • your turn)?$`));
        // Stud and Telesina: antes and a bring-in.
        const stud = gameFamily(game) === 'stud';
        expect(await page.locator('.table-screen .dealer-button').count()).toBe(stud ? 0 : 1);
        expect(await page.getByLabel('Auto-post blinds').count()).toBe(stud ? 0 : 1);
      }
      for (const player of [desk, phone]) await player.context.close();
    }, 240_000);
  }

  it('the time bank, once the action clock has run out, says "Time bank", has a colour of its own and counts down', async () => {
    const ann = await signUp(room, 'ann', DESKTOP);
    const bob = await signUp(room, 'bob', PHONE);
    await sit(ann, TIME_BANK_TABLE, 0);
    await sit(bob, TIME_BANK_TABLE, 1);
    const bar = (page: Page) => page.getByRole('region', { name: 'Your actions' }).getByRole('progressbar');
    const deadline = Date.now() + 60_000;
    let first: Player | null = null;
    while (first === null) {
      if (Date.now() > deadline) throw new Error('no decision offered');
      for (const player of [ann, bob]) if ((await bar(player.page).count()) > 0) first = player;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const clock = bar(first.page);
    const fill = () =>
      clock.locator('.clock-track > div').evaluate((node) => getComputedStyle(node).backgroundColor);
    expect(await clock.getAttribute('aria-label')).toBe('Action clock');
    expect(await clock.innerText()).toBe('');
    const clockColour = await fill();
    await expect.poll(() => clock.getAttribute('aria-label'), { timeout: 8_000 }).toBe('Time bank');
    const seconds = async () => Number(/^Time bank (\d+) s$/.exec(await clock.innerText())?.[1]);
    const before = await seconds();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(9);
    expect(await fill()).not.toBe(clockColour);
    expect(await clock.locator('.clock-text').evaluate((node) => getComputedStyle(node).color)).toBe(
      await fill(),
    );
    await screenshot(first.page, 'time-bank.png');
    await expect.poll(seconds, { timeout: 4_000 }).toBeLessThan(before);
    for (const player of [ann, bob]) await player.context.close();
  }, 120_000);
});
