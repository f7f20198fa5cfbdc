/**
 * `felt serve`'s log as an operator's log collector reads it, from real processes: every line of its
 * standard output is one JSON object with a level, a time and a msg, and the fields of its event — the
 * start, a login refused, a table opened by staff, the stop; `--log-level` and FELT_LOG_LEVEL leave out
 * the lines below the level.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { felt, FeltServer, freePort, logLines, tempDir, type FeltRun } from './integration-helpers.js';
import { staffSignedIn, TestClient, uniqueName } from './transport-client.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const { dir, remove } = tempDir('felt-log-');
  cleanups.push(remove);
  return dir;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 30_000; !condition();) {
    if (Date.now() > end) throw new Error(`waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const EVENING_TABLE = {
  id: 'evening-1',
  name: 'Evening',
  game: 'holdem',
  structure: 'no-limit',
  currency: 'play',
  stakes: { small: 100, big: 200 },
};

describe('felt serve logs one JSON object a line on stdout', () => {
  it('the start, a login refused, a table opened by staff and the stop are JSON lines with level, time, msg and their fields', async () => {
    const dir = folder();
    const server = await FeltServer.start(dir, 0);
    cleanups.push(() => server.kill());
    const url = `ws://127.0.0.1:${server.port}`;
    const name = uniqueName('pl');
    const player = await TestClient.connectTo(url);
    cleanups.push(() => {
      player.close();
    });
    await player.ok('signup', { name, password: 'correct horse' });
    await player.ok('logout', {});
    expect(await player.request('login', { name, password: 'not the password' })).toMatchObject({
      code: 'BAD_CREDENTIALS',
    });
    const staff = await staffSignedIn(url, dir);
    cleanups.push(() => {
      staff.client.close();
    });
    await staff.client.ok('staff-table-open', { table: EVENING_TABLE, reason: 'a busy evening' });
    await until(() => server.logs.some((line) => line.msg === 'table opened'), 'the table opened line');
    expect(await server.stop()).toBe(0);

    // Every line, to the last one: logLines throws on any that is not a JSON log line.
    const lines = logLines(server.stdout);
    expect(server.stdout.endsWith('\n')).toBe(true);
    for (const line of lines) {
      expect(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).toContain(line.level);
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
    }
    const byMsg = (msg: string) => lines.filter((line) => line.msg === msg);
    expect(byMsg('listening')).toEqual([
      expect.objectContaining({
        level: 'info',
        port: server.port,
        storage: 'sqlite',
        tables: expect.any(Number) as unknown,
        pid: server.child.pid,
      }),
    ]);
    expect(byMsg('login refused')).toEqual([
      expect.objectContaining({ level: 'info', name, code: 'BAD_CREDENTIALS', address: '127.0.0.1' }),
    ]);
    expect(byMsg('login')).toContainEqual(expect.objectContaining({ account: staff.id }));
    expect(byMsg('table opened')).toEqual([
      expect.objectContaining({
        level: 'info',
        tableId: EVENING_TABLE.id,
        account: staff.id,
        reason: 'a busy evening',
      }),
    ]);
    expect(byMsg('staff request')).toContainEqual(
      expect.objectContaining({ op: 'staff-table-open', account: staff.id }),
    );
    expect(byMsg('stopping')).toEqual([expect.objectContaining({ signal: 'SIGTERM' })]);
    expect(byMsg('stopped')).toEqual([expect.objectContaining({ handsCancelled: 0 })]);
  });

  it('--log-level and FELT_LOG_LEVEL leave out the lines below their level', async () => {
    const dir = folder();
    const first = await FeltServer.start(dir, 0);
    cleanups.push(() => first.kill());
    // A second server on the folder refuses to start with a fatal line: kept at warn, left out when silent.
    const refused = (args: readonly string[], env: Record<string, string> = {}): Promise<FeltRun> => {
      let child: ChildProcess | null = null;
      const timer = setTimeout(() => child?.kill('SIGKILL'), 30_000);
      return felt(
        ['serve', '--port', '0', '--data', dir, ...args],
        (started) => (child = started),
        env,
      ).finally(() => {
        clearTimeout(timer);
      });
    };
    const atWarn = await refused(['--log-level', 'warn']);
    expect(atWarn.status).toBe(1);
    expect(logLines(atWarn.stdout).map((line) => line.level)).toEqual(['fatal']);
    const silentByEnv = await refused([], { FELT_LOG_LEVEL: 'silent' });
    expect(silentByEnv.status).toBe(1);
    expect(silentByEnv.stdout).toBe('');
    // The option wins over the environment.
    const optionOverEnv = await refused(['--log-level', 'fatal'], { FELT_LOG_LEVEL: 'silent' });
    expect(logLines(optionOverEnv.stdout).map((line) => line.level)).toEqual(['fatal']);

    // At warn, a whole run of info events (start, a login refused, stop) writes nothing.
    const quietDir = folder();
    const port = await freePort();
    const started: ChildProcess[] = [];
    const run = felt(['serve', '--port', String(port), '--data', quietDir], (child) => started.push(child), {
      FELT_LOG_LEVEL: 'warn',
    });
    const quiet = started[0]!;
    cleanups.push(() => {
      quiet.kill('SIGKILL');
    });
    for (const end = Date.now() + 30_000; ;) {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > end) throw new Error('felt serve did not answer /health within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const client = await TestClient.connectTo(`ws://127.0.0.1:${port}`);
    expect(await client.request('login', { name: 'nobody', password: 'wrong one' })).toMatchObject({
      code: 'BAD_CREDENTIALS',
    });
    client.close();
    quiet.kill('SIGTERM');
    const ended = await run;
    expect(ended.status).toBe(0);
    expect(ended.stdout).toBe('');
  });

  it('a level that is not one is refused with the list of levels', async () => {
    const run = await felt(['serve', '--log-level', 'loud']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--log-level is one of fatal, error, warn, info, debug, trace, silent/);
  });
});
