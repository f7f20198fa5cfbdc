/**
 * The data folder against a careless or hostile operator, with real processes on real files: a second
 * `felt serve` on a folder in use refuses to start (and the lock dies with its process: a restart right
 * after SIGKILL succeeds), and a damaged database is refused clearly by `felt serve` and `felt admin`.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { felt, FeltServer, logLines, tempDir, type FeltRun, type LogLine } from './integration-helpers.js';

const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

function folder(prefix: string): string {
  const { dir, remove } = tempDir(prefix);
  dirs.push(remove);
  return dir;
}

/** `felt serve` that must refuse to start: killed (and so failing the test) if it is still up after 30 s. */
function serveRefused(dataDir: string): Promise<FeltRun> {
  let child: ChildProcess | null = null;
  const timer = setTimeout(() => child?.kill('SIGKILL'), 30_000);
  return felt(['serve', '--port', '0', '--data', dataDir], (started) => {
    child = started;
  }).finally(() => {
    clearTimeout(timer);
  });
}

/** A stack trace's frames ("    at f (file:1:2)"): a refusal is a message, not a crash. */
const STACK_FRAME = /^\s+at .+:\d+/m;

/** The one line of the log of a `felt serve` that refused to start: fatal, in words, no stack. */
function refusal(run: FeltRun): LogLine {
  const lines = logLines(run.stdout);
  expect(lines.map((line) => line.level)).toEqual(['fatal']);
  expect(JSON.stringify(lines[0])).not.toMatch(/stack|\bat .+:\d+:\d+/);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  return lines[0]!;
}

describe('one felt serve per data folder', () => {
  it('a second felt serve on a folder in use refuses to start, clearly; the first keeps serving; after a SIGKILL a restart succeeds at once', async () => {
    const dir = folder('felt-lock-');
    const first = await FeltServer.start(dir, 0);
    try {
      const second = await serveRefused(dir);
      expect(second.status).toBe(1);
      expect(refusal(second).msg).toMatch(/another felt serve is running on the data folder/);
      const health = await fetch(`http://127.0.0.1:${first.port}/health`);
      expect(health.status).toBe(200);
      expect(first.logs.map((line) => line.msg)).not.toContain('recovery');
    } finally {
      await first.kill();
    }
    // The operating system dropped the dead process's lock: no stale lock to clear by hand.
    const restarted = await FeltServer.start(dir, 0);
    // Answered over HTTP: it is past its start, with its signal handlers in place.
    expect((await fetch(`http://127.0.0.1:${restarted.port}/health`)).status).toBe(200);
    expect(await restarted.stop()).toBe(0);
  });
});

/** Overwrites one page in the middle of the file with garbage. */
function damageAPage(file: string, pageSize = 4096): void {
  const pages = Math.floor(statSync(file).size / pageSize);
  expect(pages).toBeGreaterThan(8);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, Math.floor(pages / 2) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('a damaged database is refused', () => {
  it('with a damaged page, felt serve refuses to start and felt admin audit prints its JSON line with the error, exit 1, no stack trace', async () => {
    const dir = folder('felt-corrupt-');
    const storage = await openMigratedSqliteStorage({ dataDir: dir, synchronous: 'normal' });
    for (let i = 0; i < 400; i++) {
      const created = await storage.createUser({
        name: `player${i}`,
        passwordHash: 'h'.repeat(64),
        passwordSalt: 's'.repeat(32),
      });
      expect(created.ok).toBe(true);
    }
    await storage.close();
    damageAPage(join(dir, 'felt.db'));

    const serve = await serveRefused(dir);
    expect(serve.status).toBe(1);
    expect(refusal(serve).msg).toMatch(/damaged/);

    const audit = await felt(['admin', 'audit', '--data', dir]);
    expect(audit.status).toBe(1);
    expect(audit.json).toMatchObject({ ok: false, error: { code: 'CORRUPT_DATABASE' } });
    expect((audit.json as { error: { message: string } }).error.message).toMatch(/damaged/);
    expect(audit.stderr).not.toMatch(STACK_FRAME);
  });
});
