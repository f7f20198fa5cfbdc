/**
 * Provably fair dealing at a table (docs/fairness.md): the chain of commitments published a hand
 * ahead and stored first, the players' contributions (every one acknowledged is used), the deck dealt
 * by the scheme, and the reveal rule — checked with the engine's verifier on the stored histories.
 */
import {
  fairCommitment,
  fromHex,
  parsePhh,
  seededRandom,
  toHex,
  verifyFairHand,
  verifyFairHands,
  type PhhHand,
} from '@felt/engine';
import { describe, expect, it } from 'vitest';
import {
  createTable,
  manualClock,
  type HandRecap,
  type PlayerAction,
  type TableMessage,
} from '../src/table/index.js';
import { revealedHistory } from '../src/table/history.js';
import { FAIR_REVEAL_DELAY_MS } from '../src/table/visibility.js';
import { actor, harness, playHand, sitAll, tick, type Harness } from './table-helpers.js';

const HOLDEM = { game: 'holdem', structure: 'no-limit' } as const;
/** A game that burns nothing: a hand every player stands pat in and shows down exposes nothing hidden. */
const TRIPLE_DRAW = { game: 'triple-draw-27', structure: 'no-limit' } as const;
const bytes = (fill: number): string => toHex(new Uint8Array(32).fill(fill));

function phhOf(text: string): PhhHand {
  const parsed = parsePhh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

const starts = (h: Harness, viewer: number | 'spectator') =>
  h.inbox
    .get(viewer)!
    .filter((m): m is Extract<TableMessage, { type: 'hand-start' }> => m.type === 'hand-start');

/** Plays the hand in progress out by checks, calls and standing pat (everybody still in shows down). */
async function checkDown(h: Harness): Promise<number> {
  if (h.table.view(null).hand === null) await tick(h, 2_000);
  const handId = h.table.view(null).hand!.handId;
  for (let i = 0; i < 100 && h.table.view(null).hand?.handId === handId; i++) {
    const who = actor(h)!;
    const legal = h.table.view(who.account).hand!.legal!;
    const action: PlayerAction =
      legal.discard !== null ? { type: 'stand-pat' } : legal.check ? { type: 'check' } : { type: 'call' };
    await h.table.handle(who, { type: 'act', action });
  }
  expect(h.table.view(null).hand?.handId).not.toBe(handId);
  return handId;
}

describe('fair dealing at a table: the chain and the contributions', () => {
  it('each hand is dealt from the commitment published a hand ahead and every contribution acknowledged: the histories verify as a chain', async () => {
    const h = harness(HOLDEM, { players: 3, seed: 11 });
    await sitAll(h, 200);
    const next = h.table.view(null).fair!;
    expect(next.hand).toBe(1);
    const [p1, , p3] = h.players;
    const r3 = await h.table.handle(p3!, {
      type: 'fair-contribute',
      commitment: next.commitment,
      bytes: bytes(3),
    });
    const r1 = await h.table.handle(p1!, {
      type: 'fair-contribute',
      commitment: next.commitment,
      bytes: bytes(1),
    });
    expect(r1).toMatchObject({ ok: true, contribution: { hand: 1, seat: 0 } });
    expect(r3).toMatchObject({ ok: true, contribution: { hand: 1, seat: 2 } });
    const first = await playHand(h, seededRandom(4));
    const second = await playHand(h, seededRandom(5));

    // The first message of each hand: its commitment and hashes (seat order), and the next commitment.
    const [start1, start2] = starts(h, 'spectator');
    expect(start1).toMatchObject({ handId: first, fair: { hand: 1, commitment: next.commitment } });
    const receipts = [r1, r3].map((r) => (r.ok ? r.contribution : null));
    expect(start1!.fair.contributions).toEqual(receipts.map((r) => ({ seat: r!.seat, hash: r!.hash })));
    expect(start1!.next.hand).toBe(2);
    expect(start2!.fair).toMatchObject({ hand: 2, previous: next.commitment, contributions: [] });
    expect(start2!.fair.commitment).toBe(start1!.next.commitment);

    // Hand 1 stored the chain's next link (hand 2's secret) with itself, before announcing it.
    const link = h.storage.started.get(first)!.fair!.next;
    const stored = fairCommitment({
      table: 't1',
      hand: link.hand,
      previous: fromHex(link.previous, 32)!,
      secret: fromHex(link.secret, 32)!,
    });
    expect(stored.ok && toHex(stored.value)).toBe(start1!.next.commitment);

    // The operator's copies hold the secrets: they verify, card by card and as a chain.
    const full = [first, second].map((id) => phhOf(h.storage.settled.get(id)!.history.phh));
    expect(verifyFairHands(full)).toEqual([{ ok: true }, { ok: true }]);
    expect(full[0]!.extra._fair_contributions).toEqual([bytes(1), bytes(3)]);
    // A contribution left out gives another deck: verification fails.
    const dropped = {
      ...full[0]!,
      extra: {
        ...full[0]!.extra,
        _fair_contribution_seats: [0],
        _fair_contribution_hashes: [receipts[0]!.hash],
        _fair_contributions: [bytes(1)],
      },
    };
    const verdict = verifyFairHand(dropped);
    expect(!verdict.ok && verdict.reason.startsWith('card')).toBe(true);
    expect(h.errors).toEqual([]);
    await h.table.dispose();
  });

  it('a contribution is refused and changes nothing when it is not 32 bytes of hex, names another commitment, comes from a player not seated, or repeats a seat', async () => {
    const h = harness(HOLDEM, { players: 2, seed: 12 });
    await sitAll(h, 200);
    const { commitment } = h.table.view(null).fair!;
    const [p1, p2] = h.players;
    const stranger = { account: 77, name: 'stranger' };
    const code = async (who: typeof stranger, c: string, b: string) => {
      const result = await h.table.handle(who, { type: 'fair-contribute', commitment: c, bytes: b });
      return result.ok ? 'ok' : result.error.code;
    };
    expect(await code(p1!, commitment, 'zz'.repeat(32))).toBe('BAD_CONTRIBUTION');
    expect(await code(p1!, commitment, bytes(0xab).toUpperCase())).toBe('BAD_CONTRIBUTION');
    expect(await code(p1!, commitment, bytes(1).slice(2))).toBe('BAD_CONTRIBUTION');
    expect(await code(p1!, bytes(9), bytes(1))).toBe('WRONG_COMMITMENT');
    expect(await code(stranger, commitment, bytes(1))).toBe('NOT_SEATED');
    expect(await code(p2!, commitment, bytes(2))).toBe('ok');
    expect(await code(p2!, commitment, bytes(5))).toBe('WRONG_STATE');
    await tick(h, 2_000);
    const [start] = starts(h, 'spectator');
    expect(start!.fair.contributions.map((c) => c.seat)).toEqual([1]);
    await h.table.dispose();
  });

  it('once a hand has started its commitment takes no more contributions: they go to the next hand', async () => {
    const h = harness(HOLDEM, { players: 2, seed: 13 });
    await sitAll(h, 200);
    const first = h.table.view(null).fair!;
    await tick(h, 2_000);
    const during = h.table.view(null).fair!;
    expect(during).toMatchObject({ hand: 2 });
    const [p1] = h.players;
    const late = await h.table.handle(p1!, {
      type: 'fair-contribute',
      commitment: first.commitment,
      bytes: bytes(1),
    });
    expect(late).toMatchObject({ ok: false, error: { code: 'WRONG_COMMITMENT' } });
    const early = await h.table.handle(p1!, {
      type: 'fair-contribute',
      commitment: during.commitment,
      bytes: bytes(1),
    });
    expect(early).toMatchObject({ ok: true, contribution: { hand: 2 } });
    await playHand(h, seededRandom(1));
    await playHand(h, seededRandom(2));
    const [start1, start2] = starts(h, 'spectator');
    expect(start1!.fair.contributions).toEqual([]);
    expect(start2!.fair.contributions.map((c) => c.seat)).toEqual([0]);
    await h.table.dispose();
  });

  it('a restarted table takes up its stored chain: the next hand is the one whose commitment was published', async () => {
    const h = harness(HOLDEM, { players: 2, seed: 14 });
    await sitAll(h, 200);
    await playHand(h, seededRandom(3));
    const before = h.table.view(null).fair!;
    await h.table.dispose();
    const again = createTable(
      { id: 't1', name: 'Test', stakes: { small: 2, big: 4 }, currency: 'play', ...HOLDEM },
      { storage: h.storage, clock: manualClock(), random: seededRandom(99) },
    );
    await again.idle();
    expect(again.view(null).fair).toEqual(before);
    await again.dispose();
  });
});

describe('fair dealing at a table: who gets the secret, and when', () => {
  it('every card dealt shown: the players get the secret at once in the summary and their histories verify; spectators never', async () => {
    const h = harness(TRIPLE_DRAW, { players: 2, seed: 3 });
    await sitAll(h, 100);
    for (const p of h.players) await h.table.handle(p, { type: 'muck-losing', on: false });
    const handId = await checkDown(h);
    const summary = (viewer: number | 'spectator'): HandRecap => {
      const pushed = h.inbox.get(viewer)!.find((m) => m.type === 'hand-summary');
      if (pushed?.type !== 'hand-summary' || pushed.summary.handId !== handId) throw new Error('no summary');
      return pushed.summary;
    };
    expect(summary('spectator').reveal).toBeNull();
    expect((await h.table.lastSummary(null))?.reveal).toBeNull();
    const settlement = h.storage.settled.get(handId)!;
    expect(settlement.fairRevealAfterMs).toBe(0);
    for (const p of h.players) {
      const reveal = summary(p.account).reveal!;
      expect(reveal.secret).toMatch(/^[0-9a-f]{64}$/);
      const view = settlement.history.views.find((v) => v.userId === p.account)!.phh;
      // The stored view has no secret; with the reveal it verifies.
      const hidden = verifyFairHand(phhOf(view));
      expect(!hidden.ok && hidden.reason.startsWith('secret')).toBe(true);
      expect(verifyFairHand(phhOf(revealedHistory(view, reveal)))).toEqual({ ok: true });
    }
    await h.table.dispose();
  });

  it('a hand won without a showdown keeps its secret a day: nobody gets it in the summary', async () => {
    const h = harness(HOLDEM, { players: 2, seed: 3 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    await h.table.handle(actor(h)!, { type: 'act', action: { type: 'fold' } });
    expect(h.storage.settled.get(handId)!.fairRevealAfterMs).toBe(FAIR_REVEAL_DELAY_MS);
    for (const viewer of [...h.players.map((p) => p.account), 'spectator' as const]) {
      const pushed = h.inbox.get(viewer)!.find((m) => m.type === 'hand-summary');
      expect(pushed?.type === 'hand-summary' && pushed.summary.reveal).toBeNull();
    }
    await h.table.dispose();
  });

  it('the secret reaches no client before its hand ended, and never a spectator', async () => {
    const h = harness(TRIPLE_DRAW, { players: 3, seed: 21 });
    await sitAll(h, 200);
    for (const p of h.players) await h.table.handle(p, { type: 'muck-losing', on: false });
    const handId = await checkDown(h);
    const secret = h.storage.started.get(handId)!.fair!.secret;
    const next = h.storage.started.get(handId)!.fair!.next.secret;
    for (const [viewer, inbox] of h.inbox) {
      const frames = inbox.map((m) => JSON.stringify(m));
      const end = inbox.findIndex((m) => m.type === 'hand-summary' && m.summary.handId === handId);
      expect(end).toBeGreaterThan(0);
      for (const [i, frame] of frames.entries()) {
        expect(frame.includes(next)).toBe(false);
        if (i < end || viewer === 'spectator') expect(frame.includes(secret)).toBe(false);
      }
      if (viewer !== 'spectator') expect(frames[end]!.includes(secret)).toBe(true);
    }
    await h.table.dispose();
  });
});
