/**
 * The pieces of the room's limits on their own: the login throttle's delays (slow, bounded, never a
 * lock), the bounded password-hashing queue, which addresses are exempt, and the Origin rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashQueue } from '../src/accounts/hash-queue.js';
import { LoginThrottle } from '../src/accounts/login-throttle.js';
import { addressGroup } from '../src/transport/address-groups.js';
import { AddressPolicy, normalizeAddress } from '../src/transport/addresses.js';
import { originAllowed } from '../src/transport/browser-security.js';

const stranger = { address: '203.0.113.7', exempt: false };

describe('login throttle', () => {
  it('the delay is 0 for the free failures, never shrinks with more failures, and never exceeds the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 200 }),
        (freeFailures, baseDelayMs, maxDelayMs, failures) => {
          const throttle = new LoginThrottle({ freeFailures, baseDelayMs, maxDelayMs });
          const delay = throttle.delayAfter(failures);
          if (failures < freeFailures) expect(delay).toBe(0);
          else expect(delay).toBeGreaterThan(0);
          expect(delay).toBeLessThanOrEqual(maxDelayMs);
          expect(throttle.delayAfter(failures + 1)).toBeGreaterThanOrEqual(delay);
        },
      ),
    );
  });

  it('whatever the failures, an attempt is allowed again once the capped delay has passed (never a lock)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), (failures) => {
        let now = 1_000_000;
        const throttle = new LoginThrottle({
          freeFailures: 3,
          baseDelayMs: 1000,
          maxDelayMs: 30_000,
          clock: () => now,
        });
        for (let i = 0; i < failures; i++) throttle.failed('victim');
        now += 30_000;
        expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: true });
      }),
    );
  });

  it('attempts inside the delay are refused with the time left; a success clears the count; old failures are forgotten', () => {
    let now = 0;
    const throttle = new LoginThrottle({
      freeFailures: 2,
      baseDelayMs: 1000,
      forgetMs: 60_000,
      clock: () => now,
    });
    throttle.failed('Victim');
    throttle.failed('victim');
    expect(throttle.checkAccount('VICTIM', stranger)).toEqual({ ok: false, retryMs: 1000 });
    now = 400;
    expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: false, retryMs: 600 });
    now = 1000;
    expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: true });
    throttle.failed('victim');
    expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: false, retryMs: 2000 });
    now += 61_000;
    expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: true });
    throttle.failed('victim');
    expect(throttle.checkAccount('victim', stranger)).toEqual({ ok: true });
  });

  it("an address that signed in to the account before is not slowed by others' failures; a shared (exempt) one never counts as known", () => {
    const now = 0;
    const throttle = new LoginThrottle({ freeFailures: 1, baseDelayMs: 60_000, clock: () => now });
    const owner = { address: '198.51.100.1', exempt: false };
    const proxy = { address: '127.0.0.1', exempt: true };
    throttle.succeeded('victim', owner);
    throttle.succeeded('victim', proxy);
    for (let i = 0; i < 10; i++) throttle.failed('victim');
    expect(throttle.checkAccount('victim', owner)).toEqual({ ok: true });
    expect(throttle.checkAccount('victim', stranger).ok).toBe(false);
    expect(throttle.checkAccount('victim', proxy).ok).toBe(false);
  });

  it('the per-address bucket refuses past its burst, refills over time, and spares exempt callers', () => {
    let now = 0;
    const throttle = new LoginThrottle({ addressBurst: 2, addressPerMinute: 6, clock: () => now });
    expect(throttle.takeAddress(stranger).ok).toBe(true);
    expect(throttle.takeAddress(stranger).ok).toBe(true);
    expect(throttle.takeAddress(stranger)).toEqual({ ok: false, retryMs: 10_000 });
    now = 10_000;
    expect(throttle.takeAddress(stranger).ok).toBe(true);
    for (let i = 0; i < 100; i++)
      expect(throttle.takeAddress({ address: '127.0.0.1', exempt: true }).ok).toBe(true);
  });
});

describe('password hashing queue', () => {
  it('runs at most `concurrency` jobs, queues `maxWaiting` more, refuses the rest without running them, and runs every queued one', async () => {
    const queue = new HashQueue({ concurrency: 2, maxWaiting: 1 });
    const releases: (() => void)[] = [];
    let started = 0;
    const job = (): Promise<number> =>
      new Promise((resolve) => {
        const n = ++started;
        releases.push(() => {
          resolve(n);
        });
      });
    const first = queue.run(job);
    const second = queue.run(job);
    const third = queue.run(job);
    expect(await queue.run(job)).toBeNull();
    await Promise.resolve();
    expect(started).toBe(2);
    expect([queue.running, queue.waiting]).toEqual([2, 1]);
    releases.shift()!();
    expect(await first).toEqual({ value: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(3);
    for (const release of releases.splice(0)) release();
    expect(await second).toEqual({ value: 2 });
    expect(await third).toEqual({ value: 3 });
    expect([queue.running, queue.waiting, queue.peak]).toEqual([0, 0, 2]);
  });

  it('a job that throws frees its slot', async () => {
    const queue = new HashQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(() => Promise.resolve(7))).toEqual({ value: 7 });
    expect(queue.running).toBe(0);
  });
});

describe('addresses and origins', () => {
  it('an IPv6 address counts as its prefix, one spelling whatever its own; IPv4 and IPv4-mapped as the IPv4 address', () => {
    const group = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
      '2001:DB8:1:2::9%eth0',
    ])
      expect(addressGroup(address)).toBe(group);
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroup('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(addressGroup('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2:0:0:0:1/128');
    for (const mapped of ['::ffff:203.0.113.9', '0:0:0:0:0:ffff:cb00:7109', '203.0.113.9'])
      expect(addressGroup(mapped)).toBe('203.0.113.9');
  });

  it('loopback (IPv4 127/8, ::1, IPv4-mapped) and trusted addresses are exempt unless loopback is counted', () => {
    const policy = new AddressPolicy({ trusted: ['10.0.0.5', '::ffff:10.0.0.6'] });
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      normalizeAddress('::ffff:127.0.0.1'),
      '10.0.0.5',
      '10.0.0.6',
    ])
      expect(policy.exempt(address)).toBe(true);
    for (const address of ['10.0.0.7', '192.168.1.1', '::2', '1127.0.0.1'])
      expect(policy.exempt(address)).toBe(false);
    const counted = new AddressPolicy({ limitLoopback: true, trusted: ['10.0.0.5'] });
    expect(counted.exempt('127.0.0.1')).toBe(false);
    expect(counted.exempt('10.0.0.5')).toBe(true);
  });

  it("an Origin is allowed when absent, the room's own host, or listed; anything else is refused", () => {
    expect(originAllowed(undefined, 'room:8080', [])).toBe(true);
    expect(originAllowed('http://room:8080', 'room:8080', [])).toBe(true);
    expect(originAllowed('https://ROOM:8080', 'room:8080', [])).toBe(true);
    expect(originAllowed('http://room:8081', 'room:8080', [])).toBe(false);
    expect(originAllowed('http://evil.example', 'room:8080', [])).toBe(false);
    expect(originAllowed('null', 'room:8080', [])).toBe(false);
    expect(originAllowed('file://room:8080', 'room:8080', [])).toBe(false);
    expect(originAllowed('http://room:8080', undefined, [])).toBe(false);
    expect(originAllowed('https://poker.example', 'room:8080', ['https://poker.example'])).toBe(true);
  });
});
