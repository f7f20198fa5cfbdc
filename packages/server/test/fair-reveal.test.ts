/**
 * The reveal rule's "a day later" (docs/fairness.md §8) on a real SQLite file: a hand not every player
 * showed keeps its secret out of its players' fetched histories until its reveal time by the storage's
 * clock; from then on the history carries the secret and contributions (as `history-fetch` builds it,
 * `revealedHistory`) and the engine's verifier checks it. A hand every player showed is revealed at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAIR_FIELDS, parsePhh, simulatePhh, verifyFairHand, writePhh, type PhhHand } from '@felt/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import { revealedHistory } from '../src/table/history.js';
import { FAIR_REVEAL_DELAY_MS } from '../src/table/visibility.js';
import { user } from './storage-contract-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'felt-fair-reveal-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A hand dealt by the scheme: the operator's PHH (with the secret) and a player's (without). */
function dealtHand(): { full: PhhHand; view: string; secret: string; contributions: string[] } {
  const simulated = simulatePhh({ variant: 'NT', players: 2, hands: 1, seed: 5 });
  if (!simulated.ok) throw new Error(simulated.error.message);
  const full = simulated.value[0]!;
  const { [FAIR_FIELDS.secret]: secret, [FAIR_FIELDS.contributions]: contributions, ...rest } = full.extra;
  return {
    full,
    view: writePhh({ ...full, extra: rest }),
    secret: secret as string,
    contributions: contributions as string[],
  };
}

const verdictOf = (phh: string): string => {
  const parsed = parsePhh(phh);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const verdict = verifyFairHand(parsed.value);
  return verdict.ok ? 'ok' : verdict.reason;
};

async function settledHand(revealAfterMs: number) {
  let now = 1_700_000_000_000;
  const storage = await openMigratedSqliteStorage({
    dataDir: join(dir, String(revealAfterMs)),
    clock: () => now,
  });
  const [ann, bob, carol] = [
    await user(storage, 'ann'),
    await user(storage, 'bob'),
    await user(storage, 'carol'),
  ];
  const { full, view, secret, contributions } = dealtHand();
  const started = await storage.startHand({
    tableId: 't1',
    currency: 'play',
    description: "NL Hold'em 1/2",
    participants: [
      { userId: ann, seat: 0, position: 0 },
      { userId: bob, seat: 1, position: 1 },
    ],
    fair: {
      secret,
      contributions,
      next: { hand: 2, previous: full.extra[FAIR_FIELDS.commitment] as string, secret: 'ab'.repeat(32) },
    },
  });
  if (!started.ok) throw new Error(started.error.message);
  const settled = await storage.settleHand({
    handId: started.value,
    awards: [],
    rake: 0,
    history: {
      phh: writePhh(full),
      views: [
        { userId: ann, phh: view },
        { userId: bob, phh: view },
      ],
    },
    fairRevealAfterMs: revealAfterMs,
  });
  if (!settled.ok) throw new Error(settled.error.message);
  /** What `history-fetch` gives the user now: the stored view, with the secret once it is due. */
  const fetched = async (userId: number): Promise<string | null> => {
    const hand = await storage.handFor(started.value, userId);
    return hand === null ? null : revealedHistory(hand.phh, hand.fairReveal);
  };
  return {
    storage,
    ann,
    bob,
    carol,
    fetched,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('a hand not every player showed: its secret joins its players’ histories a day later', () => {
  it('before its reveal time the history has no secret (its check says so); at it, the history verifies', async () => {
    const { storage, ann, bob, carol, fetched, advance } = await settledHand(FAIR_REVEAL_DELAY_MS);
    for (const player of [ann, bob]) expect(verdictOf((await fetched(player))!)).toMatch(/^secret: /);
    advance(FAIR_REVEAL_DELAY_MS - 1);
    expect(verdictOf((await fetched(ann))!)).toMatch(/^secret: /);
    advance(1);
    for (const player of [ann, bob]) expect(verdictOf((await fetched(player))!)).toBe('ok');
    // Nobody else gets the hand at all.
    expect(await fetched(carol)).toBeNull();
    await storage.close();
  });

  it('a hand every player showed (reveal after 0 ms): its players’ histories verify at once', async () => {
    const { storage, ann, bob, fetched } = await settledHand(0);
    for (const player of [ann, bob]) expect(verdictOf((await fetched(player))!)).toBe('ok');
    await storage.close();
  });
});
