/**
 * Practice tables in a real headless Chromium against the real `felt serve`: a newcomer signs up and,
 * with nobody else in the room, plays a hand to the end at a practice table of each game family — the
 * board games (no-limit hold'em), stud (7-card stud, limit) and draw (5-card draw, limit) — against the
 * house bots, which sit down as he opens each table and are marked as bots. Each decision checks that he
 * sees his own cards face up and that the chips on the table (stacks + pot) stay the same through the
 * hand. A screenshot of the no-limit table shows it named by its blinds.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chipsOnTable,
  e2eReady,
  passivePolicy,
  screenshot,
  seatCards,
  signUp,
  startRoom,
  type Player,
  type Room,
} from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e (practice) skipped: ${ready.why}`);

const practice = (id: string, name: string, game: string, structure: string) => ({
  id,
  name,
  game,
  structure,
  stakes: { small: 100, big: 200 },
  currency: 'play',
  houseBots: 3,
});

/** One table per family, as the default set names its practice tables. */
const FAMILIES = [
  practice('practice-holdem', "No Limit Hold'em 0.50/1 (practice)", 'holdem', 'no-limit'),
  practice('practice-stud', 'Limit 7-card Stud 1/2 (practice)', 'stud', 'fixed-limit'),
  practice('practice-draw5', 'Limit 5-card Draw 1/2 (practice)', 'draw5', 'fixed-limit'),
];

const resultNumber = async (page: Page): Promise<number> => {
  const title = page.locator('[data-testid="results"] h3');
  if ((await title.count()) === 0) return 0;
  return Number(/#(\d+)/.exec((await title.first().textContent()) ?? '')?.[1] ?? 0);
};

/**
 * Plays passively until the result of a hand he acted in is shown; returns the seconds from sitting
 * down to that result and the decisions taken.
 */
async function playOneHand(page: Page, timeoutMs = 120_000): Promise<{ seconds: number; decisions: number }> {
  const started = Date.now();
  let before = await resultNumber(page);
  let decisions = 0;
  let chips: number | null = null;
  for (;;) {
    if (Date.now() - started > timeoutMs) throw new Error(`no hand finished (${decisions} decisions)`);
    const shown = await resultNumber(page);
    if (shown > before) {
      if (decisions > 0) return { seconds: (Date.now() - started) / 1000, decisions };
      before = shown; // a hand he was not in
      chips = null;
    }
    const deciding = (await page.getByRole('group', { name: /^(Betting|Draw|Split offer)$/ }).count()) > 0;
    if (deciding) {
      const me = Number(await page.locator('.seat.me').getAttribute('data-seat'));
      const own = (await seatCards(page)).find((entry) => entry.seat === me);
      expect(own?.codes.length ?? 0).toBeGreaterThan(0);
      expect(own?.codes.every((code) => code !== '??')).toBe(true);
      const now = await chipsOnTable(page);
      chips ??= now.stacks + now.pot;
      expect(now.stacks + now.pot).toBe(chips);
      if (await passivePolicy(page, {} as Player)) decisions++;
    }
    await new Promise((r) => setTimeout(r, 80));
  }
}

describe.skipIf(!ready.ok)(
  'practice tables in Chromium: a newcomer plays a hand of each family against house bots',
  () => {
    let room: Room;
    beforeAll(async () => {
      room = await startRoom(FAMILIES);
    }, 60_000);
    afterAll(async () => {
      await room.stop();
    });

    it('signs up, sits at each practice table, plays a hand to the end; bots are there and marked', async () => {
      const player = await signUp(room, 'newcomer');
      const page = player.page;
      const figures: string[] = [];
      for (const table of FAMILIES) {
        await page.getByRole('tab', { name: 'Lobby' }).click();
        const row = page.locator(`.lobby-table tr[data-table-id="${table.id}"]`);
        await expect.poll(() => row.innerText()).toContain(table.name);
        await row.getByRole('button', { name: /^(Open|Go to)/ }).click();
        await page.locator(`.table-screen[data-table="${table.id}"]`).waitFor();
        // The house bots sit down once he watches: three seats taken by players named as bots.
        await expect
          .poll(async () => await page.locator('.seat[data-name^="Bot "]').count(), { timeout: 15_000 })
          .toBe(3);
        const free = page.getByRole('button', { name: /^Sit at seat \d+$/ });
        await free.last().click();
        await page.getByRole('button', { name: 'Take seat' }).click();
        await page.locator('.seat.me').waitFor();
        const played = await playOneHand(page);
        figures.push(`${table.game} ${played.seconds.toFixed(1)} s (${played.decisions} decisions)`);
        if (table.structure === 'no-limit') {
          expect(await page.locator('.table-head h2').textContent()).toBe(table.name);
          await screenshot(page, 'practice-no-limit-holdem.png');
        }
        await page.getByRole('button', { name: 'Leave seat' }).click();
        await page.locator('.seat.me').waitFor({ state: 'detached' });
      }
      console.log(`practice: from sitting down to the end of his hand: ${figures.join(', ')}`);
    }, 420_000);
  },
);
