/**
 * A sit & go in a real Chromium against the real `felt serve` (issue 20): three players register from
 * the tournament lobby (one unregisters and registers again), two `felt bots` bots fill it, the room
 * seats everybody and each page follows to its table, which shows the level, its blinds, the clock,
 * players left, the average stack and the player's rank. They play it to the end (levels of two hands,
 * the players all in from the third), and each page says its place — the prize where there is one —
 * as the results of the tournament page say. A watcher's tournament page shows the structure, payouts,
 * entrants with chips, the table and the results. The screenshots of the README come from here.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ordinal } from '../src/tournament';
import { e2eReady, parseHundredths, screenshot, signUp, tournamentRoom, type Player } from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e (tournament) skipped: ${ready.why}`);

/** Tournament chips are whole units (money is in cents): 1,500 chips to start, blinds 5/10 doubling. */
const LEVELS = [
  { blinds: { small: 5, big: 10 } },
  { blinds: { small: 10, big: 20 } },
  { blinds: { small: 15, big: 30 }, ante: 30, bigBlindAnte: true },
  { blinds: { small: 25, big: 50 }, ante: 50, bigBlindAnte: true },
  { blinds: { small: 50, big: 100 }, ante: 100, bigBlindAnte: true },
  { blinds: { small: 100, big: 200 }, ante: 200, bigBlindAnte: true },
  { blinds: { small: 200, big: 400 }, ante: 400, bigBlindAnte: true },
  { blinds: { small: 400, big: 800 }, ante: 800, bigBlindAnte: true },
];
const SNG_NAME = 'Turbo five';
const TOURNAMENTS = [
  {
    id: 'turbo5',
    definition: {
      name: SNG_NAME,
      kind: 'sit-and-go',
      games: [{ game: 'holdem', structure: 'no-limit' }],
      levels: LEVELS,
      levelLength: { unit: 'hands', value: 2 },
      breaks: { everyLevels: 4, minutes: 1 },
      startingChips: 1_500,
      minEntrants: 2,
      maxEntrants: 5,
      money: 'play',
      buyIn: 1000,
      fee: 100,
    },
    // Generous decisions for a slow machine; the results stay on the felt a moment between hands.
    clocks: { betweenHandsMs: 1500, actionMs: 60_000, timeBankMs: 0 },
  },
  {
    id: 'evening',
    definition: {
      name: 'Evening Deepstack',
      kind: 'scheduled',
      games: [{ game: 'holdem', structure: 'no-limit' }],
      levels: LEVELS,
      levelLength: { unit: 'minutes', value: 12 },
      breaks: { everyLevels: 4, minutes: 5 },
      startingChips: 5_000,
      minEntrants: 2,
      maxEntrants: 90,
      lateRegistrationLevels: 3,
      money: 'play',
      buyIn: 5000,
      fee: 500,
    },
    schedule: { startsAt: Date.now() + 3 * 3600_000 },
  },
  {
    // Dearer than a new account's 1,000 of play money: registering is refused.
    id: 'high',
    definition: {
      name: 'High Roller',
      kind: 'scheduled',
      games: [{ game: 'omaha', structure: 'pot-limit' }],
      levels: LEVELS,
      levelLength: { unit: 'minutes', value: 20 },
      startingChips: 10_000,
      minEntrants: 2,
      maxEntrants: 18,
      money: 'play',
      buyIn: 200_000,
      fee: 10_000,
    },
    schedule: { startsAt: Date.now() + 5 * 3600_000 },
  },
  {
    id: 'stud6',
    definition: {
      name: 'Stud six',
      kind: 'sit-and-go',
      games: [{ game: 'stud', structure: 'fixed-limit' }],
      levels: [
        { bringIn: 1, ante: 1, limits: { small: 4, big: 8 } },
        { bringIn: 2, ante: 1, limits: { small: 8, big: 16 } },
      ],
      levelLength: { unit: 'minutes', value: 8 },
      startingChips: 1_000,
      minEntrants: 2,
      maxEntrants: 6,
      money: 'play',
      buyIn: 200,
      fee: 20,
    },
  },
];

/** Conditions on the page are waited for generously: a busy machine is slow, never wrong. */
const POLL = { timeout: 30_000 };

const held = tournamentRoom(TOURNAMENTS);

const row = (page: Page, name: string) =>
  page.locator('.tournament-lobby tr[data-tournament-id]').filter({ hasText: name });

async function openTournaments(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Tournaments' }).click();
  await row(page, SNG_NAME).waitFor({ timeout: 30_000 });
}

/**
 * Check or call in the first two levels (chips change hands before anyone is out); from the third, all
 * in when he can bet or raise, else call, else check.
 */
async function play(page: Page): Promise<boolean> {
  const betting = page.getByRole('group', { name: 'Betting' });
  if (!(await betting.isVisible())) return false;
  const level = (await page.getByTestId('tournament-level').allInnerTexts())[0] ?? '';
  const allIn = betting.getByRole('button', { name: /^All in/ });
  if (!/^Level [12] /.test(level) && (await allIn.count()) > 0) {
    await allIn.click();
    await betting.locator('button.primary').last().click();
    return true;
  }
  for (const name of [/^Check/, /^Call/]) {
    const button = betting.getByRole('button', { name });
    if ((await button.count()) > 0) {
      await button.first().click();
      return true;
    }
  }
  return false;
}

describe.skipIf(!ready.ok)('web e2e: a sit & go played to the end in Chromium', () => {
  it('three players register from the lobby, follow the room to their table, see the level and their rank, and each is told his place and prize', async () => {
    const r = held.room();
    const players: Player[] = [];
    for (const name of ['ann', 'ben', 'cal']) players.push(await signUp(r, name));
    const [ann, ben, cal] = players as [Player, Player, Player];

    // The lobby: both kinds, filtered by kind and game.
    await openTournaments(ann.page);
    await expect.poll(() => ann.page.locator('.tournament-lobby tbody tr').count(), POLL).toBe(4);
    await ann.page.getByLabel('Kind').selectOption('scheduled');
    await expect.poll(() => ann.page.locator('.tournament-lobby tbody tr').count(), POLL).toBe(2);
    await expect.poll(() => row(ann.page, 'Evening Deepstack').count(), POLL).toBe(1);
    await ann.page.getByLabel('Kind').selectOption('');
    await ann.page.getByLabel('Game').selectOption('stud');
    await expect.poll(() => ann.page.locator('.tournament-lobby tbody tr').count(), POLL).toBe(1);
    await ann.page.getByLabel('Game').selectOption('');
    const sng = row(ann.page, SNG_NAME);
    const tournamentId = (await sng.getAttribute('data-tournament-id')) ?? '';
    expect(tournamentId).toMatch(/^turbo5@/);
    expect(await sng.innerText()).toMatch(
      /Sit & go[\s\S]*Texas Hold'em NL[\s\S]*10 \+ 1[\s\S]*0\/5[\s\S]*When full/,
    );

    // Register, unregister (buy-in and fee back), register again; a tournament he cannot afford says so.
    const balance = async (page: Page) => (await page.getByTestId('play-balance').innerText()).trim();
    const before = await balance(ann.page);
    await ann.page.getByRole('button', { name: 'Register for High Roller' }).click();
    expect(await ann.page.getByTestId('tournament-refusal').innerText()).toBe(
      'Your balance does not cover the buy-in and fee. (INSUFFICIENT_FUNDS)',
    );
    expect(await balance(ann.page)).toBe(before);
    await ann.page.getByRole('button', { name: `Register for ${SNG_NAME}` }).click();
    await sng.locator('.registered').waitFor();
    await expect.poll(() => balance(ann.page), POLL).not.toBe(before);
    await ann.page.getByRole('button', { name: `Unregister from ${SNG_NAME}` }).click();
    await ann.page.getByRole('button', { name: `Register for ${SNG_NAME}` }).waitFor();
    await expect.poll(() => balance(ann.page), POLL).toBe(before);
    await ann.page.getByRole('button', { name: `Register for ${SNG_NAME}` }).click();
    await sng.locator('.registered').waitFor();
    for (const p of [ben, cal]) {
      await openTournaments(p.page);
      await p.page.getByRole('button', { name: `Register for ${SNG_NAME}` }).click();
      await row(p.page, SNG_NAME).locator('.registered').waitFor();
    }
    await expect.poll(() => row(cal.page, SNG_NAME).innerText(), POLL).toContain('3/5');
    await screenshot(cal.page, 'tournament-lobby.png');

    // A watcher follows the tournament's page.
    const watcher = await signUp(r, 'wat');
    await openTournaments(watcher.page);
    await row(watcher.page, SNG_NAME)
      .getByRole('button', { name: `Open ${SNG_NAME}` })
      .click();
    const page = watcher.page.locator(`.tournament-page[data-tournament-id="${tournamentId}"]`);
    await page.getByRole('table', { name: 'Levels' }).waitFor();
    expect(await page.getByRole('table', { name: 'Entrants' }).innerText()).toContain(ann.name);

    // Two bots fill it: it starts, and each player's page goes to his table.
    const bots = held.bots(2, tournamentId);

    for (const p of players) {
      const table = p.page.locator(`.table-screen[data-table^="${tournamentId}-"]`);
      await table.waitFor({ timeout: 60_000 });
      const bar = p.page.getByTestId('tournament-bar');
      await bar.getByTestId('tournament-level').waitFor({ timeout: 30_000 });
      expect(await bar.getByTestId('tournament-level').innerText()).toMatch(
        /^Level \d+ · Blinds [\d,]+\/[\d,]+/,
      );
      expect(await bar.getByTestId('final-table').innerText()).toBe('Final table');
      await p.page.locator('.seat.me').waitFor({ timeout: 30_000 });
      // Everyone is dealt in at a tournament table: nobody sits out, blinds are forced.
      const seatControls = p.page.getByRole('group', { name: 'Your seat' });
      await seatControls.waitFor();
      expect(await seatControls.getByRole('button', { name: 'Sit out next hand' }).count()).toBe(0);
      expect(await seatControls.getByText('Auto-post blinds').count()).toBe(0);
    }
    expect(await ann.page.getByTestId('tournament-bar').innerText()).toMatch(
      /\d hands? to the next level[\s\S]*5 left[\s\S]*Average 1,500[\s\S]*Your rank \d of 5/,
    );
    await page.getByRole('heading', { name: 'Tables' }).waitFor({ timeout: 30_000 });

    // They play it out, all in from the third level. The first decision is the table's picture.
    let pictured = false;
    let pagePictured = false;
    const out = new Set<string>();
    const deadline = Date.now() + 8 * 60_000;
    while (out.size < players.length) {
      if (Date.now() > deadline)
        throw new Error(`the sit & go did not end; out: ${[...out].join(', ')}\n${bots.output()}`);
      for (const p of players) {
        if (out.has(p.name)) continue;
        if ((await p.page.getByTestId('tournament-out').count()) > 0) {
          out.add(p.name);
          continue;
        }
        if (!pictured && (await p.page.getByRole('group', { name: 'Betting' }).isVisible())) {
          await screenshot(p.page, 'tournament-table.png');
          pictured = true;
        }
        await play(p.page);
      }
      // The page's picture: once the stacks have moved (the third level), or at the first place decided.
      const pageLevel = page.getByTestId('page-level');
      if (
        !pagePictured &&
        ((await page.getByRole('table', { name: 'Results' }).count()) > 0 ||
          ((await pageLevel.count()) > 0 && !/^[12]:/.test(await pageLevel.innerText())))
      ) {
        await screenshot(watcher.page, 'tournament-page.png', true);
        pagePictured = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // The end: the page's results, and each player told his own place and prize (generous: on a loaded
    // machine the bots and three browsers share two cores).
    await page.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 300_000 });
    await expect
      .poll(() => page.getByRole('table', { name: 'Results' }).locator('tbody tr').count(), {
        timeout: 120_000,
      })
      .toBe(5);
    const results = await page
      .getByRole('table', { name: 'Results' })
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
      );
    // Places 1 to 5, players out in the same hand with equal stacks sharing theirs (docs/tournaments.md).
    const places = results.map((cells) => {
      const [, place = '0', tied = '1'] = /^(\d+)\D+(?: \(tied, (\d+)\))?$/.exec(cells[0] ?? '') ?? [];
      return { place: Number(place), tied: Number(tied) };
    });
    const covered = places.flatMap(({ place, tied }) => Array.from({ length: tied }, (_, i) => place + i));
    expect(new Set(covered)).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(places[0]).toEqual({ place: 1, tied: 1 });
    // The prizes paid are the pool: five buy-ins of 10.
    const prizes = results.map((cells) => (cells[2] === '—' ? 0 : parseHundredths(cells[2] ?? '')));
    expect(prizes.reduce((sum, prize) => sum + prize, 0)).toBe(5 * 1000);
    for (const p of players) {
      const index = results.findIndex((cells) => cells[1] === p.name);
      expect(index, `${p.name} in the results`).toBeGreaterThanOrEqual(0);
      const { place, tied } = places[index]!;
      const told = await p.page.getByTestId('tournament-out').innerText();
      const shared = tied > 1 ? ` (shared by ${String(tied)} players)` : '';
      expect(told).toContain(
        place === 1 ? 'You won the tournament!' : `You finished ${ordinal(place)}${shared}.`,
      );
      const prize = results[index]![2];
      expect(told).toContain(prize === '—' ? 'No prize this time.' : `Your prize: ${prize ?? ''}.`);
    }
    expect(await bots.exited, bots.output()).toBe(0);
    if (!pictured) throw new Error('no decision to picture');
    if (!pagePictured) await screenshot(watcher.page, 'tournament-page.png', true);
  }, 600_000);
});
