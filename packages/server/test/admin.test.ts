/**
 * `felt admin`: the audit says whether every chip is where it should be; the cashier moves real money
 * for the operator with typed errors. In process, and end to end through the built `felt` command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAdminArgs, parseAmount } from '../../cli/src/commands/admin.js';
import { adminAudit, adminCashier } from '../src/ledger/admin.js';
import { databaseFile, openMigratedSqliteStorage } from '../src/storage/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory with users ann (real money 1000, 300 of it at a table in a hand) and bob. */
async function room(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'felt-admin-'));
  dirs.push(dir);
  const storage = await openMigratedSqliteStorage({ dataDir: dir });
  try {
    const ann = await storage.createUser({ name: 'ann', passwordHash: 'h', passwordSalt: 's' });
    const bob = await storage.createUser({ name: 'bob', passwordHash: 'h', passwordSalt: 's' });
    if (!ann.ok || !bob.ok) throw new Error('users');
    await storage.cashier(ann.value.id, 'credit', 1000);
    await storage.topUp(bob.value.id, 500);
    await storage.buyIn('t', ann.value.id, 'real', 300);
    await storage.startHand({
      tableId: 't',
      currency: 'real',
      description: 'x',
      participants: [{ userId: ann.value.id, seat: 0, position: 0 }],
      posts: [{ userId: ann.value.id, amount: 20 }],
    });
  } finally {
    await storage.close();
  }
  return dir;
}

describe('felt admin (in process)', () => {
  it('the audit reports conserved totals per currency', async () => {
    const dir = await room();
    const outcome = await adminAudit(dir);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output).toMatchObject({
      conserved: true,
      handsInProgress: 1,
      currencies: {
        real: { accounts: 700, seats: 280, pots: 20, house: 0, external: -1000, sum: 0 },
        play: { accounts: 500, seats: 0, pots: 0, house: 0, external: -500, sum: 0 },
      },
    });
  });

  it('the audit fails (exit 1) when a chip was created behind the ledger’s back', async () => {
    const dir = await room();
    const db = new Database(databaseFile(dir));
    db.prepare("UPDATE ledger_accounts SET balance = balance + 1 WHERE account_key LIKE 'user:real:%'").run();
    db.close();
    const outcome = await adminAudit(dir);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.output).toMatchObject({ conserved: false });
    expect(JSON.stringify(outcome.output)).toContain('the accounts add up to 1, not 0');
  });

  it('the audit fails when a hand claims chips its seats do not hold, or was settled without paying out what was put in', async () => {
    const overdrawn = await room();
    let db = new Database(databaseFile(overdrawn));
    db.prepare('UPDATE hand_players SET contributed = 301').run();
    db.close();
    const first = await adminAudit(overdrawn);
    expect(first.exitCode).toBe(1);
    expect(JSON.stringify(first.output)).toContain(
      'has put 301 into hands in progress at t but his seat holds 300',
    );
    const unpaid = await room();
    db = new Database(databaseFile(unpaid));
    db.prepare("UPDATE hands SET status = 'settled'").run();
    db.close();
    const second = await adminAudit(unpaid);
    expect(second.exitCode).toBe(1);
    expect(JSON.stringify(second.output)).toContain('paid out 0 but 20 was put in');
  });

  it('the cashier credits and debits real money by user name, with typed errors', async () => {
    const dir = await room();
    expect(await adminCashier(dir, 'credit', 'bob', 250)).toEqual({
      exitCode: 0,
      output: {
        ok: true,
        action: 'credit',
        user: 'bob',
        userId: 2,
        amount: 250,
        balances: { play: 500, real: 250 },
      },
    });
    expect((await adminCashier(dir, 'debit', 'ann', 700)).output).toMatchObject({
      ok: true,
      balances: { real: 0 },
    });
    const errors = [
      await adminCashier(dir, 'debit', 'ann', 1),
      await adminCashier(dir, 'credit', 'nobody', 1),
      await adminCashier(dir, 'credit', 'ann', 0),
      await adminCashier(join(dir, 'missing'), 'credit', 'ann', 1),
    ];
    expect(errors.map((e) => [e.exitCode, 'error' in e.output ? e.output.error.code : null])).toEqual([
      [1, 'INSUFFICIENT_FUNDS'],
      [1, 'UNKNOWN_USER'],
      [1, 'BAD_AMOUNT'],
      [1, 'NO_DATABASE'],
    ]);
    expect((await adminAudit(dir)).output).toMatchObject({
      conserved: true,
      currencies: { real: { external: -550 } },
    });
  });
});

const FELT = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'felt.js');
const built = existsSync(join(import.meta.dirname, '..', '..', 'cli', 'dist', 'commands', 'admin.js'));

describe('felt admin arguments', () => {
  it('amounts are whole cents above zero, written as digits', () => {
    expect(['1', '250', '9007199254740991'].map(parseAmount)).toEqual([1, 250, 9007199254740991]);
    expect(['0', '-3', '1.5', '1e3', 'abc', '', ' 5', '9007199254740992'].map(parseAmount)).toEqual(
      Array(8).fill(null),
    );
  });

  it('reads subcommands and flags, and says what is wrong', () => {
    expect(parseAdminArgs(['audit'])).toEqual({ command: 'audit', dataDir: './data' });
    expect(parseAdminArgs(['debit', '--amount=5', '--user', 'ann', '--data', 'd'])).toEqual({
      command: 'debit',
      dataDir: 'd',
      user: 'ann',
      amount: '5',
    });
    expect(parseAdminArgs(['audit', '--user', 'ann'])).toBe('unknown argument --user');
    expect(parseAdminArgs(['credit', '--user', 'ann'])).toBe('--amount is required');
    expect(parseAdminArgs(['credit', '--user', 'a', '--user', 'b'])).toBe('--user given twice');
    expect(parseAdminArgs(['mint'])).toBe('unknown subcommand mint');
    expect(parseAdminArgs(['grant', 'ann', 'operator', '--data', 'd'])).toEqual({
      command: 'grant',
      dataDir: 'd',
      user: 'ann',
      role: 'operator',
    });
    expect(parseAdminArgs(['revoke', 'ann'])).toEqual({ command: 'revoke', dataDir: './data', user: 'ann' });
    expect(parseAdminArgs(['grant', 'ann', 'owner'])).toBe('grant needs a role: operator or admin');
    expect(parseAdminArgs(['grant'])).toBe("grant needs the account's NAME");
    expect(parseAdminArgs(['revoke', 'ann', 'admin'])).toBe('unknown argument admin');
    expect(parseAdminArgs(['audit', 'ann'])).toBe('unknown argument ann');
    expect(parseAdminArgs(['integrity', '--data', 'd'])).toEqual({ command: 'integrity', dataDir: 'd' });
    expect(parseAdminArgs(['tournament', 'create', 'e.json', '--data', 'd'])).toEqual({
      command: 'tournament',
      dataDir: 'd',
      action: 'create',
      target: 'e.json',
    });
    expect(parseAdminArgs(['tournament', 'list'])).toEqual({
      command: 'tournament',
      dataDir: './data',
      action: 'list',
    });
    expect(parseAdminArgs(['tournament', 'cancel'])).toBe('tournament cancel needs its RUN_ID');
    expect(parseAdminArgs(['tournament', 'pause', 'x'])).toBe(
      'tournament needs create FILE, cancel RUN_ID or list',
    );
    expect(parseAdminArgs(['tournament', 'list', 'x'])).toBe('unknown argument x');
    expect(parseAdminArgs(['tournament', 'list', '--db', 'postgres://h/db'])).toBe(
      'tournament edits the table file of --data, not a database',
    );
    expect(parseAdminArgs(['integrity', '--user', 'ann'])).toBe('unknown argument --user');
    expect(parseAdminArgs(['mute', 'ann'])).toEqual({ command: 'mute', dataDir: './data', user: 'ann' });
    expect(parseAdminArgs(['unmute', 'ann', '--data', 'd'])).toEqual({
      command: 'unmute',
      dataDir: 'd',
      user: 'ann',
    });
    expect(parseAdminArgs(['mute'])).toBe("mute needs the account's NAME");
    expect(parseAdminArgs(['mute', 'ann', 'bob'])).toBe('unknown argument bob');
  });
});

describe.skipIf(!built)('felt admin (the built command)', () => {
  const felt = (args: readonly string[]): { status: number | null; json: unknown } => {
    const run = spawnSync(process.execPath, [FELT, 'admin', ...args], { encoding: 'utf8' });
    const line = run.stdout.trim().split('\n')[0] ?? '';
    return { status: run.status, json: line === '' ? null : JSON.parse(line) };
  };

  it('prints one JSON line per command and exits 1 on an error', async () => {
    const dir = await room();
    expect(felt(['audit', '--data', dir])).toMatchObject({ status: 0, json: { conserved: true } });
    expect(felt(['credit', '--user', 'ann', '--amount', '5', '--data', dir])).toMatchObject({
      status: 0,
      json: { ok: true, balances: { real: 705 } },
    });
    expect(felt(['debit', '--user', 'ann', '--amount', '5000', `--data=${dir}`])).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'INSUFFICIENT_FUNDS' } },
    });
    expect(felt(['credit', '--user', 'ann', '--amount', '1.5', '--data', dir])).toMatchObject({
      status: 1,
      json: { error: { code: 'BAD_AMOUNT' } },
    });
  });

  it('grant makes a staff account and prints its TOTP key once; it can no longer be credited; revoke undoes it', async () => {
    const dir = await room();
    const granted = felt(['grant', 'BOB', 'admin', '--data', dir]);
    expect(granted).toMatchObject({
      status: 0,
      json: { ok: true, action: 'grant', user: 'bob', role: 'admin' },
    });
    const uri = new URL((granted.json as { otpauth: string }).otpauth);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toMatch(/^[A-Z2-7]{32}$/);
    expect(felt(['credit', '--user', 'bob', '--amount', '5', '--data', dir])).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'STAFF_ACCOUNT' } },
    });
    expect(felt(['revoke', 'bob', '--data', dir])).toMatchObject({
      status: 0,
      json: { ok: true, action: 'revoke', user: 'bob', was: 'admin' },
    });
    expect(felt(['credit', '--user', 'bob', '--amount', '5', '--data', dir])).toMatchObject({ status: 0 });
    expect(felt(['mute', 'BOB', '--data', dir])).toMatchObject({
      status: 0,
      json: { ok: true, action: 'mute', user: 'bob' },
    });
    expect(felt(['unmute', 'bob', '--data', dir])).toMatchObject({ status: 0, json: { action: 'unmute' } });
    expect(felt(['mute', 'nobody', '--data', dir])).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'UNKNOWN_USER' } },
    });
    expect(felt(['grant', 'nobody', 'operator', '--data', dir])).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'UNKNOWN_USER' } },
    });
  });

  it('every admin action is in the staff audit log, whose chain the audit checks: a doctored entry fails it', async () => {
    const dir = await room();
    expect(felt(['grant', 'bob', 'operator', '--data', dir]).status).toBe(0);
    expect(felt(['credit', '--user', 'ann', '--amount', '5', '--data', dir]).status).toBe(0);
    expect(felt(['revoke', 'bob', '--data', dir]).status).toBe(0);
    expect(felt(['audit', '--data', dir])).toMatchObject({
      status: 0,
      json: { conserved: true, staffLog: { entries: 3, intact: true, brokenAt: null } },
    });
    const storage = await openMigratedSqliteStorage({ dataDir: dir });
    try {
      expect((await storage.staffLog()).map((entry) => entry.action)).toEqual([
        'grant',
        'cashier-credit',
        'revoke',
      ]);
    } finally {
      await storage.close();
    }
    const db = new Database(databaseFile(dir));
    db.exec('DROP TRIGGER staff_log_no_update');
    db.prepare("UPDATE staff_log SET detail = ? WHERE action = 'cashier-credit'").run('{"amount":5000}');
    db.close();
    expect(felt(['audit', '--data', dir])).toMatchObject({
      status: 1,
      json: { conserved: true, staffLog: { entries: 3, intact: false, brokenAt: 2 } },
    });
  });

  it('integrity prints the game-security document (no settled hand: nothing to report), exit 1 without a database', async () => {
    const dir = await room();
    expect(felt(['integrity', '--data', dir])).toMatchObject({
      status: 0,
      json: { ok: true, hands: 0, unreadable: 0, seating: [], chipDumping: [], softPlay: [], winRate: [] },
    });
    const empty = mkdtempSync(join(tmpdir(), 'felt-admin-'));
    dirs.push(empty);
    expect(felt(['integrity', '--data', empty])).toMatchObject({
      status: 1,
      json: { ok: false, error: { code: 'NO_DATABASE' } },
    });
  });
});
