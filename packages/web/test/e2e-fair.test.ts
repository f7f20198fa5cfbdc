/**
 * Provably fair dealing in a real headless Chromium against the real `felt serve` (docs/fairness.md,
 * docs/web.md): each page contributes to the hands by itself, the table shows the hand's commitment
 * and the player's own contribution as used, and after a hand of 2-7 triple draw (a game that burns
 * nothing) played to the showdown standing pat, every card shown (the secret is revealed to its
 * players at once), the hand history's Verify view checks it in the browser and says that every check
 * passed; for the next hand, folded, it says that the secret is not revealed yet.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  e2eReady,
  passivePolicy,
  playHand,
  screenshot,
  signUp,
  sit,
  startRoom,
  type Player,
  type Policy,
  type Room,
} from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e skipped: ${ready.why}`);

const TABLE = 'e2e-fair';
const TABLES = [
  {
    id: TABLE,
    name: '2-7 Triple Draw',
    game: 'triple-draw-27',
    structure: 'fixed-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
    clocks: { betweenHandsMs: 5000 },
  },
];

/** Turns "muck losing hands" off, so that he shows at the showdown whatever he holds. */
async function showAlways(player: Player): Promise<void> {
  const box = player.page.getByLabel('Muck losing hands');
  await expect.poll(() => box.isChecked()).toBe(true);
  await box.click();
  await expect.poll(() => box.isChecked()).toBe(false);
}

/** Stands pat at every draw: a discard is never shown, and would keep the secret a day. */
const standPat: Policy = async (page, player) => {
  const draw = page.getByRole('group', { name: 'Draw' });
  if (!(await draw.isVisible())) return passivePolicy(page, player);
  await draw.getByRole('button', { name: 'Stand pat' }).click();
  return true;
};

/** A hand opened in the history shows its replayer over the page first. */
async function closeReplayer(page: Page): Promise<void> {
  const replayer = page.getByRole('dialog', { name: /^Replay of hand/ });
  await replayer.getByRole('button', { name: 'Close' }).click();
  await replayer.waitFor({ state: 'detached' });
}

describe.skipIf(!ready.ok)('fair dealing in the browser (headless Chromium, real server)', () => {
  let room: Room;

  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);

  afterAll(async () => {
    await room.stop();
  });

  it('a player plays a hand to the showdown, opens its history, and the Verify view says every check passed', async () => {
    const alice = await signUp(room, 'alice');
    await sit(alice, TABLE, 0);
    await showAlways(alice);
    // Seated, her page contributes to the next hand by itself.
    await expect
      .poll(() => alice.page.getByTestId('fair-next').innerText())
      .toMatch(/Next hand: commitment [0-9a-f]{16}… · your contribution sent/);
    const bob = await signUp(room, 'bob');
    await sit(bob, TABLE, 1);
    await showAlways(bob);

    // The hand shows its commitment from its start; alice's contribution (sent before it) is used.
    const fair = alice.page.getByTestId('fair-deal');
    await expect
      .poll(() => fair.innerText(), { timeout: 20_000 })
      .toMatch(/Hand #1 commitment [0-9a-f]{16}…/);
    await expect.poll(() => fair.innerText()).toMatch(/yours used [0-9a-f]{16}…/);
    const commitment = await alice.page.getByTestId('fair-commitment').getAttribute('title');
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    // Both pages show the same commitment.
    expect(await bob.page.getByTestId('fair-commitment').getAttribute('title')).toBe(commitment);

    const hand = await playHand([alice, bob], { afterHand: 0, policy: standPat });
    expect(hand.results.join('\n')).toMatch(/wins [\d,.]+/);

    for (const player of [alice, bob]) {
      const page = player.page;
      await page.getByRole('button', { name: 'Hand history' }).click();
      await page.locator('.panel .log button').first().click();
      await closeReplayer(page);
      const verify = page.getByRole('region', { name: 'Verify' });
      await verify.getByRole('button', { name: 'Verify' }).click();
      await expect
        .poll(() => verify.getByTestId('verify-verdict').innerText(), { timeout: 20_000 })
        .toBe('Every check passed: this hand was dealt from the committed deck.');
      const checks = await verify.getByTestId('verify-checks').locator('li').allInnerTexts();
      expect(checks.map((line) => line.split(':')[0])).toEqual([
        '✓ chain',
        '✓ commitment',
        '✓ contributions',
        '✓ cards',
      ]);
      expect(checks[1]).toContain(`gives the commitment ${commitment!.slice(0, 16)}…`);
      expect(checks[3]).toMatch(
        /each of the \d+ cards dealt that this history shows is the committed deck's card/,
      );
      if (player === alice) expect(checks[2]).toMatch(/yours \(seat 1\) was used/);
    }
    // The session's statistics and the hand's history as files (issue 24).
    expect(await alice.page.getByTestId('session-stats').innerText()).toMatch(
      /^This session: 1 hand · [+-][\d,.]+ play · (under a minute|\d+ min)$/,
    );
    for (const [button, extension, content] of [
      ['Download PHH', 'phh', /^variant = "F2L3D"$/m],
      ['Download text', 'txt', /^Felt Hand #1: /m],
    ] as const) {
      const [file] = await Promise.all([
        alice.page.waitForEvent('download'),
        alice.page.getByRole('button', { name: button }).click(),
      ]);
      expect(file.suggestedFilename()).toMatch(new RegExp(`^felt-hand-\\d+\\.${extension}$`));
      expect(readFileSync(await file.path(), 'utf8')).toMatch(content);
    }
    const verify = alice.page.getByRole('region', { name: 'Verify' });
    await verify.scrollIntoViewIfNeeded();
    await screenshot(alice.page, 'fair-verify.png');

    // The next hand is folded: a hidden hand keeps the secret a day, and the Verify view says so.
    const foldFirst: Policy = async (page, player) => {
      const fold = page.getByRole('group', { name: 'Betting' }).getByRole('button', { name: /^Fold/ });
      if ((await fold.count()) === 0) return passivePolicy(page, player);
      await fold.click();
      return true;
    };
    await playHand([alice, bob], { afterHand: 1, policy: foldFirst });
    const history = alice.page.getByRole('button', { name: 'Hand history' });
    await history.click();
    await history.click();
    const items = alice.page.locator('.panel .log button');
    await expect.poll(() => items.count()).toBe(2);
    await items.first().click();
    await closeReplayer(alice.page);
    const folded = alice.page.getByRole('region', { name: 'Verify' });
    await folded.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(() => folded.getByTestId('verify-verdict').innerText(), { timeout: 20_000 })
      .toMatch(/^The secret is not revealed yet: it comes with this history 24 hours after the hand/);
  }, 180_000);
});
