/**
 * What a regular expects of the room, in a real Chromium against the real `felt serve`. The chat: two seated
 * players talk, a watcher reads and has no box to write in, a player hides another's lines (kept in his
 * settings across a new page), and a line is shown as text, never as markup; a player's note and colour tag on
 * another is kept with his account; when a hand waits for a
 * player, his page's title and the table's tab flash, also while another tab is in front, and his bet-size
 * buttons size a raise. The lobby sorts
 * by any column, both ways, and groups tables by game and stakes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eReady, parseHundredths, screenshot, signUp, sit, startRoom, type Room } from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e skipped: ${ready.why}`);

const TABLES = [
  {
    id: 'e2e-chat',
    name: "Hold'em NL chat",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
  },
  {
    id: 'e2e-turn',
    name: "Hold'em NL turn",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 200, big: 400 },
    currency: 'play',
  },
  ...[
    ['e2e-omaha-big', 'omaha', 'pot-limit', 1000, 2000],
    ['e2e-omaha-small', 'omaha', 'pot-limit', 25, 50],
    ['e2e-stud', 'stud', 'fixed-limit', 200, 400],
    ['e2e-holdem-mid', 'holdem', 'no-limit', 50, 100],
  ].map(([id, game, structure, small, big]) => ({
    id,
    name: id,
    game,
    structure,
    stakes: { small, big },
    currency: 'play',
  })),
];

describe.skipIf(!ready.ok)(
  "a regular's room: chat, turn alert, lobby order (headless Chromium, real server)",
  () => {
    let room: Room;

    beforeAll(async () => {
      room = await startRoom(TABLES);
    }, 60_000);

    afterAll(async () => {
      await room.stop();
    });

    it('seated players talk, a watcher reads without a box, a muted player is hidden and stays hidden on a new page', async () => {
      const ann = await signUp(room, 'ann');
      const bob = await signUp(room, 'bob');
      const cleo = await signUp(room, 'cleo');
      await sit(ann, 'e2e-chat', 0);
      await sit(bob, 'e2e-chat', 1);
      await cleo.page
        .locator('.lobby-table tr[data-table-id="e2e-chat"]')
        .getByRole('button', { name: /^(Open|Go to)/ })
        .click();
      await cleo.page.locator('.table-screen[data-table="e2e-chat"]').waitFor();

      const say = async (page: typeof ann.page, text: string) => {
        await page.getByLabel('Chat message').fill(text);
        await page.getByLabel('Chat message').press('Enter');
      };
      await say(ann.page, 'good luck <b>all</b>');
      await say(bob.page, 'you too');
      for (const page of [ann.page, bob.page, cleo.page]) {
        const chat = page.getByTestId('chat');
        await chat.getByText('you too').waitFor();
        expect(await chat.getByText('good luck <b>all</b>').count()).toBe(1);
      }
      expect(await cleo.page.getByLabel('Chat message').count()).toBe(0);
      // What he typed went out: the box is empty again.
      expect(await ann.page.getByLabel('Chat message').inputValue()).toBe('');
      await screenshot(ann.page, 'table-chat.png');

      await cleo.page.getByRole('button', { name: `Mute ${ann.name}` }).click();
      const cleoChat = cleo.page.getByTestId('chat');
      await cleoChat.getByText('1 hidden').waitFor();
      expect(await cleoChat.getByText('good luck').count()).toBe(0);
      await say(ann.page, 'still there?');
      await ann.page.getByTestId('chat').getByText('still there?').waitFor();
      await say(bob.page, 'yes');
      await cleoChat.getByText('yes', { exact: true }).waitFor();
      expect(await cleoChat.getByText('still there?').count()).toBe(0);

      // A new page of his keeps the mute (settings are kept in the browser).
      const again = await cleo.context.newPage();
      await again.goto(room.url);
      const settings = await again.evaluate(() => localStorage.getItem('felt.prefs'));
      expect(JSON.parse(settings ?? '{}')).toMatchObject({ mutedPlayers: [expect.any(Number)] });

      // A note with a colour tag on a player, kept with his account: another page shows it too.
      await cleo.page.getByRole('button', { name: `Note on ${bob.name}` }).click();
      const editor = cleo.page.getByRole('form', { name: `Note on ${bob.name}` });
      await editor.getByLabel('red', { exact: true }).check();
      await editor.getByLabel('Note', { exact: true }).fill('limps a lot');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.waitFor({ state: 'detached' });
      const bobSeat = cleo.page.locator(`.seat[data-name="${bob.name}"]`);
      await bobSeat.locator('.note-tag.note-red').waitFor();
      expect(await bobSeat.getByRole('button', { name: `Note on ${bob.name}` }).getAttribute('title')).toBe(
        'limps a lot',
      );
      await screenshot(cleo.page, 'table-notes.png');
      await again.reload();
      await again
        .locator('.lobby-table tr[data-table-id="e2e-chat"]')
        .getByRole('button', { name: /^(Open|Go to)/ })
        .click();
      await again.locator(`.seat[data-name="${bob.name}"] .note-tag.note-red`).waitFor();
      for (const player of [ann, bob, cleo]) await player.context.close();
    });
    it("his turn: the page's title flashes and the table's tab is marked, also with another tab in front; both stop after he acts", async () => {
      const ann = await signUp(room, 'ann');
      const bob = await signUp(room, 'bob');
      await sit(ann, 'e2e-turn', 0);
      await sit(bob, 'e2e-turn', 1);
      const betting = (page: typeof ann.page) => page.getByRole('group', { name: 'Betting' }).count();
      const deadline = Date.now() + 60_000;
      let first = null as typeof ann | null;
      while (first === null) {
        if (Date.now() > deadline) throw new Error('no decision offered');
        for (const player of [ann, bob]) if ((await betting(player.page)) > 0) first = player;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const other = first === ann ? bob : ann;
      // Another tab of his own in front: the table's page is in the background.
      const front = await first.context.newPage();
      await front.goto('about:blank');
      const titles = new Set<string>();
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        titles.add(await first.page.title());
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(titles).toEqual(new Set(['▶ Your turn — Felt', 'Felt']));
      expect(await first.page.locator('.tabs .turn').innerText()).toContain('your turn');
      expect(await other.page.title()).toBe('Felt');
      await front.close();
      // The bet-size buttons of a big-bet table: preflop at 1/2 a raise to 2.5 big blinds is 5.
      await first.page.getByRole('button', { name: '2.5×' }).click();
      expect(parseHundredths(await first.page.getByLabel('Raise to amount (type)').inputValue())).toBe(500);
      await first.page
        .getByRole('button', { name: /^(Check|Call)/ })
        .first()
        .click();
      await first.page.getByRole('group', { name: 'Betting' }).waitFor({ state: 'detached' });
      expect(await first.page.title()).toBe('Felt');
      expect(await first.page.locator('.tabs .turn').count()).toBe(0);
      for (const player of [ann, bob]) await player.context.close();
    });
    it('the lobby sorts by a column both ways (stakes by the big blind, not as text) and groups tables by game and stakes', async () => {
      const ann = await signUp(room, 'ann');
      const page = ann.page;
      const bigOf = new Map(TABLES.map((table) => [table.id, Number(table.stakes.big)]));
      const bigBlinds = async () =>
        (
          await page
            .locator('.lobby-table tbody tr[data-table-id]')
            .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-table-id') ?? ''))
        ).map((id) => bigOf.get(id)!);
      await page.getByRole('button', { name: 'Stakes', exact: true }).click();
      const ascending = await bigBlinds();
      expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
      expect(new Set(ascending).size).toBeGreaterThan(2);
      expect(await page.locator('th[aria-sort="ascending"]').innerText()).toContain('Stakes');
      await page.getByRole('button', { name: /^Stakes/ }).click();
      expect(await bigBlinds()).toEqual([...ascending].reverse());
      await page.getByLabel('Group by game and stakes').check();
      const headings = await page.locator('.lobby-table tr.group th').allInnerTexts();
      expect(headings).toEqual([...new Set(headings)]);
      // Hold'em at two stakes, Omaha at two, stud at one.
      expect(headings).toHaveLength(5);
      for (const heading of headings)
        expect(heading).toMatch(/^(Texas Hold'em|Omaha|7-card Stud) · [\d./]+ play$/);
      await screenshot(page, 'lobby-grouped.png');
      await ann.context.close();
    });
  },
);
