/**
 * PHH reading and writing: the notation, exact decimals, the variant codes, `.phhs` files, and the
 * properties that export then import is the identity, for PHH and for the readable text history.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allVariantCodes,
  formatPhhAction,
  formatScaled,
  parsePhh,
  parsePhhAction,
  parsePhhs,
  parseVariantCode,
  PHH_STANDARD_VARIANTS,
  phhToText,
  textToPhh,
  toScaled,
  writePhh,
  writePhhs,
  type PhhAction,
  type PhhCard,
  type PhhHand,
} from '../src/phh/index.js';

const CODES = allVariantCodes();

const card: fc.Arbitrary<PhhCard> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 51 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
const comment = fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.!#]{0,12}[A-Za-z0-9]$/), {
  nil: undefined,
});

function actionArb(players: number): fc.Arbitrary<PhhAction> {
  const player = fc.integer({ min: 0, max: players - 1 });
  const cards = (min: number) => fc.array(card, { minLength: min, maxLength: 7 });
  const bare: fc.Arbitrary<PhhAction> = fc.oneof(
    fc.record({ kind: fc.constant('deal-hole' as const), player, cards: cards(1) }),
    fc.record({ kind: fc.constant('deal-board' as const), cards: cards(1) }),
    fc.record({ kind: fc.constantFrom('fold' as const, 'check-call' as const, 'bring-in' as const), player }),
    fc.record({
      kind: fc.constant('bet-raise' as const),
      player,
      amount: fc.integer({ min: 1, max: 10 ** 9 }),
    }),
    fc.record({ kind: fc.constantFrom('discard' as const, 'show-muck' as const), player, cards: cards(0) }),
  );
  return fc
    .tuple(bare, comment)
    .map(([action, text]) => (text === undefined ? action : { ...action, comment: text }));
}

const amounts = (count: number) =>
  fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: count, maxLength: count });
const positive = fc.integer({ min: 1, max: 10 ** 7 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Hands in canonical form: scale as small as the amounts allow, optional fields absent or set. */
const handArb: fc.Arbitrary<PhhHand> = fc
  .record({ players: fc.integer({ min: 2, max: 8 }), scale: fc.integer({ min: 0, max: 2 }) })
  .chain(({ players, scale }) =>
    fc
      .record({
        variant: fc.constantFrom(...CODES),
        antes: amounts(players),
        blinds: amounts(players),
        stacks: fc.array(fc.integer({ min: 1, max: 10 ** 9 }), { minLength: players, maxLength: players }),
        bringIn: optional(positive),
        smallBet: optional(positive),
        bigBet: optional(positive),
        minBet: optional(positive),
        spreadLimits: optional(fc.array(positive, { minLength: 1, maxLength: 5 })),
        anteTrimmingStatus: optional(fc.boolean()),
        finishingStacks: optional(amounts(players)),
        actions: fc.array(actionArb(players), { maxLength: 30 }),
        names: optional(
          fc.uniqueArray(fc.stringMatching(/^[A-Z][a-z]{1,7}$/), { minLength: players, maxLength: players }),
        ),
        event: optional(fc.string({ maxLength: 20 })),
      })
      .map((r): PhhHand => {
        const stacks = [...r.stacks];
        // The smallest scale that keeps every amount whole: one amount uses every decimal.
        if (scale > 0) stacks[0] = stacks[0]! * 10 + 1;
        const bringInGame = parseVariantCode(r.variant)!.bringIn;
        return {
          variant: r.variant,
          scale,
          antes: r.antes,
          ...(bringInGame ? {} : { blindsOrStraddles: r.blinds }),
          ...(r.bringIn === undefined ? {} : { bringIn: r.bringIn }),
          ...(r.smallBet === undefined ? {} : { smallBet: r.smallBet }),
          ...(r.bigBet === undefined ? {} : { bigBet: r.bigBet }),
          ...(r.minBet === undefined ? {} : { minBet: r.minBet }),
          ...(r.spreadLimits === undefined ? {} : { spreadLimits: r.spreadLimits }),
          ...(r.anteTrimmingStatus === undefined ? {} : { anteTrimmingStatus: r.anteTrimmingStatus }),
          startingStacks: stacks,
          actions: r.actions,
          ...(r.finishingStacks === undefined ? {} : { finishingStacks: r.finishingStacks }),
          extra: {
            ...(r.names === undefined ? {} : { players: r.names }),
            ...(r.event === undefined ? {} : { event: r.event }),
          },
        };
      }),
  );

const mustParse = (text: string): PhhHand => {
  const parsed = parsePhh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

describe('PHH action notation', () => {
  it.each([
    ['d dh p1 AsKs', { kind: 'deal-hole', player: 0, cards: [51, 47] }],
    ['d db 4s3hQh', { kind: 'deal-board', cards: [11, 6, 42] }],
    ['d dh p2 ????', { kind: 'deal-hole', player: 1, cards: [null, null] }],
    ['p3 f', { kind: 'fold', player: 2 }],
    ['p1 cc', { kind: 'check-call', player: 0 }],
    ['p3 pb', { kind: 'bring-in', player: 2 }],
    ['p1 sd', { kind: 'discard', player: 0, cards: [] }],
    ['p4 sd AsQs', { kind: 'discard', player: 3, cards: [51, 43] }],
    ['p2 sm', { kind: 'show-muck', player: 1, cards: [] }],
    ['p1 cc # thinks for a while', { kind: 'check-call', player: 0, comment: 'thinks for a while' }],
    ['# only a comment', { kind: 'none', comment: 'only a comment' }],
  ])('reads %s', (text, expected) => {
    const parsed = parsePhhAction(text);
    expect(parsed.ok && parsed.value.action).toEqual(expected);
    if (parsed.ok) expect(formatPhhAction(parsed.value.action, 0)).toBe(text);
  });

  it.each(['p0 f', 'p1 xx', 'd dh p1', 'p1 cbr', 'p1 cbr -3', 'd db Xx', 'q1 f', 'p1 cc extra'])(
    'refuses %s',
    (text) => {
      expect(parsePhhAction(text).ok).toBe(false);
    },
  );
});

describe('PHH amounts are exact decimals', () => {
  it('scales a file by its largest number of decimals and writes it back exactly', () => {
    const hand = mustParse(`variant = "PO"
antes = [0, 0]
blinds_or_straddles = [500, 1000]
min_bet = 1000
starting_stacks = [1259450.25, 678473.5]
actions = ["d dh p1 Ah3sKsKh", "p2 cbr 3000.75"]`);
    expect(hand.scale).toBe(2);
    expect(hand.startingStacks).toEqual([125945025, 67847350]);
    expect(hand.actions[1]).toEqual({ kind: 'bet-raise', player: 1, amount: 300075 });
    expect(writePhh(hand)).toContain('1259450.25');
    expect(writePhh(hand)).toContain('p2 cbr 3000.75');
    expect(mustParse(writePhh(hand))).toEqual(hand);
  });

  it('formats scaled integers', () => {
    expect(formatScaled(193792375, 2)).toBe('1937923.75');
    expect(formatScaled(0, 2)).toBe('0');
    expect(formatScaled(5, 3)).toBe('0.005');
    expect(toScaled(0.1, 1)).toBe(1);
    expect(toScaled(1259450.25, 3)).toBe(1259450250);
  });
});

describe('PHH variant codes', () => {
  it('reads the 11 standard codes', () => {
    const games = PHH_STANDARD_VARIANTS.map((code) => [
      code,
      parseVariantCode(code)?.game,
      parseVariantCode(code)?.structure,
    ]);
    expect(games).toEqual([
      ['FT', 'holdem', 'fixed'],
      ['NT', 'holdem', 'no-limit'],
      ['NS', 'shortdeck', 'no-limit'],
      ['PO', 'omaha', 'pot'],
      ['FO/8', 'omaha-hilo', 'fixed'],
      ['F7S', 'stud', 'fixed'],
      ['F7S/8', 'stud-hilo', 'fixed'],
      ['FR', 'razz', 'fixed'],
      ['N2L1D', 'single-draw-27', 'no-limit'],
      ['F2L3D', 'triple-draw-27', 'fixed'],
      ['FB', 'badugi', 'fixed'],
    ]);
  });

  it("reads Felt's own codes", () => {
    expect(parseVariantCode('HT')).toMatchObject({ game: 'holdem', structure: 'half-pot', standard: false });
    expect(parseVariantCode('ST')).toMatchObject({ game: 'holdem', structure: 'spread' });
    expect(parseVariantCode('PO5')).toMatchObject({ game: 'omaha5', structure: 'pot' });
    expect(parseVariantCode('FO5/8')).toMatchObject({ game: 'omaha5-hilo' });
    expect(parseVariantCode('FSK')).toMatchObject({ game: 'soko', bringIn: true });
    expect(parseVariantCode('FTE')).toMatchObject({ game: 'telesina', bringIn: true });
    expect(parseVariantCode('FAM')).toMatchObject({ game: 'americana' });
    expect(parseVariantCode('N5D')).toMatchObject({ game: 'draw5' });
    expect(parseVariantCode('F32D')).toMatchObject({ game: 'draw32' });
    expect(parseVariantCode('X7S')).toBeNull();
    expect(parseVariantCode('NQ')).toBeNull();
  });
});

describe('PHH files', () => {
  it('reads a .phhs file hand by hand; a bad hand spoils only itself', () => {
    const file = `[1]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsKs", "d dh p2 QsQh", "p2 f"]

[2]
variant = "NT"
actions = []

[3]
variant = "FT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [10, 20, 30]
actions = []
`;
    const parsed = parsePhhs(file);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.map((hand) => hand.ok)).toEqual([true, false, true]);
  });

  it('refuses what is not TOML or not a hand', () => {
    expect(parsePhh('variant = ').ok).toBe(false);
    expect(parsePhh('variant = "NT"\nstarting_stacks = [1]\nactions = []').ok).toBe(false);
    expect(parsePhh('variant = "NT"\nstarting_stacks = [1, 2]\nantes = [0]\nactions = []').ok).toBe(false);
    expect(parsePhh('variant = "NT"\nstarting_stacks = [1, 2]\nactions = ["p3 f"]').ok).toBe(false);
  });

  it('property: PHH export then import is the identity (.phh and .phhs)', () => {
    fc.assert(
      fc.property(handArb, (hand) => {
        expect(mustParse(writePhh(hand))).toEqual(hand);
      }),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(fc.array(handArb, { minLength: 1, maxLength: 4 }), (hands) => {
        const parsed = parsePhhs(writePhhs(hands));
        expect(parsed.ok && parsed.value.map((hand) => (hand.ok ? hand.value : hand.error))).toEqual(hands);
      }),
      { numRuns: 30 },
    );
  });
});

/** What the text history keeps of a hand: all but comments, no-op lines, winnings and other fields than player names. */
function textView(hand: PhhHand): PhhHand {
  const view: Record<string, unknown> = { ...hand };
  delete view.winnings;
  const players = hand.extra.players;
  return {
    ...(view as unknown as PhhHand),
    actions: hand.actions
      .filter((action) => action.kind !== 'none')
      .map((action) => {
        const bare: Record<string, unknown> = { ...action };
        delete bare.comment;
        return bare as unknown as PhhAction;
      }),
    extra: players === undefined ? {} : { players },
  };
}

describe('readable text history', () => {
  it('writes a PokerStars-like history', () => {
    const hand = mustParse(`variant = "NT"
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
players = ["Antonius", "Ivey", "Dwan"]
actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h", "p3 cbr 7000", "p1 cbr 23000", "p2 f", "p3 cc", "d db Jc3d5c", "p1 cbr 35000", "p3 cc", "d db 4h", "p1 cbr 90000", "p3 cbr 232600", "p1 cbr 1067100", "p3 cc", "p1 sm Ac2d", "p3 sm 7h6h", "d db Jh"]
finishing_stacks = [572100, 1997500, 1109500]`);
    const text = phhToText(hand);
    expect(text.ok).toBe(true);
    if (!text.ok) return;
    expect(text.value).toContain("Felt Hand #1: No Limit Hold'em 1000/2000 [NT]");
    expect(text.value).toContain('Seat 3: Dwan (553500 in chips)');
    expect(text.value).toContain('Antonius: posts small blind 1000');
    expect(text.value).toContain('Dwan: raises 5000 to 7000');
    expect(text.value).toContain('Dwan: calls 16000');
    expect(text.value).toContain('*** TURN *** [Jc 3d 5c] [4h]');
    expect(text.value).toContain('Dwan: calls 262400 and is all-in');
    expect(text.value).toContain('Dwan: shows [7h 6h]');
    expect(text.value).toContain('Seat 3: Dwan started with 553500, finished with 1109500 (won 556000)');
    const back = textToPhh(text.value);
    expect(back.ok && back.value).toEqual(textView(hand));
  });

  it('property: text export then import keeps the hand (fuzzed hands)', () => {
    fc.assert(
      fc.property(handArb, fc.integer({ min: 1, max: 10 ** 6 }), (hand, number) => {
        const text = phhToText(hand, number);
        if (!text.ok) throw new Error(text.error.message);
        const back = textToPhh(text.value);
        if (!back.ok) throw new Error(`${back.error.message}\n${text.value}`);
        expect(back.value).toEqual(textView(hand));
      }),
      { numRuns: 120 },
    );
  });

  it('refuses text that is not a Felt hand history', () => {
    expect(textToPhh('PokerStars Hand #1').ok).toBe(false);
    expect(
      textToPhh(
        "Felt Hand #1: Texas Hold'em No Limit (1/2) [NT]\nSeat 1: a (5 in chips)\nSeat 2: b (5 in chips)\nb: dances",
      ).ok,
    ).toBe(false);
  });
});
