/**
 * The staff's console in a real Chromium against the real `felt serve` (issue 23): an operator, made
 * one by the real `felt admin grant` beside the running room, signs in with his password and the TOTP
 * code of the key it printed; his console's live view changes while house bots play; he suspends a
 * seated player at his turn (folded out and cashed out by the table), looks up that hand with every
 * card, runs the ledger's audit and the game-security reports. A player's page offers no console, and
 * every console request sent from it over a raw WebSocket is refused NOT_STAFF. No CSP violation.
 */
import { spawnSync } from 'node:child_process';
import { STAFF_OPS } from '@felt/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp, TOTP_STEP_SECONDS } from '../../server/src/accounts/totp.js';
import {
  CLI,
  e2eReady,
  parseHundredths,
  screenshot,
  seatCards,
  signUp,
  startRoom,
  type Room,
} from './e2e-harness';

const ready = e2eReady();
if (!ready.ok) console.warn(`web e2e (console) skipped: ${ready.why}`);

const TABLE = 'practice-holdem';
const TABLES = [
  {
    id: TABLE,
    name: "No Limit Hold'em 0.50/1 (practice)",
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    houseBots: 3,
  },
];
const PASSWORD = 'correct horse battery';

/** Valid fields for each console request, so that only the caller's standing can refuse it. */
const FIELDS: Record<string, Record<string, unknown>> = {
  'staff-player': { name: 'nobody' },
  'staff-cashier': { name: 'nobody', direction: 'credit', amount: 1, reason: 'test' },
  'staff-hand': { handId: 1 },
  'staff-suspend': { name: 'nobody', suspended: true, reason: 'test' },
  'staff-broadcast': { text: 'test' },
  'staff-end-sessions': { name: 'nobody', reason: 'test' },
  'staff-figures': {},
  'staff-audit': {},
  'staff-integrity': {},
  'staff-pause': { paused: true, reason: 'test' },
  'staff-hands': {},
  'staff-table-open': {
    table: {
      id: 'never',
      name: 'Never',
      game: 'holdem',
      structure: 'no-limit',
      currency: 'play',
      stakes: { small: 100, big: 200 },
    },
    reason: 'test',
  },
  'staff-table-close': { tableId: 'never', reason: 'test' },
  'staff-transaction': { transactionId: 1 },
  'staff-transactions': { name: 'nobody' },
};

/** The code his authenticator shows now for the key `felt admin grant` printed. */
function totpNow(otpauth: string): string {
  const secret = new URL(otpauth).searchParams.get('secret') ?? '';
  const key = base32Decode(secret);
  if (key === null) throw new Error(`not a base32 key: ${secret}`);
  return hotp(key, Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS));
}

const figure = async (page: Page, name: string): Promise<number> =>
  Number(((await page.getByTestId(`value-${name}`).textContent()) ?? '').replace(/[^0-9.]/g, ''));

/** Every console-violation message of the pages watched. */
function watchCsp(pages: readonly Page[], into: string[]): void {
  for (const page of pages) {
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) into.push(message.text());
    });
  }
}

describe.skipIf(!ready.ok)('the staff console (headless Chromium, real server)', () => {
  let room: Room;
  beforeAll(async () => {
    room = await startRoom(TABLES);
  }, 60_000);
  afterAll(async () => {
    await room.stop();
  });

  it('an operator signs in with TOTP, watches the room live, suspends a seated player at his turn, reads that hand with every card and runs the audit and the reports; a player is refused the console', async () => {
    const csp: string[] = [];
    // The operator's account, made staff by the real command beside the running room.
    const operatorName = `op${String(Date.now() % 100_000)}`;
    const created = await fetch(`${room.url}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: operatorName, password: PASSWORD }),
    });
    expect(created.status).toBe(200);
    const grant = spawnSync(
      process.execPath,
      [CLI, 'admin', 'grant', operatorName, 'operator', '--data', room.data],
      {
        encoding: 'utf8',
      },
    );
    expect(grant.status).toBe(0);
    const { otpauth } = JSON.parse(grant.stdout) as { otpauth: string };

    // Sign-in: the password first; the room asks for the code; then the console.
    const context = await room.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const live = await context.newPage();
    watchCsp([live], csp);
    await live.goto(room.url);
    await live.getByRole('button', { name: 'Log in' }).click();
    await live.getByLabel('Name').fill(operatorName);
    await live.getByLabel('Password').fill(PASSWORD);
    await live.getByRole('button', { name: 'Log in' }).click();
    const code = live.getByLabel('Authenticator code');
    await code.waitFor();
    await code.fill(totpNow(otpauth));
    await live.getByRole('button', { name: 'Log in' }).click();
    await live.getByRole('tab', { name: 'Console' }).click();
    await live.getByTestId('value-hands-dealt').waitFor();
    const handsBefore = await figure(live, 'hands-dealt');
    // Every figure has its chart, drawn by the chart library on a canvas.
    const figures = await live.locator('.figure').count();
    expect(figures).toBeGreaterThan(5);
    await expect.poll(() => live.locator('.figure .chart canvas').count()).toBe(figures);

    // A player watches the practice table, so that its house bots play all along.
    const bystander = await signUp(room, 'player');
    watchCsp([bystander.page], csp);
    await bystander.page
      .locator(`.lobby-table tr[data-table-id="${TABLE}"]`)
      .getByRole('button', { name: /^Open/ })
      .click();

    // The suspect signs up; a second console page (the same staff session, by its cookie) finds him.
    const suspect = await signUp(room, 'suspect');
    const players = await context.newPage();
    watchCsp([players], csp);
    await players.goto(room.url);
    await players.getByRole('tab', { name: 'Console' }).click();
    await players.getByRole('tab', { name: 'Players' }).click();
    await players.getByLabel('Player name').fill(suspect.name);
    await players.getByRole('button', { name: 'Find' }).click();
    const card = players.getByTestId('staff-player');
    await expect.poll(() => card.innerText()).toContain(suspect.name);
    expect(await players.getByTestId('no-seats').count()).toBe(1);
    const playBefore = parseHundredths((await players.getByTestId('staff-play-balance').textContent()) ?? '');
    await players.getByLabel('Reason (kept in the staff log)').fill('chip dumping, report 7');

    // He sits at the practice table; the house bots come and play; the live view follows the room.
    const page = suspect.page;
    await page
      .locator(`.lobby-table tr[data-table-id="${TABLE}"]`)
      .getByRole('button', { name: /^Open/ })
      .click();
    await expect
      .poll(async () => await page.locator('.seat[data-name^="Bot "]').count(), { timeout: 15_000 })
      .toBe(3);
    await page
      .getByRole('button', { name: /^Sit at seat \d+$/ })
      .last()
      .click();
    await page.getByRole('button', { name: 'Take seat' }).click();
    await page.locator('.seat.me').waitFor();
    await expect.poll(() => figure(live, 'hands-dealt'), { timeout: 30_000 }).toBeGreaterThan(handsBefore);
    expect(await figure(live, 'players-online')).toBeGreaterThanOrEqual(2);
    expect(await live.getByRole('img', { name: /^Hands dealt over the last \d+ samples/ }).count()).toBe(1);

    // At his turn the operator suspends him: the table folds him and cashes him out; his page is signed out.
    await page.getByRole('group', { name: 'Betting' }).waitFor({ timeout: 60_000 });
    const me = Number(await page.locator('.seat.me').getAttribute('data-seat'));
    const hole = (await seatCards(page)).find((entry) => entry.seat === me)?.codes ?? [];
    expect(hole).toHaveLength(2);
    await players.getByRole('button', { name: 'Suspend' }).click();
    await expect
      .poll(() => players.getByTestId('staff-done').textContent())
      .toBe(`${suspect.name}: suspended (folded and cashed out at ${TABLE})`);
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Session ended (suspended)')]),
    );
    // Once the bots finish that hand, it is settled and his chips are back in his balance.
    const hands = players.getByTestId('player-hands');
    await expect
      .poll(
        async () => {
          await players.getByRole('button', { name: 'Find' }).click();
          return (await hands.count()) > 0 && (await players.getByTestId('no-seats').count()) === 1;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(await players.getByTestId('suspended').count()).toBe(1);
    expect(await players.getByTestId('sessions').textContent()).toMatch(/^0 open · offline$/);
    const playAfter = parseHundredths((await players.getByTestId('staff-play-balance').textContent()) ?? '');
    // He lost at most what he had put in before his turn (a blind at these stakes), never gained.
    expect(playAfter).toBeLessThanOrEqual(playBefore);
    expect(playBefore - playAfter).toBeLessThanOrEqual(200);
    await screenshot(players, 'console-player.png');

    // That hand, with every card: his and every bot's.
    const handLink = (await hands.getByRole('button').first().textContent()) ?? '';
    await hands.getByRole('button').first().click();
    const text = (await players.locator('.hand-text').textContent()) ?? '';
    expect(text).toContain(`Dealt to ${suspect.name} [${hole.join(' ')}]`);
    expect(text).toContain(`${suspect.name}: folds`);
    const dealt = text.split('\n').filter((line) => line.startsWith('Dealt to '));
    const seated = text.split('\n').filter((line) => /^Seat \d+: .* in chips\)$/.test(line));
    expect(dealt.length).toBe(seated.length);
    for (const line of dealt) expect(line).toMatch(/\[[2-9TJQKA][cdhs] [2-9TJQKA][cdhs]\]$/);
    // Found again by its table.
    await players.getByLabel('At table').selectOption(TABLE);
    await players.getByRole('button', { name: 'Find hands' }).click();
    await expect.poll(() => players.getByTestId('found-hands').innerText()).toContain(`${handLink} `);
    await screenshot(players, 'console-hand.png');

    // That hand's ledger transaction (its settlement): every posting, and their sum, zero.
    await players.getByRole('button', { name: 'Its ledger transactions' }).click();
    const shown = players.getByTestId('transactions');
    await expect.poll(() => shown.locator('h3').textContent()).toBe(`Transactions of hand ${handLink}`);
    const settlement = shown.getByTestId('transaction');
    expect(await settlement.count()).toBe(1);
    expect(await settlement.locator('h4').innerText()).toMatch(/^#\d+ hand hand \d+/);
    expect(await settlement.getByTestId('posting').count()).toBeGreaterThanOrEqual(2);
    expect(parseHundredths((await settlement.getByTestId('transaction-sum').textContent()) ?? '')).toBe(0);
    // His: from his page, every movement of his chips (the sign-up's, the buy-in, the cash-out), each summing to zero.
    await players.getByRole('tab', { name: 'Players' }).click();
    await players.getByLabel('Player name').fill(suspect.name);
    await players.getByRole('button', { name: 'Find' }).click();
    await players.getByRole('button', { name: 'His ledger transactions' }).click();
    await expect.poll(() => shown.locator('h3').textContent()).toBe(`Transactions of ${suspect.name}`);
    const his = shown.getByTestId('transaction');
    const headings = await his.locator('h4').allInnerTexts();
    for (const kind of ['top-up', 'buy-in', 'cash-out']) {
      expect(headings.some((heading) => heading.includes(` ${kind} `))).toBe(true);
    }
    for (const sum of await his.getByTestId('transaction-sum').allTextContents()) {
      expect(parseHundredths(sum)).toBe(0);
    }
    // One by its id.
    const first = /^#(\d+) /.exec(headings[0] ?? '')?.[1] ?? '';
    await players.getByLabel('Transaction id').fill(first);
    await players.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => shown.locator('h3').textContent()).toBe(`Transaction #${first}`);
    expect(await his.count()).toBe(1);
    await screenshot(players, 'console-transactions.png');

    // The ledger's audit and the game-security reports.
    await players.getByRole('tab', { name: 'Ledger' }).click();
    await players.getByRole('button', { name: 'Run the audit' }).click();
    await expect
      .poll(() => players.getByTestId('audit-verdict').textContent())
      .toBe('Conserved: no chip created or lost');
    expect(await players.getByTestId('audit').innerText()).toContain('chain intact');
    await screenshot(players, 'console-audit.png');
    await players.getByRole('tab', { name: 'Game security' }).click();
    await players.getByRole('button', { name: 'Run the reports' }).click();
    await expect
      .poll(() => players.getByTestId('integrity').innerText())
      .toMatch(/^\d+ hands? of \d+ players? read/);
    await screenshot(players, 'console-security.png');
    await screenshot(live, 'console-live.png');

    // Tables: drain the room (every table paused), tell its watchers, resume.
    await players.getByRole('tab', { name: 'Tables' }).click();
    await players.getByLabel('Reason (kept in the staff log)').fill('restart at 03:00');
    await players.getByRole('button', { name: 'Drain the room (pause every table)' }).click();
    await expect
      .poll(() => players.getByTestId('tables-done').textContent())
      .toBe('all 1 tables: paused (hands in play finish)');
    const row = players.locator(`[data-testid="staff-tables"] tr[data-table-id="${TABLE}"]`);
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('paused');
    // The players at (and watching) the table see that the room paused it.
    const pausedNote = bystander.page.getByTestId('paused');
    await pausedNote.waitFor({ timeout: 10_000 });
    expect(await pausedNote.textContent()).toBe('Paused by the room');
    await players.getByLabel('To').selectOption(TABLE);
    await players.getByLabel('Message').fill('the room restarts at 03:00');
    await players.getByRole('button', { name: 'Broadcast' }).click();
    await expect
      .poll(() => bystander.page.getByRole('alert').allTextContents())
      .toContain('Message from the room: the room restarts at 03:00 Dismiss');
    await screenshot(players, 'console-tables.png');
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('running');
    await pausedNote.waitFor({ state: 'detached', timeout: 10_000 });

    // A new table from the table file's fields, then closed after its (no) hand: gone from the list.
    await players.getByRole('button', { name: 'Open the table' }).click();
    const opened = players.locator('[data-testid="staff-tables"] tr[data-table-id="evening-nl"]');
    await opened.waitFor({ timeout: 10_000 });
    await opened.getByRole('button', { name: /^Close / }).click();
    await opened.waitFor({ state: 'detached', timeout: 10_000 });
    await expect
      .poll(() => players.getByTestId('tables-done').textContent())
      .toBe('evening-nl: closing after its hand (players cashed out)');

    // A player: no console on his page, and every console request over a raw socket is NOT_STAFF.
    expect(await bystander.page.getByRole('tab', { name: 'Console' }).count()).toBe(0);
    const wsUrl = `${room.url.replace(/^http/, 'ws')}/ws`;
    const codes = await bystander.page.evaluate(
      async ({ url, requests }) => {
        const socket = new WebSocket(url);
        const answers = new Map<number, string>();
        const waiting = new Map<number, () => void>();
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { op: string; id?: number; code?: string };
          if (typeof message.id !== 'number') return;
          answers.set(message.id, message.op === 'error' ? (message.code ?? '') : message.op);
          waiting.get(message.id)?.();
        };
        await new Promise((resolve) => (socket.onopen = resolve));
        const ask = (id: number, frame: Record<string, unknown>) =>
          new Promise<string>((resolve) => {
            waiting.set(id, () => {
              resolve(answers.get(id) ?? '');
            });
            socket.send(JSON.stringify({ ...frame, id }));
          });
        // The page's cookie session, as the client resumes it.
        const resumed = await ask(1, { op: 'resume' });
        const out: Record<string, string> = { resume: resumed };
        let id = 2;
        for (const [op, fields] of requests) out[op] = await ask(id++, { op, ...fields });
        socket.close();
        return out;
      },
      { url: wsUrl, requests: [...STAFF_OPS].map((op) => [op, FIELDS[op] ?? {}] as const) },
    );
    expect(Object.keys(FIELDS).sort()).toEqual([...STAFF_OPS].sort());
    expect(codes).toEqual({
      resume: 'ack',
      ...Object.fromEntries([...STAFF_OPS].map((op) => [op, 'NOT_STAFF'])),
    });
    expect(csp).toEqual([]);
    await context.close();
  }, 240_000);
});
