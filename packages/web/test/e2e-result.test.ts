/**
 * The end of a hand as a regular expects it, in a real Chromium against the real `felt serve`, on a
 * desktop (1366×820) and a phone (390×844): the winning five cards highlighted on the felt, the hands
 * named by the seats, the chips going to the winner (not under reduced motion); the hand replayed on a
 * table like the live one, in money, ending with the pot paid to the winner and his hand named, with
 * step, play and speed controls whose icons are drawn; and the lobby's preview of who sits at a table.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  e2eReady,
  playHand,
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
const TABLE = 'e2e-result';
const TABLES = [
  {
    id: TABLE,
    name: "Hold'em NL result",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 50, big: 100 },
    currency: 'play',
    // Time enough after the hand for bob to sit out, so that no hand follows and it stays on the table.
    clocks: { betweenHandsMs: 20_000 },
  },
];

/** The live table's stacks by seat, as the page shows them. */
async function tableStacks(page: Page): Promise<Record<string, string>> {
  const stacks: Record<string, string> = {};
  for (const seat of await page.locator('.table-screen .oval-wrap .seat[data-name]').all()) {
    const name = (await seat.getAttribute('data-name')) ?? '';
    stacks[name] = await seat.locator('.stack').innerText();
  }
  return stacks;
}

/** The winner's seat on the felt: his name, his hand's name, and the cards highlighted on the table. */
async function feltResult(page: Page) {
  const oval = page.locator('.table-screen .oval-wrap');
  const winners = oval.locator('.seat.won');
  await expect.poll(() => winners.count(), { timeout: 30_000 }).toBeGreaterThan(0);
  const names = await winners.evaluateAll((seats) =>
    seats.map((seat) => seat.getAttribute('data-name') ?? ''),
  );
  const handNames = await winners.locator('.hand-name').allInnerTexts();
  const highlighted = await oval.locator('[data-best="true"] svg[data-card]').evaluateAll((cards) =>
    cards.map((card) => ({
      card: card.getAttribute('data-card') ?? '',
      where: card.closest('.seat')?.getAttribute('data-name') ?? 'board',
    })),
  );
  return { names, handNames, highlighted };
}

describe.skipIf(!ready.ok)(
  'the result of a hand, its replay and the lobby preview (headless Chromium)',
  () => {
    let room: Room;
    let alice: Player;
    let bob: Player;
    /** By name: the stacks the felt shows once the hand's pots are paid. */
    let paidStacks: Record<string, string> = {};
    /** What the felt showed of the result, for the replayer's last step to show the same. */
    let live: Awaited<ReturnType<typeof feltResult>>;

    beforeAll(async () => {
      room = await startRoom(TABLES);
    }, 60_000);

    afterAll(async () => {
      await room.stop();
    });

    it('the winning five cards are highlighted, the hand named by the winner, and the chips go to him', async () => {
      alice = await signUp(room, 'alice', DESKTOP);
      bob = await signUp(room, 'bob', PHONE);
      await sit(alice, TABLE, 0);
      await sit(bob, TABLE, 1);
      // Played down passively: the board is dealt to the river and the winner shows his hand.
      await playHand([alice, bob], { afterHand: 0 });
      paidStacks = await tableStacks(alice.page);
      live = await feltResult(alice.page);
      for (const player of [alice, bob]) {
        const page = player.page;
        const result = await feltResult(page);
        const panel = await page.getByTestId('results').innerText();
        expect(result.handNames).toHaveLength(result.names.length);
        for (const [index, name] of result.names.entries()) {
          // The hand named by the winner's seat is the one the server's summary names for him.
          expect(panel).toContain(`${name}: ${result.handNames[index]!}`);
          expect(panel).toMatch(new RegExp(`${name} wins [\\d,.]+`));
        }
        // A single winner: his best five, from the board and his own two; a split: each winner's.
        if (result.names.length === 1) expect(result.highlighted).toHaveLength(5);
        else expect(result.highlighted.length).toBeGreaterThanOrEqual(5);
        for (const card of result.highlighted) expect(['board', ...result.names]).toContain(card.where);
        expect(new Set(result.highlighted.map((card) => card.card)).size).toBe(result.highlighted.length);
        // The chips move to each winner (a CSS animation), and not at all under reduced motion.
        const chips = page.locator('.chips-to-winner');
        expect(await chips.count()).toBe(result.names.length);
        expect(await chips.first().evaluate((node) => getComputedStyle(node).animationName)).toBe(
          'chips-to-winner',
        );
        await page.emulateMedia({ reducedMotion: 'reduce' });
        expect(await chips.first().evaluate((node) => getComputedStyle(node).display)).toBe('none');
        await page.emulateMedia({ reducedMotion: 'no-preference' });
      }
      for (const page of [alice.page, bob.page]) {
        // The pictures after the chips arrived, the table at the top of the page.
        await page.evaluate(() => {
          window.scrollTo(0, 0);
        });
        await page.waitForFunction(() =>
          document
            .getAnimations()
            .every(
              (a) =>
                !(a instanceof CSSAnimation) ||
                a.animationName !== 'chips-to-winner' ||
                a.playState !== 'running',
            ),
        );
      }
      await screenshot(alice.page, 'result-on-felt.png');
      await screenshot(bob.page, 'result-on-felt-phone.png');
    }, 180_000);

    it('the hand replays on a table: step, play and speed, money as money, the pot paid to the named winner', async () => {
      for (const [player, viewport] of [
        [alice, DESKTOP],
        [bob, PHONE],
      ] as const) {
        const page = player.page;
        const blinds = /· ([\d.]+)\/([\d.]+) play money/.exec(
          await page.locator('.table-head .meta').innerText(),
        );
        await page.getByRole('button', { name: 'Hand history' }).click();
        await page.locator('.panel .log button').first().click();
        const replayer = page.getByRole('dialog', { name: /^Replay of hand/ });
        await replayer.waitFor();
        // Every control has a drawn icon (inline SVG), not a font glyph that may be missing.
        const controls = replayer.getByRole('group', { name: 'Replay controls' });
        for (const name of ['First step', 'Previous step', 'Play', 'Next step', 'Last step']) {
          const icon = controls.getByRole('button', { name, exact: true }).locator('svg path');
          expect(await icon.count()).toBe(1);
          const box = await icon.boundingBox();
          expect(box!.width).toBeGreaterThan(6);
          expect(box!.height).toBeGreaterThan(6);
        }
        const step = replayer.getByTestId('replay-step');
        const total = Number(/\/ (\d+)$/.exec(await step.innerText())?.[1]);
        expect(total).toBeGreaterThan(8);
        expect(await step.innerText()).toBe(`1 / ${total}`);
        // The blinds in front of the seats, in money as the table names its stakes.
        expect((await replayer.locator('.bet').allInnerTexts()).sort()).toEqual([blinds![1], blinds![2]]);
        await controls.getByRole('button', { name: 'Next step' }).click();
        await expect.poll(() => step.innerText()).toBe(`2 / ${total}`);
        await controls.getByRole('button', { name: 'Previous step' }).click();
        await expect.poll(() => step.innerText()).toBe(`1 / ${total}`);
        // The arrow keys step too.
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => step.innerText()).toBe(`2 / ${total}`);
        await page.keyboard.press('ArrowLeft');
        await expect.poll(() => step.innerText()).toBe(`1 / ${total}`);
        // Played at 4×, it runs to the end by itself and stops there.
        await replayer.getByLabel('Speed').selectOption('4');
        await controls.getByRole('button', { name: 'Play', exact: true }).click();
        await expect.poll(() => step.innerText(), { timeout: 60_000 }).toBe(`${total} / ${total}`);
        await expect.poll(() => controls.getByRole('button', { name: 'Play', exact: true }).count()).toBe(1);
        // The last step: the pot paid — the stacks are the table's after the hand — the winners named.
        const line = await replayer.getByTestId('replay-line').innerText();
        for (const [index, name] of live.names.entries())
          expect(line).toMatch(new RegExp(`${name} wins [\\d,.]+ with ${live.handNames[index]!}`));
        for (const seat of await replayer.locator('.seat[data-name]').all()) {
          const name = (await seat.getAttribute('data-name')) ?? '';
          expect(await seat.locator('.stack').innerText()).toBe(paidStacks[name]);
        }
        // The winners, in the seats' order on the page (which need not be the live list's).
        const won = await replayer
          .locator('.seat.won')
          .evaluateAll((s) => s.map((e) => e.getAttribute('data-name') ?? ''));
        expect([...won].sort()).toEqual([...live.names].sort());
        const wonNames = await replayer.locator('.seat.won .hand-name').allInnerTexts();
        expect(wonNames).toEqual(won.map((name) => live.handNames[live.names.indexOf(name)]));
        expect(await replayer.getByTestId('replay-pot').innerText()).toBe('Pot 0');
        const best = await replayer
          .locator('[data-best="true"] svg[data-card]')
          .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-card')));
        expect(best.sort()).toEqual(live.highlighted.map((card) => card.card).sort());
        // The replayer fits the screen: nothing off to the side, its controls above the fold.
        const dialog = await replayer.boundingBox();
        expect(dialog!.x).toBeGreaterThanOrEqual(0);
        expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(viewport.width + 1);
        const bar = await controls.boundingBox();
        expect(bar!.y + bar!.height).toBeLessThanOrEqual(viewport.height + 1);
        await screenshot(page, viewport === PHONE ? 'replayer-phone.png' : 'replayer.png');
        if (viewport === PHONE) await replayer.getByRole('button', { name: 'Close' }).click();
        else await page.keyboard.press('Escape');
        await replayer.waitFor({ state: 'detached' });
      }
    }, 180_000);

    it('the lobby previews who sits at a table, with their stacks, on hover and on a tap', async () => {
      const carol = await signUp(room, 'carol', DESKTOP);
      const row = carol.page.locator(`.lobby-table tr[data-table-id="${TABLE}"]`);
      const seats = row.getByRole('button', { name: /^Who sits at / });
      await expect.poll(() => seats.innerText()).toMatch(/^2\/\d+/);
      const preview = row.getByRole('region', { name: /^Who sits at / });
      const heading = carol.page.getByRole('heading', { name: 'Lobby' });
      /**
       * The preview opened afresh (`open`), beside what alice's table shows at that moment: the table
       * plays on (hands time out), so a hand may move chips between the two readings; the poll asks again.
       */
      const compare = async (open: () => Promise<void>, close: () => Promise<void>) => {
        await open();
        await preview.getByTestId('preview-seat').first().waitFor();
        const shown = await preview
          .getByTestId('preview-seat')
          .evaluateAll((items) =>
            items.map((item) => [
              item.querySelector('.preview-name')?.firstChild?.textContent ?? '',
              item.querySelector('.preview-stack')?.textContent ?? '',
            ]),
          );
        const table = await tableStacks(alice.page);
        await close();
        await preview.waitFor({ state: 'detached' });
        return { shown, table: [alice.name, bob.name].map((name) => [name, table[name]]) };
      };
      // On a desktop a hover opens it, and leaving the row closes it.
      await expect
        .poll(
          async () => {
            const { shown, table } = await compare(
              () => seats.hover(),
              () => heading.hover(),
            );
            return JSON.stringify(shown) === JSON.stringify(table) ? shown : { shown, table };
          },
          { timeout: 60_000 },
        )
        .toEqual([
          [alice.name, expect.stringMatching(/^[\d,.]+$/) as string],
          [bob.name, expect.stringMatching(/^[\d,.]+$/) as string],
        ]);
      await seats.hover();
      await preview.getByTestId('preview-seat').first().waitFor();
      await screenshot(carol.page, 'lobby-preview.png');
      await heading.hover();
      await preview.waitFor({ state: 'detached' });
      // On a phone there is no hover: a tap opens it and keeps it open, a second tap closes it.
      await carol.page.setViewportSize(PHONE);
      await expect
        .poll(
          async () => {
            const { shown, table } = await compare(
              async () => {
                await seats.click();
                const box = await preview.boundingBox();
                expect(box!.x).toBeGreaterThanOrEqual(0);
                expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width + 1);
              },
              () => seats.click(),
            );
            return JSON.stringify(shown) === JSON.stringify(table);
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      // The watcher did not start watching the table: no table opened in his page.
      expect(await carol.page.locator('.table-screen').count()).toBe(0);
    }, 120_000);
  },
);
