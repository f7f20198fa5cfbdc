/**
 * End-to-end harness: the real `felt serve` (built CLI, real SQLite in a temp dir, the built web client)
 * and Debian's Chromium driven by playwright-core, one browser context per player.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHROMIUM = process.env['FELT_CHROMIUM'] ?? '/usr/bin/chromium';
/**
 * Where screenshots go: the README's pictures in docs/screenshots only when asked
 * (`FELT_SCREENSHOTS=1`), so that a test run leaves the working tree as it found it.
 */
export const SCREENSHOTS =
  process.env['FELT_SCREENSHOTS'] === '1'
    ? join(ROOT, 'docs/screenshots')
    : join(tmpdir(), 'felt-screenshots');
export const WEB_DIST = join(ROOT, 'packages/web/dist/index.html');
export const CLI = join(ROOT, 'packages/cli/bin/felt.js');

/** Whether the e2e tests can run here: chromium, the built CLI and the built web client. */
export function e2eReady(): { ok: true } | { ok: false; why: string } {
  if (!existsSync(CHROMIUM)) return { ok: false, why: `no ${CHROMIUM} (apt-get install -y chromium)` };
  if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) return { ok: false, why: 'the CLI is not built' };
  if (!existsSync(WEB_DIST))
    return { ok: false, why: 'the web client is not built (npm run build -w @felt/web)' };
  return { ok: true };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolvePort(port);
      });
    });
  });
}

export interface Room {
  readonly url: string;
  /** The room's data folder (its SQLite file), for `felt admin` beside it. */
  readonly data: string;
  readonly browser: Browser;
  stop(): Promise<void>;
}

/**
 * Starts `felt serve` on a free port with the given table set (and the table file's tournaments) and a
 * fresh data dir, and Chromium.
 */
export async function startRoom(
  tables: readonly unknown[],
  tournaments: readonly unknown[] = [],
): Promise<Room> {
  const data = mkdtempSync(join(tmpdir(), 'felt-e2e-'));
  const tablesFile = join(data, 'tables.json');
  writeFileSync(tablesFile, JSON.stringify({ tables, tournaments }));
  const port = await freePort();
  const server: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--port', String(port), '--data', data, '--tables', tablesFile],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`felt serve exited: ${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - started > 15_000) throw new Error(`felt serve did not listen within 15 s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Playwright launches Chromium with a fresh temporary --user-data-dir of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    url,
    data,
    browser,
    async stop() {
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((r) => {
        if (server.exitCode !== null) r(null);
        else server.once('exit', r);
      });
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The cash table a tournament test's room lists beside its tournaments (a table file lists one at least). */
export const CASH_TABLE = {
  id: 'cash-holdem',
  name: "No Limit Hold'em 0.50/1",
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
};

/** `felt bots` playing a tournament: the process, what it printed so far, and its exit status. */
export interface TournamentBots {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

/**
 * The room of a tournament test file — the cash table and `tournaments` — started before the file's
 * tests when the e2e tests can run and stopped after them, with the `felt bots` a test starts there
 * (stopped with it).
 */
export function tournamentRoom(tournaments: readonly unknown[]): {
  room(): Room;
  bots(count: number, tournamentId: string): TournamentBots;
} {
  let room: Room | null = null;
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    if (e2eReady().ok) room = await startRoom([CASH_TABLE], tournaments);
  }, 60_000);
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGTERM');
    await room?.stop();
  });
  const running = () => {
    if (room === null) throw new Error('the room is not running');
    return room;
  };
  return {
    room: running,
    bots(count, tournamentId) {
      const url = running().url.replace(/^http/, 'ws');
      const child = spawn(
        process.execPath,
        [
          CLI,
          'bots',
          '--url',
          url,
          '--bots',
          String(count),
          '--tournament',
          tournamentId,
          '--think-ms',
          '100',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      started.push(child);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { child, output: () => output, exited };
    },
  };
}

export interface Player {
  readonly name: string;
  readonly context: BrowserContext;
  readonly page: Page;
  buyIn: number;
}

let serial = 0;
/** A new browser session that signs up. */
export async function signUp(
  room: Room,
  base: string,
  viewport = { width: 1280, height: 860 },
): Promise<Player> {
  const context = await room.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(room.url);
  const name = `${base}${String(Date.now() % 100_000)}${String(serial++)}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.locator('.lobby-table tbody tr').first().waitFor();
  expect(errors).toEqual([]);
  return { name, context, page, buyIn: 0 };
}

/**
 * Opens the table from the lobby row and takes `seat` (null: the first free one) with the minimum buy-in
 * (or `amount`); `choices`: wait for the big blind, auto-post off (the dialog's defaults: post now,
 * auto-post on). Returns the seat taken.
 */
export async function sit(
  player: Player,
  tableId: string,
  seat: number | null,
  amount?: string,
  choices: { wait?: boolean; autoPost?: boolean } = {},
): Promise<number> {
  const page = player.page;
  await page
    .locator(`.lobby-table tr[data-table-id="${tableId}"]`)
    .getByRole('button', { name: /^(Open|Go to)/ })
    .click();
  await page.locator(`.table-screen[data-table="${tableId}"]`).waitFor();
  const choice =
    seat === null
      ? page.getByRole('button', { name: /^Sit at seat \d+$/ }).first()
      : page.getByRole('button', { name: `Sit at seat ${seat + 1}`, exact: true });
  const taken = Number(/\d+$/.exec((await choice.getAttribute('aria-label')) ?? '')?.[0]) - 1;
  await choice.click();
  if (amount !== undefined) await page.getByLabel('Buy-in amount').fill(amount);
  const form = page.getByRole('form', { name: 'Buy in' });
  if (choices.wait === true) await form.getByLabel('Wait for the big blind').check();
  if (choices.autoPost === false) await form.getByLabel('Auto-post blinds').uncheck();
  const text = await page.getByLabel('Buy-in amount').inputValue();
  player.buyIn = parseHundredths(text);
  await page.getByRole('button', { name: 'Take seat' }).click();
  await page.locator(`.seat.me[data-seat="${taken}"]`).waitFor();
  return taken;
}

/** "1,234.5" → 123450. */
export function parseHundredths(text: string): number {
  const clean = text.replace(/[^0-9.]/g, '');
  const [whole = '0', frac = ''] = clean.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}

export interface SeatCards {
  readonly seat: number;
  readonly codes: readonly string[];
  /** Per card: drawn as a down card (stud, own page). */
  readonly down: readonly boolean[];
}

/** The cards drawn at each seat on this page. */
export async function seatCards(page: Page): Promise<SeatCards[]> {
  return page.locator('.oval-wrap .seat[data-name]').evaluateAll((seats) =>
    seats.map((seat) => ({
      seat: Number(seat.getAttribute('data-seat')),
      codes: [...seat.querySelectorAll('svg[data-card]')].map((svg) => svg.getAttribute('data-card') ?? ''),
      down: [...seat.querySelectorAll('svg[data-card]')].map(
        (svg) => svg.getAttribute('data-down') === 'true',
      ),
    })),
  );
}

/** Σ stacks + chips in the middle, read off the page. */
export async function chipsOnTable(page: Page): Promise<{ stacks: number; pot: number }> {
  const stacks = await page.locator('[data-testid^="stack-"]').allTextContents();
  const potText = (await page.locator('[data-testid="pot-total"]').allTextContents())[0] ?? 'Pot 0';
  const total = /total ([\d,.]+)/.exec(potText)?.[1] ?? /Pot ([\d,.]+)/.exec(potText)?.[1] ?? '0';
  return {
    stacks: stacks.reduce((sum, text) => sum + parseHundredths(text), 0),
    pot: parseHundredths(total),
  };
}

export type Policy = (page: Page, player: Player) => Promise<boolean>;

/** Check if possible, else call; bring in; stand pat or draw the first card; play on rather than split. */
export const passivePolicy: Policy = async (page) => {
  const draw = page.getByRole('group', { name: 'Draw' });
  if (await draw.isVisible()) {
    const first = draw.getByRole('button', { name: /^Discard .* of / }).first();
    if ((await draw.locator('[aria-pressed="true"]').count()) === 0 && (await first.isEnabled()))
      await first.click();
    await draw.getByRole('button', { name: /^(Discard \d|Stand pat)/ }).click();
    return true;
  }
  const split = page.getByRole('group', { name: 'Split offer' });
  if (await split.isVisible()) {
    await split.getByRole('button', { name: 'Play on' }).click();
    return true;
  }
  const betting = page.getByRole('group', { name: 'Betting' });
  if (!(await betting.isVisible())) return false;
  for (const name of [/^Check/, /^Call/, /^Bring in/]) {
    const button = betting.getByRole('button', { name });
    if ((await button.count()) > 0) {
      await button.first().click();
      return true;
    }
  }
  return false;
};

export interface HandObservation {
  /** Cards each player saw as his own during the hand (seat → codes). */
  readonly own: Map<number, SeatCards>;
  /** Decisions taken. */
  decisions: number;
  readonly results: string[];
}

/**
 * Plays until every page shows the result of a hand (hand number above `afterHand`). At each decision,
 * checks on the deciding page that the player sees his own cards face up and no opponent's down card,
 * and that chips are conserved (stacks + pot = buy-ins).
 */
export async function playHand(
  players: readonly Player[],
  options: {
    policy?: Policy;
    afterHand?: number;
    timeoutMs?: number;
    onDecision?: (player: Player, index: number) => Promise<void>;
  } = {},
): Promise<HandObservation> {
  const policy = options.policy ?? passivePolicy;
  const totalBuyIn = players.reduce((sum, player) => sum + player.buyIn, 0);
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  const observation: HandObservation = { own: new Map(), decisions: 0, results: [] };
  const finished = new Set<number>();
  while (finished.size < players.length) {
    if (Date.now() > deadline) throw new Error(`hand did not finish; finished: ${[...finished].join(',')}`);
    for (const [index, player] of players.entries()) {
      const page = player.page;
      const resultTitle = page.locator('[data-testid="results"] h3');
      if ((await resultTitle.count()) > 0) {
        const number = Number(/#(\d+)/.exec((await resultTitle.first().textContent()) ?? '')?.[1] ?? 0);
        if (number > (options.afterHand ?? 0)) {
          if (!finished.has(index))
            observation.results.push(await page.locator('[data-testid="results"]').innerText());
          finished.add(index);
          continue;
        }
      }
      const deciding = (await page.getByRole('group', { name: /^(Betting|Draw|Split offer)$/ }).count()) > 0;
      if (!deciding) {
        if ((await page.getByRole('group', { name: 'Showdown' }).count()) > 0 && (await policy(page, player)))
          observation.decisions++;
        continue;
      }
      // What this player sees right now.
      const cards = await seatCards(page);
      const me = await page.locator('.seat.me').getAttribute('data-seat');
      const own = cards.find((entry) => entry.seat === Number(me));
      if (own !== undefined) {
        expect(own.codes.length).toBeGreaterThan(0);
        expect(own.codes.every((code) => code !== '??')).toBe(true);
        observation.own.set(own.seat, own);
      }
      // No opponent's down card is visible here (other players' own pages told us which they are).
      for (const [seat, theirs] of observation.own) {
        if (seat === Number(me)) continue;
        const seen = cards.find((entry) => entry.seat === seat);
        const hiddenCodes = theirs.codes.filter(
          (_, i) => theirs.down[i] === true || theirs.down.every((d) => !d),
        );
        for (const code of hiddenCodes) expect(seen?.codes ?? []).not.toContain(code);
      }
      const chips = await chipsOnTable(page);
      if (chips.stacks + chips.pot !== totalBuyIn) {
        const dump = await page.evaluate(() =>
          (window as unknown as { feltDebug?: () => unknown }).feltDebug?.(),
        );
        console.log('chips', chips, await page.locator('.oval-wrap').innerText(), JSON.stringify(dump));
      }
      expect(chips.stacks + chips.pot).toBe(totalBuyIn);
      await options.onDecision?.(player, index);
      if (await policy(page, player)) observation.decisions++;
      if (process.env['FELT_E2E_DEBUG'] !== undefined) {
        console.log(
          new Date().toISOString(),
          player.name,
          (await page.getByTestId('hand-log').innerText()).split('\n').at(-1),
          await page.locator('.toast').allTextContents(),
        );
      }
    }
    await new Promise((r) => setTimeout(r, 80));
  }
  return observation;
}

/** `fullPage`: the whole page's length, not only the window's. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, name), fullPage });
}
