/**
 * A player moved between tables in a real Chromium against the real `felt serve`: a four-player
 * tournament at tables of three seats is dealt at two tables of two. The browser player lets the action
 * clock answer for him at first, so his table deals a hand now and then while the bots' table deals
 * hand after hand: its levels (counted in hands at any table) bring the blinds up until a bot is out.
 * The three left fit one table, and the final table is drawn: his page says he was moved, closes the
 * table he left, follows him to his new table and deals him in there, where he plays on.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eReady, screenshot, signUp, tournamentRoom } from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e (tournament moves) skipped: ${ready.why}`);

const NAME = 'Two tables';
/** Time enough for the browser to sign up and register, and the bots to fill it, on a loaded machine. */
const STARTS_AT = Date.now() + 45_000;
const TOURNAMENTS = [
  {
    id: 'two',
    definition: {
      name: NAME,
      kind: 'scheduled',
      games: [{ game: 'holdem', structure: 'no-limit' }],
      // Levels of three hands: the bots' table reaches the last in about fifteen hands.
      levels: [
        { blinds: { small: 10, big: 20 } },
        { blinds: { small: 25, big: 50 } },
        { blinds: { small: 50, big: 100 } },
        { blinds: { small: 100, big: 200 } },
        { blinds: { small: 200, big: 400 } },
      ],
      levelLength: { unit: 'hands', value: 3 },
      seats: 3,
      startingChips: 1_500,
      minEntrants: 2,
      maxEntrants: 4,
      money: 'play',
      buyIn: 100,
      fee: 10,
    },
    schedule: { startsAt: STARTS_AT },
    // The bots answer in a fraction of a second; the player's clock runs 30 s when he lets it.
    clocks: { betweenHandsMs: 500, actionMs: 30_000, timeBankMs: 0 },
  },
];
/** Conditions on the page are waited for generously: a busy machine is slow, never wrong. */
const POLL = { timeout: 60_000 };

const held = tournamentRoom(TOURNAMENTS);

/** Checks when he can, else folds; whether he had a decision. */
async function checkOrFold(page: Page): Promise<boolean> {
  const betting = page.getByRole('group', { name: 'Betting' });
  if (!(await betting.isVisible())) return false;
  for (const name of [/^Check/, /^Fold/]) {
    const button = betting.getByRole('button', { name });
    if ((await button.count()) > 0) {
      await button.first().click();
      return true;
    }
  }
  return false;
}

/** The id of the table on his screen. */
const shownTable = async (page: Page) =>
  (await page.locator('.table-screen').first().getAttribute('data-table')) ?? '';

describe.skipIf(!ready.ok)('web e2e: a tournament player moved to another table in Chromium', () => {
  it('moved when his table is broken for the final table: his page says so, follows him to his new table, and deals him in there', async () => {
    const r = held.room();
    const ann = await signUp(r, 'ann');
    const page = ann.page;
    await page.getByRole('tab', { name: 'Tournaments' }).click();
    const row = page.locator('.tournament-lobby tr[data-tournament-id]').filter({ hasText: NAME });
    const tournamentId = (await row.getAttribute('data-tournament-id', POLL)) ?? '';
    await page.getByRole('button', { name: `Register for ${NAME}` }).click();
    await row.locator('.registered').waitFor(POLL);

    const bots = held.bots(3, tournamentId);

    // At its time it starts at two tables of two: his is one of them, not yet the final table.
    await page
      .locator(`.table-screen[data-table^="${tournamentId}-"]`)
      .waitFor({ timeout: STARTS_AT - Date.now() + POLL.timeout });
    const first = await shownTable(page);
    const bar = page.getByTestId('tournament-bar');
    await expect.poll(() => bar.innerText(), POLL).toMatch(/Table [12][\s\S]*4 left/);
    expect(await bar.getByTestId('final-table').count()).toBe(0);

    // He leaves his decisions to the clock (check, else fold) until the room moves him.
    const notice = page.getByTestId('moved-notice');
    const deadline = Date.now() + 6 * 60_000;
    while (!(await notice.isVisible())) {
      if ((await page.getByTestId('tournament-out').count()) > 0)
        throw new Error(`he went out before the final table\n${bots.output()}`);
      if (Date.now() > deadline) throw new Error(`he was never moved\n${bots.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    // The final table keeps the lowest number and is a table of its own: his page shows it alone.
    const moved = await shownTable(page);
    expect(moved).toBe(`${tournamentId}-1-2`);
    expect(moved).not.toBe(first);
    expect(await notice.innerText()).toMatch(/^The final table is drawn: you are at table 1\./);
    await expect.poll(() => page.locator(`.table-screen[data-table="${first}"]`).count(), POLL).toBe(0);
    await bar.getByTestId('final-table').waitFor(POLL);
    await expect.poll(() => bar.innerText(), POLL).toMatch(/3 left/);
    await page.locator('.seat.me').waitFor(POLL);

    // He plays on there: dealt in, offered decisions, his answers taken (the betting buttons go, or the
    // hand moves on to its next round).
    const betting = page.getByRole('group', { name: 'Betting' });
    const caption = () => page.locator('.hand-no').first().innerText();
    let pictured = false;
    for (let decisions = 0; decisions < 2;) {
      if (Date.now() > deadline + 2 * 60_000)
        throw new Error(`no decisions at the new table\n${bots.output()}`);
      if ((await page.getByTestId('tournament-out').count()) > 0) break;
      if (await betting.isVisible()) {
        expect(await shownTable(page)).toBe(moved);
        if (!pictured) {
          await screenshot(page, 'tournament-moved.png');
          pictured = true;
        }
        const before = await caption();
        if (await checkOrFold(page)) {
          decisions++;
          await expect
            .poll(async () => !(await betting.isVisible()) || (await caption()) !== before, POLL)
            .toBe(true);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pictured).toBe(true);
    // The notice stays until he has read it.
    await notice.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => notice.count(), POLL).toBe(0);
    await ann.context.close();
  }, 600_000);
});
