/**
 * A heads-up sit & go in a real Chromium against the real `felt serve`: under the tournament bar a
 * player is offered the rebuy the tournament sells (its price and chips) and buys it, and at the final
 * table one proposes an ICM deal that the other sees with each prize and accepts: the tournament is
 * over, each told his place.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eReady, signUp, tournamentRoom } from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e (tournament actions) skipped: ${ready.why}`);

const NAME = 'Duo';
const WINDOW = { fromLevel: 0, untilLevel: 1 };
const TOURNAMENTS = [
  {
    id: 'duo',
    definition: {
      name: NAME,
      kind: 'sit-and-go',
      games: [{ game: 'holdem', structure: 'no-limit' }],
      levels: [{ blinds: { small: 5, big: 10 } }, { blinds: { small: 10, big: 20 } }],
      levelLength: { unit: 'hands', value: 50 },
      startingChips: 1_500,
      minEntrants: 2,
      maxEntrants: 2,
      money: 'play',
      buyIn: 1000,
      fee: 100,
      rebuy: { cost: 1000, fee: 100, chips: 1_500, maxPerPlayer: 1, maxStack: 3_000, window: WINDOW },
    },
    // Nobody acts: each decision times out (check or fold) in a second.
    clocks: { betweenHandsMs: 500, actionMs: 1_000, timeBankMs: 0 },
  },
];
const POLL = { timeout: 30_000 };
const held = tournamentRoom(TOURNAMENTS);

const balance = async (page: Page) => (await page.getByTestId('play-balance').innerText()).trim();

describe.skipIf(!ready.ok)('web e2e: a rebuy and a final-table deal in Chromium', () => {
  it('a player buys the rebuy offered under the bar; one proposes an ICM deal, the other accepts it, and the tournament is over with each told his place', async () => {
    const r = held.room();
    const ann = await signUp(r, 'ann');
    const ben = await signUp(r, 'ben');
    for (const p of [ann, ben]) {
      await p.page.getByRole('tab', { name: 'Tournaments' }).click();
      await p.page.getByRole('button', { name: `Register for ${NAME}` }).click();
    }
    for (const p of [ann, ben]) await p.page.getByTestId('tournament-bar').waitFor(POLL);

    const rebuy = ann.page.getByRole('button', { name: 'Rebuy 10 + 1 for 1,500 chips' });
    await rebuy.waitFor(POLL);
    const before = await balance(ann.page);
    await rebuy.click();
    await expect.poll(() => balance(ann.page), POLL).not.toBe(before);
    // One rebuy per player: it is no longer offered.
    await expect.poll(() => rebuy.count(), POLL).toBe(0);
    expect(await ann.page.getByTestId('tournament-action-refusal').count()).toBe(0);

    await ann.page.getByRole('button', { name: 'Propose ICM' }).click();
    const deal = ben.page.getByRole('region', { name: 'Deal' });
    await deal.waitFor(POLL);
    const accept = deal.getByRole('button', { name: 'Accept' });
    await expect.poll(() => accept.isEnabled(), POLL).toBe(true);
    expect(await deal.innerText()).toMatch(/ICM deal proposed[\s\S]*ann[\s\S]*ben/);
    await accept.click();

    for (const p of [ann, ben])
      await expect
        .poll(() => p.page.getByTestId('tournament-bar').innerText(), POLL)
        .toMatch(/The tournament is over/);
    const told = [
      await ann.page.getByTestId('tournament-bar').innerText(),
      await ben.page.getByTestId('tournament-bar').innerText(),
    ].join('\n');
    expect(told).toContain('You won the tournament!');
    expect(told).toContain('You finished 2nd.');
    for (const p of [ann, ben]) await p.context.close();
  }, 120_000);
});
