/**
 * The fair-dealing scheme against its specification (docs/fairness.md): the test vectors printed
 * there, an independent implementation on node:crypto, the dealing positions the specification gives
 * for each game, and the uniformity of the derived decks.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  contributionHash,
  deckCards,
  deckOrder,
  fairCommitment,
  fairDeal,
  formatCard,
  fromHex,
  Hand,
  randomBelow,
  seededRandom,
  toHex,
  type Card,
  type Contribution,
  type DeckKind,
  type FairHand,
  type HandConfig,
  type RandomSource,
} from '../src/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Vector {
  readonly name: string;
  readonly table: string;
  readonly hand: number;
  readonly previous: string;
  readonly secret: string;
  readonly contributions: readonly { readonly seat: number; readonly bytes: string }[];
  readonly commitment: string;
  readonly contribution_hashes: readonly string[];
  readonly stream_first_32_bytes: string;
  readonly deck: DeckKind;
  readonly order: string;
}

/** The JSON block after the marker in docs/fairness.md §11. */
function specVectors(): Vector[] {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'fairness.md'), 'utf8');
  const after = doc.slice(doc.indexOf('<!-- fairness test vectors'));
  const block = /```json\n([\s\S]*?)```/.exec(after);
  if (block === null) throw new Error('no test vectors in docs/fairness.md');
  return JSON.parse(block[1]!) as Vector[];
}

const bytes = (hex: string): Uint8Array => fromHex(hex, 32)!;

const inputsOf = (v: Vector): { hand: FairHand; contributions: Contribution[] } => ({
  hand: { table: v.table, hand: v.hand, previous: bytes(v.previous), secret: bytes(v.secret) },
  contributions: v.contributions.map((c) => ({ seat: c.seat, bytes: bytes(c.bytes) })),
});

/** The specification written again on node:crypto, sharing nothing with the engine's code. */
const reference = {
  u32: (x: number): Buffer => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(x);
    return out;
  },
  enc: (fields: readonly (Buffer | Uint8Array | string)[]): Buffer =>
    Buffer.concat(
      fields.flatMap((f) => {
        const b = typeof f === 'string' ? Buffer.from(f, 'utf8') : Buffer.from(f);
        return [reference.u32(b.length), b];
      }),
    ),
  u64: (x: number): Buffer => {
    const out = Buffer.alloc(8);
    out.writeBigUInt64BE(BigInt(x));
    return out;
  },
  commitment(h: FairHand): Buffer {
    const { enc, u32, u64 } = reference;
    const message = enc(['felt-fair/v1/commitment', u32(1), h.table, u64(h.hand), h.previous, h.secret]);
    return createHash('sha256').update(message).digest();
  },
  hash(c: Buffer, x: Contribution): Buffer {
    const message = reference.enc(['felt-fair/v1/contribution', c, reference.u32(x.seat), x.bytes]);
    return createHash('sha256').update(message).digest();
  },
  /** The stream's words, block by block. */
  words(h: FairHand, xs: readonly Contribution[]): () => number {
    const { enc, u32, u64 } = reference;
    const c = reference.commitment(h);
    const fields = xs.flatMap((x) => [u32(x.seat), Buffer.from(x.bytes)]);
    const message = enc(['felt-fair/v1/deck', u32(1), h.table, u64(h.hand), c, u32(xs.length), ...fields]);
    let block = Buffer.alloc(0);
    let counter = 0;
    let at = 0;
    return () => {
      if (at === block.length) {
        block = createHmac('sha256', h.secret)
          .update(Buffer.concat([message, u32(counter++)]))
          .digest();
        at = 0;
      }
      at += 4;
      return block.readUInt32BE(at - 4);
    };
  },
  order(kind: DeckKind, next: () => number): Card[] {
    const stub = deckCards(kind);
    const out: Card[] = [];
    while (stub.length > 0) {
      if (stub.length > 1) {
        const limit = 2 ** 32 - (2 ** 32 % stub.length);
        let w = next();
        while (w >= limit) w = next();
        const j = w % stub.length;
        [stub[j], stub[stub.length - 1]] = [stub[stub.length - 1]!, stub[j]!];
      }
      out.push(stub.pop()!);
    }
    return out;
  },
};

describe('the test vectors of docs/fairness.md', () => {
  const vectors = specVectors();

  it('lists three vectors, of the three decks', () => {
    expect(vectors.map((v) => v.deck).sort()).toEqual(['piquet32', 'short36', 'standard52']);
  });

  for (const v of vectors) {
    it(`${v.name}: the engine gives the commitment, hashes, stream and deck printed`, () => {
      const { hand, contributions } = inputsOf(v);
      const deal = fairDeal(hand, contributions);
      if (!deal.ok) throw new Error(deal.error.message);
      expect(toHex(deal.value.commitment)).toBe(v.commitment);
      expect(deal.value.contributionHashes.map(toHex)).toEqual(v.contribution_hashes);
      const stream = deal.value.random();
      const words = Array.from({ length: 8 }, () => stream.nextUint32().toString(16).padStart(8, '0'));
      expect(words.join('')).toBe(v.stream_first_32_bytes);
      expect(deckOrder(v.deck, deal.value.random()).map(formatCard).join(' ')).toBe(v.order);
    });

    it(`${v.name}: node:crypto, following the specification, gives the same`, () => {
      const { hand, contributions } = inputsOf(v);
      const c = reference.commitment(hand);
      expect(c.toString('hex')).toBe(v.commitment);
      expect(contributions.map((x) => reference.hash(c, x).toString('hex'))).toEqual(v.contribution_hashes);
      const next = reference.words(hand, contributions);
      const words = Array.from({ length: 8 }, () => next().toString(16).padStart(8, '0'));
      expect(words.join('')).toBe(v.stream_first_32_bytes);
      expect(reference.order(v.deck, reference.words(hand, contributions)).map(formatCard).join(' ')).toBe(
        v.order,
      );
    });
  }
});

describe('@noble/hashes agrees with node:crypto', () => {
  it('on 40 random hands: commitment, contribution hashes and the whole deck', () => {
    const random = seededRandom(22);
    const randomBytes = (): Uint8Array => Uint8Array.from({ length: 32 }, () => randomBelow(random, 256));
    for (let i = 0; i < 40; i++) {
      const hand: FairHand = {
        table: `t${i}-ñ`,
        hand: 1 + randomBelow(random, 1_000_000),
        previous: randomBytes(),
        secret: randomBytes(),
      };
      const contributions = [0, 3, 7].slice(0, i % 4).map((seat) => ({ seat, bytes: randomBytes() }));
      const deal = fairDeal(hand, contributions);
      if (!deal.ok) throw new Error(deal.error.message);
      const c = reference.commitment(hand);
      expect(Buffer.from(deal.value.commitment).equals(c)).toBe(true);
      for (const [k, x] of contributions.entries()) {
        expect(Buffer.from(contributionHash(c, x)).equals(reference.hash(c, x))).toBe(true);
        expect(Buffer.from(deal.value.contributionHashes[k]!).equals(reference.hash(c, x))).toBe(true);
      }
      expect(deckOrder('standard52', deal.value.random())).toEqual(
        reference.order('standard52', reference.words(hand, contributions)),
      );
    }
  });
});

describe('bad inputs are refused with a typed error', () => {
  const good: FairHand = { table: 't', hand: 1, previous: new Uint8Array(32), secret: new Uint8Array(32) };
  const refused = (hand: FairHand, contributions: Contribution[] = []): string => {
    const deal = fairDeal(hand, contributions);
    expect(deal.ok).toBe(false);
    return deal.ok ? '' : deal.error.code;
  };

  it('a secret, a previous commitment or a contribution that is not 32 bytes; a bad hand number or table', () => {
    expect(refused({ ...good, secret: new Uint8Array(31) })).toBe('BAD_FAIR_INPUT');
    expect(refused({ ...good, previous: new Uint8Array(33) })).toBe('BAD_FAIR_INPUT');
    expect(refused({ ...good, hand: 0 })).toBe('BAD_FAIR_INPUT');
    expect(refused({ ...good, hand: 1.5 })).toBe('BAD_FAIR_INPUT');
    expect(refused({ ...good, table: '' })).toBe('BAD_FAIR_INPUT');
    expect(refused(good, [{ seat: 1, bytes: new Uint8Array(16) }])).toBe('BAD_FAIR_INPUT');
    expect(fairCommitment({ ...good, secret: new Uint8Array(0) }).ok).toBe(false);
  });

  it('contributions out of seat order, or two for one seat', () => {
    const x = new Uint8Array(32);
    expect(
      refused(good, [
        { seat: 2, bytes: x },
        { seat: 1, bytes: x },
      ]),
    ).toBe('BAD_FAIR_INPUT');
    expect(
      refused(good, [
        { seat: 2, bytes: x },
        { seat: 2, bytes: x },
      ]),
    ).toBe('BAD_FAIR_INPUT');
  });
});

/** Plays a hand to its end, everybody checking and calling, dealing from `random`; the cards dealt in order. */
function dealtInOrder(config: HandConfig, random: RandomSource): Card[] {
  const created = Hand.create(config, random);
  if (!created.ok) throw new Error(created.error.message);
  const hand = created.value;
  for (let guard = 0; !hand.isDone && guard < 500; guard++) {
    const legal = hand.legalActions();
    const result =
      hand.phase === 'deal'
        ? hand.apply({ type: 'deal' })
        : hand.phase === 'showdown'
          ? hand.apply({ type: 'show', player: hand.showdownPending()[0]! })
          : hand.apply(
              legal?.bringIn != null && legal.call === null && !legal.check
                ? { type: 'bring-in', player: legal.player }
                : { type: 'check-call', player: hand.actor! },
            );
    if (!result.ok) throw new Error(result.error.message);
  }
  return hand.events.flatMap((e) =>
    e.type === 'deal-hole' || e.type === 'deal-board' || e.type === 'deal-draw'
      ? e.cards.filter((c) => c !== null)
      : [],
  );
}

const positions = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the engine deals the deck positions docs/fairness.md §6 gives', () => {
  const deal = fairDeal(
    { table: 'positions', hand: 3, previous: new Uint8Array(32), secret: new Uint8Array(32).fill(9) },
    [{ seat: 1, bytes: new Uint8Array(32).fill(1) }],
  );
  if (!deal.ok) throw new Error(deal.error.message);
  const fair = deal.value;
  const cases: { name: string; config: HandConfig; deck: DeckKind; dealt: number[] }[] = [
    {
      name: "hold'em, 4 players: hole 0–7, burn 8, flop 9–11, burn 12, turn 13, burn 14, river 15",
      config: { variant: 'holdem', structure: 'no-limit', stacks: [100, 100, 100, 100], blinds: [1, 2] },
      deck: 'standard52',
      dealt: [...positions(0, 7), 9, 10, 11, 13, 15],
    },
    {
      name: '7-card stud, 8 players: 51 cards to the players with burns, the community card at 51 unburned',
      config: {
        variant: 'stud',
        structure: 'fixed-limit',
        stacks: Array(8).fill(100),
        antes: 1,
        bringIn: 1,
        smallBet: 2,
        bigBet: 4,
      },
      deck: 'standard52',
      dealt: [...positions(0, 23), ...positions(25, 32), ...positions(34, 41), ...positions(43, 50), 51],
    },
    {
      name: '7-card stud, 7 players: burn 45, community card 46',
      config: {
        variant: 'stud',
        structure: 'fixed-limit',
        stacks: Array(7).fill(100),
        antes: 1,
        bringIn: 1,
        smallBet: 2,
        bigBet: 4,
      },
      deck: 'standard52',
      dealt: [...positions(0, 20), ...positions(22, 28), ...positions(30, 36), ...positions(38, 44), 46],
    },
    {
      name: 'Telesina, 6 players: 30 cards to the players, the Vela at 30',
      config: {
        variant: 'telesina',
        structure: 'fixed-limit',
        stacks: Array(6).fill(100),
        antes: 1,
        bringIn: 1,
        smallBet: 2,
        bigBet: 4,
      },
      deck: 'piquet32',
      dealt: positions(0, 30),
    },
    {
      name: 'Sökö, 3 players: 2 each, then a burn before each street',
      config: {
        variant: 'soko',
        structure: 'fixed-limit',
        stacks: [100, 100, 100],
        antes: 1,
        bringIn: 1,
        smallBet: 2,
        bigBet: 4,
      },
      deck: 'standard52',
      dealt: [...positions(0, 5), ...positions(7, 9), ...positions(11, 13), ...positions(15, 17)],
    },
  ];
  for (const { name, config, deck, dealt } of cases) {
    it(name, () => {
      const order = deckOrder(deck, fair.random());
      expect(dealtInOrder(config, fair.random())).toEqual(dealt.map((p) => order[p]));
    });
  }
});

/** Chi-square of card × position counts over `decks` derived decks (2601 degrees of freedom). */
function chiSquare(decks: number, derive: (secret: Uint8Array) => Card[]): number {
  const counts = new Float64Array(52 * 52);
  const secret = new Uint8Array(32);
  for (let d = 0; d < decks; d++) {
    new DataView(secret.buffer).setUint32(0, d);
    derive(secret).forEach((card, position) => counts[card * 52 + position]!++);
  }
  const expected = decks / 52;
  let sum = 0;
  for (const observed of counts) sum += (observed - expected) ** 2 / expected;
  return sum;
}

describe('the derived decks are uniform', () => {
  const DECKS = 52 * 200;
  const inputs = (secret: Uint8Array): FairHand => ({
    table: 'uniform',
    hand: 1,
    previous: new Uint8Array(32),
    secret,
  });
  const derived = (secret: Uint8Array): Card[] => {
    const deal = fairDeal(inputs(secret), []);
    if (!deal.ok) throw new Error(deal.error.message);
    return deckOrder('standard52', deal.value.random());
  };

  it('every card is uniform over every position (chi-square over 52×52 cells)', () => {
    // 2601 degrees of freedom: mean 2601, standard deviation √5202 ≈ 72; six deviations either way.
    const x2 = chiSquare(DECKS, derived);
    expect(x2).toBeGreaterThan(2601 - 6 * 72);
    expect(x2).toBeLessThan(2601 + 6 * 72);
  });

  it('a derivation that reads one byte of the stream modulo the bound fails the same test', () => {
    const biased = (secret: Uint8Array): Card[] => {
      const deal = fairDeal(inputs(secret), []);
      if (!deal.ok) throw new Error(deal.error.message);
      const stream = deal.value.random();
      const stub = deckCards('standard52');
      const out: Card[] = [];
      while (stub.length > 0) {
        const j = (stream.nextUint32() & 0xff) % stub.length;
        [stub[j], stub[stub.length - 1]] = [stub[stub.length - 1]!, stub[j]!];
        out.push(stub.pop()!);
      }
      return out;
    };
    expect(chiSquare(DECKS, biased)).toBeGreaterThan(2601 + 6 * 72);
  });
});
