/**
 * Run it twice in hand histories: the user-defined `_runs` field (PHH has no action for it) read,
 * written and replayed; the readable text with both boards and back; and the fair-dealing check of a
 * hand run twice, whose second board takes the next positions of the committed deck (docs/fairness.md §6).
 */
import { describe, expect, it } from 'vitest';
import {
  deckOrder,
  fairDeal,
  fairFields,
  FAIR_VERSION,
  formatCard,
  Hand,
  NO_PREVIOUS_COMMITMENT,
  parsePhh,
  phhToText,
  replayPhh,
  textToPhh,
  verifyFairHand,
  writePhh,
  type HandEvent,
  type PhhAction,
  type PhhHand,
} from '../src/index.js';

/** Heads-up, all in before the flop, the board run twice: AA wins the first run, KK the second. */
const TWO_RUNS = `variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = [
  'd dh p1 AsAh',
  'd dh p2 KsKh',
  'p2 cbr 100',
  'p1 cc',
  'p2 sm KsKh',
  'p1 sm AsAh',
  'd db 2c3d4h',
  'd db 9s',
  'd db Jc',
  'd db 5s6d7c # second run',
  'd db Kd',
  'd db 8c',
]
finishing_stacks = [100, 100]
_runs = 2
`;

const read = (text: string): PhhHand => {
  const parsed = parsePhh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

describe('the `_runs` field', () => {
  it('a hand with `_runs = 2` replays with both boards, each run winning half the pot', () => {
    const outcome = replayPhh(read(TWO_RUNS), { rules: 'phh' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.finishingStacks).toEqual([100, 100]);
    expect(outcome.events.filter((e) => e.type === 'run-twice')).toHaveLength(1);
    const awards = outcome.events.filter(
      (e): e is Extract<HandEvent, { type: 'award' }> => e.type === 'award',
    );
    expect(awards.map((a) => [a.player, a.amount, a.run])).toEqual([
      [0, 100, 1],
      [1, 100, 2],
    ]);
  });

  it('is kept through writing and reading the file again', () => {
    const again = read(writePhh(read(TWO_RUNS)));
    expect(again.extra._runs).toBe(2);
    expect(again.actions).toEqual(read(TWO_RUNS).actions);
    expect(replayPhh(again, { rules: 'phh' }).ok).toBe(true);
  });

  it('without it the second board is refused: one run ends the hand', () => {
    const hand = read(TWO_RUNS);
    const withoutRuns = { ...hand, extra: {} };
    const outcome = replayPhh(withoutRuns, { rules: 'phh' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.action).toBe(9);
  });

  it('a value other than 1 or 2 is a typed error', () => {
    const outcome = replayPhh({ ...read(TWO_RUNS), extra: { _runs: 3 } }, { rules: 'phh' });
    expect(outcome.ok || outcome.error).toEqual({ code: 'BAD_PHH', message: '_runs must be 1 or 2, not 3' });
    expect(phhToText({ ...read(TWO_RUNS), extra: { _runs: 'two' } }).ok).toBe(false);
  });
});

describe('the readable text of a hand run twice', () => {
  const written = phhToText(read(TWO_RUNS));
  const text = written.ok ? written.value : '';

  it('names each run and shows both boards in the summary', () => {
    expect(text).toContain('*** FIRST FLOP *** [2c 3d 4h]');
    expect(text).toContain('*** FIRST RIVER *** [2c 3d 4h 9s] [Jc]');
    expect(text).toContain('*** SECOND FLOP *** [5s 6d 7c]');
    expect(text).toContain('*** SECOND RIVER *** [5s 6d 7c Kd] [8c]');
    expect(text).toContain('Hand was run twice\nFIRST Board [2c 3d 4h 9s Jc]\nSECOND Board [5s 6d 7c Kd 8c]');
  });

  it('reads back into the same hand, `_runs` included', () => {
    const back = textToPhh(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value.extra._runs).toBe(2);
    const replayed = replayPhh(back.value, { rules: 'phh' });
    expect(replayed.ok && replayed.finishingStacks).toEqual([100, 100]);
  });

  it('a flop shared by both runs is named once, the runs from the turn', () => {
    const afterFlop = read(
      TWO_RUNS.replace(
        "'p2 cbr 100',\n  'p1 cc',",
        "'p2 cc',\n  'p1 cc',\n  'd db 2c3d4h',\n  'p1 cbr 98',\n  'p2 cc',",
      )
        .replace("  'd db 2c3d4h',\n  'd db 9s',", "  'd db 9s',")
        .replace("'d db 5s6d7c # second run',\n", ''),
    );
    const outcome = replayPhh(afterFlop, { rules: 'phh' });
    expect(outcome.ok).toBe(true);
    const lines = phhToText(afterFlop);
    expect(lines.ok && lines.value).toContain('*** FLOP *** [2c 3d 4h]');
    expect(lines.ok && lines.value).toContain('*** FIRST TURN *** [2c 3d 4h] [9s]');
    expect(lines.ok && lines.value).toContain('*** SECOND TURN *** [2c 3d 4h] [Kd]');
    expect(lines.ok && lines.value).toContain('SECOND Board [2c 3d 4h Kd 8c]');
  });
});

describe('fair dealing: a hand run twice verifies', () => {
  const table = 'rit-table';
  const secret = new Uint8Array(32).fill(7);
  const contributions = [{ seat: 1, bytes: new Uint8Array(32).fill(9) }];
  const dealt = fairDeal({ table, hand: 1, previous: NO_PREVIOUS_COMMITMENT, secret }, contributions);
  if (!dealt.ok) throw new Error(dealt.error.message);
  const deal = dealt.value;

  /** Heads-up hold'em dealt from the committed deck, all in before the flop, run twice. */
  function playedHand(): PhhHand {
    const created = Hand.create(
      { variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1], autoShowdown: true },
      deal.random(),
    );
    if (!created.ok) throw new Error(created.error.message);
    const hand = created.value;
    const must = (ok: boolean): void => {
      if (!ok) throw new Error('refused');
    };
    must(hand.apply({ type: 'deal' }).ok);
    must(hand.apply({ type: 'deal' }).ok);
    must(hand.apply({ type: 'bet-raise', player: 1, to: 100 }).ok);
    must(hand.apply({ type: 'check-call', player: 0 }).ok);
    for (let show = hand.nextExposure(); show !== null; show = hand.nextExposure()) must(hand.apply(show).ok);
    must(hand.apply({ type: 'run-twice' }).ok);
    while (!hand.isDone) must(hand.apply({ type: 'deal' }).ok);
    const actions: PhhAction[] = hand.events.flatMap((e): PhhAction[] => {
      switch (e.type) {
        case 'deal-hole':
          return [{ kind: 'deal-hole', player: e.player, cards: e.cards }];
        case 'deal-board':
          return [{ kind: 'deal-board', cards: e.cards }];
        case 'bet-raise':
          return [{ kind: 'bet-raise', player: e.player, amount: e.to }];
        case 'call':
          return [{ kind: 'check-call', player: e.player }];
        case 'show':
          return [{ kind: 'show-muck', player: e.player, cards: e.cards }];
        default:
          return [];
      }
    });
    return {
      variant: 'NT',
      scale: 0,
      antes: [0, 0],
      blindsOrStraddles: [1, 2],
      minBet: 2,
      startingStacks: [100, 100],
      actions,
      finishingStacks: [...hand.finishingStacks()!],
      extra: {
        _runs: 2,
        ...fairFields({
          version: FAIR_VERSION,
          table,
          hand: 1,
          previous: NO_PREVIOUS_COMMITMENT,
          commitment: deal.commitment,
          seats: [1],
          contributionHashes: deal.contributionHashes,
          contributions: contributions.map((c) => c.bytes),
          secret,
        }),
      },
    };
  }

  it("the second board is the committed deck's next positions: burn, flop, burn, turn, burn, river again", () => {
    const hand = playedHand();
    const order = deckOrder('standard52', deal.random()).map(formatCard);
    const boards = hand.actions.flatMap((a) =>
      a.kind === 'deal-board' ? [a.cards.map((c) => formatCard(c!))] : [],
    );
    // Hole cards 0–3; first run: burn 4, flop 5–7, burn 8, turn 9, burn 10, river 11; second run 12–19.
    expect(boards).toEqual([
      order.slice(5, 8),
      [order[9]],
      [order[11]],
      order.slice(13, 16),
      [order[17]],
      [order[19]],
    ]);
  });

  it('`felt verify` says ok, through the PHH text', () => {
    expect(verifyFairHand(read(writePhh(playedHand())))).toEqual({ ok: true });
  });

  it("a second-run card changed is caught as not the committed deck's", () => {
    const hand = playedHand();
    const actions = [...hand.actions];
    const last = actions.length - 1;
    const river = actions[last] as Extract<PhhAction, { kind: 'deal-board' }>;
    const used = new Set(actions.flatMap((a) => ('cards' in a ? a.cards : [])));
    const other = Array.from({ length: 52 }, (_, c) => c).find((c) => !used.has(c))!;
    actions[last] = { ...river, cards: [other] };
    const verdict = verifyFairHand({ ...hand, actions });
    expect(verdict.ok || verdict.reason).toMatch(/^card: actions\[\d+\]: the file deals /);
  });

  it('without `_runs` the hand does not replay: its second board has no place', () => {
    const hand = playedHand();
    const verdict = verifyFairHand({ ...hand, extra: { ...hand.extra, _runs: 1 } });
    expect(verdict.ok || verdict.reason).toMatch(/^actions: /);
  });
});
