/**
 * The reveal rule at real tables of every game family (docs/fairness.md §8): a hand's secret goes to
 * its players at once only when the deck it rebuilds exposes no card some player did not see — every
 * position the hand took was dealt face up, on the board, or shown at the showdown, and nothing was
 * discarded; otherwise a day later. Burns are never shown, so the games that burn (flop games, the
 * 7-card studs, Sökö) never reveal at once; the draw games, Americana and Telesina do when every card
 * was shown.
 */
import { variantOf, type VariantId } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { HIDDEN_CARD, type HandRecap, type PlayerAction, type PlayerRef } from '../src/table/index.js';
import { FAIR_REVEAL_DELAY_MS } from '../src/table/visibility.js';
import { actor, harness, sitAll, tick, type Harness } from './table-helpers.js';

/** How each player plays a scripted hand; by default he calls, checks, brings in and stands pat. */
interface Script {
  /** They fold at their first turn facing a bet. */
  readonly folders?: readonly number[];
  /** Throws away his first card in the hand's first draw. */
  readonly discarder?: number;
  /** Bets or raises all in at every turn, and agrees to run it twice. */
  readonly shover?: number;
  /** Mucks a hand a shown one beats (the table's default) instead of showing it. */
  readonly muckLosing?: boolean;
}

async function table(game: VariantId, players: number, more: { runItTwice?: boolean; seed?: number } = {}) {
  const h = harness(
    {
      game,
      structure: variantOf(game).forced === 'blinds' ? 'no-limit' : 'fixed-limit',
      ...(more.runItTwice === undefined ? {} : { runItTwice: more.runItTwice }),
    },
    { players, seed: more.seed ?? 1 },
  );
  await sitAll(h, 200);
  return h;
}

function decide(h: Harness, who: PlayerRef, script: Script, state: { discarded: boolean }): PlayerAction {
  const view = h.table.view(who.account);
  const legal = view.hand!.legal!;
  if (legal.split) return { type: 'split', accept: false };
  if (legal.discard !== null) {
    if (who.account !== script.discarder || state.discarded) return { type: 'stand-pat' };
    state.discarded = true;
    const mine = view.hand!.players.find((p) => p.seat === view.you)!.cards;
    return { type: 'discard', cards: mine.slice(0, 1) };
  }
  if (script.folders?.includes(who.account) === true && legal.call !== null) return { type: 'fold' };
  if (who.account === script.shover && legal.raise) return { type: 'raise', to: legal.raise.max };
  if (legal.bringIn !== null) return { type: 'bring-in' };
  return legal.check ? { type: 'check' } : { type: 'call' };
}

/** Plays the next hand by the script: its settled reveal delay and the summary each player was sent. */
async function play(h: Harness, script: Script = {}) {
  for (const p of h.players) await h.table.handle(p, { type: 'muck-losing', on: script.muckLosing ?? false });
  if (h.table.view(null).hand === null) await tick(h, 2_000);
  const handId = h.table.view(null).hand!.handId;
  const state = { discarded: false };
  for (let step = 0; h.table.view(null).hand?.handId === handId; step++) {
    if (step > 300) throw new Error('the hand did not end');
    const who = actor(h);
    if (who === null) {
      // No actor: run it twice is on offer; every player agrees.
      for (const p of h.players) await h.table.handle(p, { type: 'run-twice', accept: true });
      continue;
    }
    const result = await h.table.handle(who, { type: 'act', action: decide(h, who, script, state) });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  }
  const summaryOf = (viewer: number | 'spectator'): HandRecap => {
    const pushed = h.inbox.get(viewer)!.findLast((m) => m.type === 'hand-summary');
    if (pushed?.type !== 'hand-summary' || pushed.summary.handId !== handId) throw new Error('no summary');
    return pushed.summary;
  };
  const summaries = h.players.map((p) => summaryOf(p.account));
  expect(h.errors).toEqual([]);
  return {
    delay: h.storage.settled.get(handId)!.fairRevealAfterMs,
    summaries,
    /** What everybody at the table saw. */
    public: summaryOf('spectator'),
  };
}

type Played = Awaited<ReturnType<typeof play>>;

/** A hand's verdict: revealed at once (to every player, in his summary) or a day later (to none yet). */
function verdict(hand: Played): 'at once' | 'a day later' {
  const revealed = hand.summaries.map((s) => s.reveal !== null);
  if (hand.delay === 0 && revealed.every(Boolean)) return 'at once';
  if (hand.delay === FAIR_REVEAL_DELAY_MS && !revealed.some(Boolean)) return 'a day later';
  throw new Error(`inconsistent reveal: delay ${String(hand.delay)}, summaries ${revealed.join()}`);
}

/** Every card a player holds at the end was seen by everybody: the spectator's summary hides none. */
const everyPlayerShown = (hand: Played): boolean =>
  hand.public.players.every((p) => p.showed && !p.folded && !p.mucked && !p.cards.includes(HIDDEN_CARD));

describe('draw games: a discarded card was held and never shown', () => {
  for (const game of ['triple-draw-27', 'draw5', 'draw32'] as const) {
    it(`${game}: every player stands pat and shows down → at once; one discards a card, even shown down after → a day later; the hand ends by folds → a day later`, async () => {
      const h = await table(game, 3);
      const [a, b, c] = h.players.map((p) => p.account) as [number, number, number];
      const pat = await play(h);
      expect(everyPlayerShown(pat)).toBe(true);
      expect(verdict(pat)).toBe('at once');

      const drawn = await play(h, { discarder: b });
      expect(everyPlayerShown(drawn)).toBe(true);
      expect(verdict(drawn)).toBe('a day later');

      const won = await play(h, { shover: a, folders: [b, c] });
      expect(won.public.players.filter((p) => p.folded)).toHaveLength(2);
      expect(verdict(won)).toBe('a day later');
      await h.table.dispose();
    });
  }
});

describe('Americana and Telesina (no burns; the Vela on the board): every down card must be shown', () => {
  for (const game of ['americana', 'telesina'] as const) {
    it(`${game}: every player shows down → at once; a player folds → a day later`, async () => {
      const h = await table(game, 3);
      const shown = await play(h);
      expect(everyPlayerShown(shown)).toBe(true);
      if (game === 'telesina') expect(shown.summaries[0]!.board).toHaveLength(1);
      expect(verdict(shown)).toBe('at once');

      const folded = await play(h, { shover: h.players[0]!.account, folders: [h.players[2]!.account] });
      expect(folded.summaries[0]!.players.some((p) => p.folded)).toBe(true);
      expect(verdict(folded)).toBe('a day later');
      await h.table.dispose();
    });
  }

  it('americana: a loser mucks at the showdown → a day later; every hand shown → at once', async () => {
    const h = await table('americana', 4, { seed: 2 });
    const isMucked = (hand: Played): boolean => hand.public.players.some((p) => p.mucked);
    const hands: Played[] = [];
    while (hands.length < 20 && !hands.some(isMucked)) hands.push(await play(h, { muckLosing: true }));
    expect(hands.some(isMucked)).toBe(true);
    for (const hand of hands) expect(verdict(hand)).toBe(isMucked(hand) ? 'a day later' : 'at once');
    await h.table.dispose();
  });
});

describe('games that burn: a burn is never shown, so their secret always waits a day', () => {
  const burning: readonly { game: VariantId; players: number }[] = [
    { game: 'holdem', players: 3 },
    { game: 'omaha-hilo', players: 3 },
    { game: 'stud', players: 3 },
    { game: 'stud-hilo', players: 2 },
    { game: 'soko', players: 3 },
  ];
  for (const { game, players } of burning) {
    it(`${game}: every player shows every card he was dealt → still a day later; a hand ended by a fold → a day later`, async () => {
      const h = await table(game, players);
      const shown = await play(h);
      expect(everyPlayerShown(shown)).toBe(true);
      expect(verdict(shown)).toBe('a day later');

      const folded = await play(h, { shover: h.players[0]!.account, folders: [h.players[1]!.account] });
      expect(folded.summaries[0]!.players.some((p) => p.folded)).toBe(true);
      expect(verdict(folded)).toBe('a day later');
      await h.table.dispose();
    });
  }

  it('holdem run twice: both boards and every hand shown → still a day later', async () => {
    const h = await table('holdem', 2, { runItTwice: true });
    const twice = await play(h, { shover: h.players[0]!.account });
    expect(twice.summaries[0]!.secondBoard).toHaveLength(5);
    expect(everyPlayerShown(twice)).toBe(true);
    expect(verdict(twice)).toBe('a day later');
    await h.table.dispose();
  });
});
