/**
 * Verification of hands dealt by the fair-dealing scheme (docs/fairness.md §7): simulated hands of
 * every game verify, and each kind of tampering is caught with its reason.
 */
import { describe, expect, it } from 'vitest';
import {
  FAIR_FIELDS,
  parsePhhs,
  PHH_GAME_CODES,
  simulatePhh,
  verifyFairHand,
  verifyFairHands,
  writePhhs,
  type PhhAction,
  type PhhExtraValue,
  type FairVerdict,
  type PhhHand,
} from '../src/index.js';
import { variantOf } from '../src/hand/variants.js';
import { parseVariantCode } from '../src/phh/variants.js';

/** One code per game: the room's 13 and the PHH-only ones (short-deck, razz, 2-7 single draw, badugi). */
const CODES = Object.keys(PHH_GAME_CODES).map((game) =>
  ['T', 'S', 'O', 'O5', 'O/8', 'O5/8'].includes(game)
    ? `${game === 'T' || game === 'S' ? 'N' : 'P'}${game}`
    : `F${game}`,
);

function simulated(variant: string, players: number, hands: number, seed = 7): PhhHand[] {
  const result = simulatePhh({ variant, players, hands, seed });
  if (!result.ok) throw new Error(result.error.message);
  // Through the text, as a verifier reads a file.
  const parsed = parsePhhs(writePhhs(result.value));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.map((hand) => {
    if (!hand.ok) throw new Error(hand.error.message);
    return hand.value;
  });
}

const reasonOf = (verdict: FairVerdict): string => (verdict.ok ? 'ok' : verdict.reason);
const reasons = (hands: readonly PhhHand[]): string[] => verifyFairHands(hands).map(reasonOf);

describe('simulated hands of every game verify (round trip through the PHH text)', () => {
  it('covers the 17 games', () => {
    expect(CODES).toHaveLength(17);
  });
  for (const code of CODES) {
    it(`${code}: 8 hands at a full table, every one ok`, () => {
      const players = Math.min(6, variantOf(parseVariantCode(code)!.game).seats);
      expect(reasons(simulated(code, players, 8, 5))).toEqual(Array(8).fill('ok'));
    });
  }
});

/** The hand with some `extra` fields changed; `undefined` removes one. */
const withExtra = (hand: PhhHand, changes: Record<string, PhhExtraValue | undefined>): PhhHand => {
  const merged = { ...hand.extra, ...changes };
  const extra = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, PhhExtraValue] => entry[1] !== undefined),
  );
  return { ...hand, extra };
};

const list = (hand: PhhHand, key: string): string[] => [...(hand.extra[key] as readonly string[])];
const flipFirstDigit = (hex: string): string => (hex.startsWith('0') ? '1' : '0') + hex.slice(1);

describe('tampering is caught, with the reason naming what does not match', () => {
  const hands = simulated('NT', 5, 4);
  const first = hands[0]!;

  it('the untouched hands are ok', () => {
    expect(reasons(hands)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it("a swapped card: p1's first hole card exchanged with p2's", () => {
    const [d1, d2] = first.actions as Extract<PhhAction, { kind: 'deal-hole' }>[];
    const actions = [...first.actions];
    actions[0] = { ...d1!, cards: [d2!.cards[0]!, d1!.cards[1]!] };
    actions[1] = { ...d2!, cards: [d1!.cards[0]!, d2!.cards[1]!] };
    expect(reasonOf(verifyFairHand({ ...first, actions }))).toMatch(/^card: actions\[0\]: the file deals /);
  });

  it('a board card changed', () => {
    const index = first.actions.findIndex((a) => a.kind === 'deal-board');
    const board = first.actions[index] as Extract<PhhAction, { kind: 'deal-board' }>;
    const dealt = new Set(first.actions.flatMap((a) => ('cards' in a ? a.cards : [])));
    const unused = [...Array(52).keys()].find((card) => !dealt.has(card))!;
    const actions = [...first.actions];
    actions[index] = { ...board, cards: [unused, ...board.cards.slice(1)] };
    const verdict = verifyFairHand({ ...first, actions });
    expect(reasonOf(verdict)).toMatch(new RegExp(`^card: actions\\[${index}\\]`));
  });

  it('a changed secret: the commitment no longer matches', () => {
    const hand = withExtra(first, {
      [FAIR_FIELDS.secret]: flipFirstDigit(first.extra[FAIR_FIELDS.secret] as string),
    });
    const verdict = verifyFairHand(hand);
    expect(reasonOf(verdict)).toMatch(/^commitment: /);
  });

  it('a secret not revealed yet', () => {
    const verdict = verifyFairHand(withExtra(first, { [FAIR_FIELDS.secret]: undefined }));
    expect(reasonOf(verdict)).toBe('secret: the secret is not revealed');
  });

  it('an altered contribution: it no longer gives its listed hash', () => {
    const contributions = list(first, FAIR_FIELDS.contributions);
    contributions[2] = flipFirstDigit(contributions[2]!);
    const verdict = verifyFairHand(withExtra(first, { [FAIR_FIELDS.contributions]: contributions }));
    expect(reasonOf(verdict)).toBe("contribution: seat 3's contribution does not match its listed hash");
  });

  it('a contribution dropped from those revealed', () => {
    const contributions = list(first, FAIR_FIELDS.contributions).slice(1);
    const verdict = verifyFairHand(withExtra(first, { [FAIR_FIELDS.contributions]: contributions }));
    expect(reasonOf(verdict)).toBe('contribution: 5 listed, 4 revealed');
  });

  it('a contribution dropped everywhere (seat, hash and bytes): the deck it derives deals other cards', () => {
    const drop = (key: string): PhhExtraValue => (first.extra[key] as readonly PhhExtraValue[]).slice(1);
    const hand = withExtra(first, {
      [FAIR_FIELDS.seats]: drop(FAIR_FIELDS.seats),
      [FAIR_FIELDS.contributionHashes]: drop(FAIR_FIELDS.contributionHashes),
      [FAIR_FIELDS.contributions]: drop(FAIR_FIELDS.contributions),
    });
    const verdict = verifyFairHand(hand);
    expect(reasonOf(verdict)).toMatch(/^card: actions\[0\]/);
  });

  it('a hand moved in the chain: hands 2 and 3 swapped (a gap alone is allowed: a history may skip hands)', () => {
    expect(reasons([hands[0]!, hands[2]!, hands[1]!, hands[3]!])).toEqual([
      'ok',
      'ok',
      'chain: hand 2 comes after hand 3 of the same table',
      'ok',
    ]);
  });

  it("a hand that names another hand's commitment as the previous one", () => {
    const moved = withExtra(hands[2]!, { [FAIR_FIELDS.previous]: hands[0]!.extra[FAIR_FIELDS.commitment]! });
    expect(reasons([hands[0]!, hands[1]!, moved])).toEqual([
      'ok',
      'ok',
      "chain: the previous commitment is not hand 2's",
    ]);
    expect(reasonOf(verifyFairHand(moved))).toMatch(/^commitment: /);
  });

  it('a hand renumbered: its commitment no longer matches', () => {
    const verdict = verifyFairHand(withExtra(hands[1]!, { [FAIR_FIELDS.hand]: 5 }));
    expect(reasonOf(verdict)).toMatch(/^commitment: /);
  });

  it("a table's first hand that names a previous commitment", () => {
    const verdict = verifyFairHand(
      withExtra(first, { [FAIR_FIELDS.previous]: first.extra[FAIR_FIELDS.commitment]! }),
    );
    expect(reasonOf(verdict)).toMatch(/^chain: the first hand/);
  });

  it('a hand without the fields, or with a malformed one, or of an unknown version', () => {
    const plain = { ...first, extra: {} };
    expect(verifyFairHand(plain)).toEqual({
      ok: false,
      reason: 'fields: _fair_version is missing: the hand was not dealt by the scheme',
    });
    const malformed = verifyFairHand(withExtra(first, { [FAIR_FIELDS.commitment]: 'abc' }));
    expect(reasonOf(malformed)).toBe('fields: _fair_commitment must be 64 hex digits');
    const version = verifyFairHand(withExtra(first, { [FAIR_FIELDS.version]: 2 }));
    expect(reasonOf(version)).toMatch(/^version: /);
  });
});
