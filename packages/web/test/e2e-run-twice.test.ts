/**
 * Run it twice in a real Chromium against the real `felt serve`, on a desktop (1366×820) and a phone
 * (390×844): both players all in before the flop at a table that offers it, each agrees in his action
 * bar, and the felt shows two boards; the summary and the hand log name both, and no chip is lost.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  e2eReady,
  parseHundredths,
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
const TABLE = 'e2e-run-twice';
const TABLES = [
  {
    id: TABLE,
    name: "Hold'em NL run it twice",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 50, big: 100 },
    currency: 'play',
    runItTwice: true,
    // The first hand soon; time enough for both to agree.
    clocks: { betweenHandsMs: 3_000, runTwiceMs: 30_000 },
  },
];

/** All in when he can, else call: a shove and a call put both all in before the flop. */
async function shoveOrCall(page: Page): Promise<boolean> {
  const betting = page.getByRole('group', { name: 'Betting' });
  if (!(await betting.isVisible())) return false;
  const allIn = betting.getByRole('button', { name: /^All in/ });
  if ((await allIn.count()) > 0) {
    await allIn.click();
    await betting.locator('button.primary').last().click();
    return true;
  }
  await betting.getByRole('button', { name: /^Call/ }).first().click();
  return true;
}

/** The cards of a board row on the felt, by its label. */
const boardCards = (page: Page, label: string): Promise<string[]> =>
  page
    .locator('.oval-wrap')
    .getByRole('group', { name: label, exact: true })
    .locator('svg[data-card]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card') ?? ''));

describe.skipIf(!ready.ok)('run it twice at the table (headless Chromium)', () => {
  let room: Room;
  let players: Player[];

  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);

  afterAll(async () => {
    await room.stop();
  });

  it('all in with the board to come: both are asked, both agree, and the felt shows two boards', async () => {
    const alice = await signUp(room, 'alice', DESKTOP);
    const bob = await signUp(room, 'bob', PHONE);
    players = [alice, bob];
    await sit(alice, TABLE, 0);
    await sit(bob, TABLE, 1);
    const offer = (page: Page) => page.getByRole('group', { name: 'Run it twice' });
    const deadline = Date.now() + 60_000;
    while (!(await offer(alice.page).isVisible()) || !(await offer(bob.page).isVisible())) {
      if (Date.now() > deadline) throw new Error('no run-it-twice offer');
      for (const player of players) await shoveOrCall(player.page);
    }
    // Nothing of the board is dealt while the players are asked.
    expect(await boardCards(alice.page, 'Board')).toEqual([]);
    expect(await offer(bob.page).innerText()).toMatch(/Run it twice\? \(\d+ s\)/);
    for (const player of players)
      await offer(player.page).getByRole('button', { name: 'Run it twice' }).click();
    // No hand follows: the two boards stay on the table.
    await bob.page.getByRole('button', { name: 'Sit out next hand' }).click();

    for (const player of players) {
      const page = player.page;
      await page.locator('[data-testid="results"] h3').waitFor({ timeout: 30_000 });
      const first = await boardCards(page, 'First board');
      const second = await boardCards(page, 'Second board');
      expect(first).toHaveLength(5);
      expect(second).toHaveLength(5);
      // All in before the flop: the runs share no card, and no card is dealt twice.
      expect(new Set([...first, ...second]).size).toBe(10);
      // The hand's summary (folded away under the table) names both boards.
      const summary = (await page.locator('.table-screen').textContent()) ?? '';
      expect(summary).toContain(
        `Run twice: first board ${first.join(' ')}, second board ${second.join(' ')}`,
      );
      const log = (await page.getByTestId('hand-log').textContent()) ?? '';
      expect(log).toContain('Everybody agreed: the board is run twice');
      expect(log).toMatch(/wins [\d,.]+ from the main pot on the (first|second) board/);
      // Every chip is back in a stack: the pot went to the runs' winners.
      const stacks = await page.locator('[data-testid^="stack-"]').allTextContents();
      expect(stacks.reduce((sum, text) => sum + parseHundredths(text), 0)).toBe(alice.buyIn + bob.buyIn);
    }
    await screenshot(alice.page, 'run-twice-desktop.png');
    await screenshot(bob.page, 'run-twice-phone.png');
  }, 180_000);
});
