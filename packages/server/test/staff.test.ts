/**
 * Staff accounts over the real protocol, against a running room: `felt admin grant` (in process, on
 * the room's data folder while it runs) makes an operator, who then signs in only with his TOTP code,
 * and whose real-money buy-in is refused with STAFF_ACCOUNT, changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, hotp } from '../src/accounts/totp.js';
import { adminCashier } from '../src/ledger/admin.js';
import { adminGrant } from '../src/staff/roles.js';
import { signedUp, TestClient, uniqueName, startTestRoom, type TestRoom } from './transport-client.js';

let room: TestRoom;
beforeAll(async () => {
  room = await startTestRoom();
});
afterAll(async () => {
  await room.close();
});

const codeAt = (otpauth: string, step: number): string =>
  hotp(base32Decode(new URL(otpauth).searchParams.get('secret')!)!, step);
const stepNow = (): number => Math.floor(Date.now() / 30_000);
const codeNow = (otpauth: string): string => codeAt(otpauth, stepNow());

describe('staff accounts (real protocol)', () => {
  it('a staff sign-in needs the TOTP code; the grant ended the sessions opened before it', async () => {
    const name = uniqueName('op');
    const { client, token } = await signedUp(room, name);
    client.close();
    const granted = await adminGrant(room.dataDir, name, 'operator');
    if (!granted.output.ok) throw new Error(granted.output.error.message);
    const otpauth = granted.output.otpauth;

    const again = await TestClient.connect(room);
    expect(await again.request('resume', { token })).toMatchObject({ op: 'error', code: 'BAD_TOKEN' });
    expect(await again.request('login', { name, password: 'correct horse' })).toMatchObject({
      op: 'error',
      code: 'TOTP_REQUIRED',
    });
    expect(await again.request('login', { name, password: 'correct horse', totp: '12345' })).toMatchObject({
      op: 'error',
      code: 'BAD_MESSAGE',
    });
    const logged = await again.ok('login', { name, password: 'correct horse', totp: codeNow(otpauth) });
    expect(logged.account.name).toBe(name);
    again.close();
  });

  it('a staff account’s real-money buy-in is refused with STAFF_ACCOUNT and moves nothing; play money it may play', async () => {
    const name = uniqueName('op');
    const { client } = await signedUp(room, name);
    client.close();
    expect((await adminCashier(room.dataDir, 'credit', name, 5000)).exitCode).toBe(0);
    const granted = await adminGrant(room.dataDir, name, 'admin');
    if (!granted.output.ok) throw new Error(granted.output.error.message);

    const staff = await TestClient.connect(room);
    await staff.ok('login', { name, password: 'correct horse', totp: codeNow(granted.output.otpauth) });
    expect(
      await staff.request('seat-take', { tableId: 'holdem-nl-real-50', seat: 5, buyIn: 2000 }),
    ).toMatchObject({ op: 'error', code: 'STAFF_ACCOUNT' });
    expect((await staff.ok('balances')).balances).toEqual({ play: 100_000, real: 5000 });
    expect(
      await staff.ok('seat-take', { tableId: 'holdem-nl-play-100', seat: 5, buyIn: 5000 }),
    ).toMatchObject({ seat: 5 });
    staff.close();
  });

  it('a TOTP code signs in once: the same code again on another socket, an earlier step’s code, and the same code after a restart are refused', async () => {
    const own = await startTestRoom({ tables: [] });
    const name = uniqueName('op');
    const { client } = await signedUp(own, name);
    client.close();
    const granted = await adminGrant(own.dataDir, name, 'operator');
    if (!granted.output.ok) throw new Error(granted.output.error.message);
    const { otpauth } = granted.output;
    const step = stepNow();
    const login = (totp: string) => ({ name, password: 'correct horse', totp });

    const first = await TestClient.connect(own);
    await first.ok('login', login(codeAt(otpauth, step)));
    const second = await TestClient.connect(own);
    expect(await second.request('login', login(codeAt(otpauth, step)))).toMatchObject({
      op: 'error',
      code: 'BAD_CREDENTIALS',
    });
    // The step before is inside the drift window, but not after the step taken.
    expect(await second.request('login', login(codeAt(otpauth, step - 1)))).toMatchObject({
      op: 'error',
      code: 'BAD_CREDENTIALS',
    });
    first.close();
    second.close();

    await own.server.stop();
    const again = await startTestRoom({ tables: [], dataDir: own.dataDir });
    try {
      const third = await TestClient.connect(again);
      expect(await third.request('login', login(codeAt(otpauth, step)))).toMatchObject({
        op: 'error',
        code: 'BAD_CREDENTIALS',
      });
      // The next step's code (drift allowed) is a new code: it signs in, once.
      await third.ok('login', login(codeAt(otpauth, step + 1)));
      third.close();
    } finally {
      await again.close();
    }
  });
});
