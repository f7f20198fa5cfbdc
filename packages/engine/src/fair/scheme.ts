/**
 * Provably fair dealing, version 1 (docs/fairness.md is the specification; this is its reference
 * implementation). Pure and synchronous: the secret and the players' contributions are inputs, and
 * every hash is @noble/hashes' SHA-256, which runs alike in Node and in the browser.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Card } from '../cards.js';
import { deckCards, type DeckKind } from '../deck.js';
import { randomBelow, type RandomSource } from '../random.js';
import { fail, ok, type Result } from '../result.js';

export const FAIR_VERSION = 1;
/** Secrets, contributions and commitments are all 32 bytes. */
export const FAIR_BYTES = 32;

export const FairErrorCode = { BAD_FAIR_INPUT: 'BAD_FAIR_INPUT' } as const;
export type FairErrorCode = (typeof FairErrorCode)[keyof typeof FairErrorCode];

/** What fixes one hand of a table in the chain. */
export interface FairHand {
  /** The table's identifier, as the server names it (UTF-8). */
  readonly table: string;
  /** The hand's number at the table, from 1. */
  readonly hand: number;
  /** The previous hand's commitment; 32 zero bytes for the table's first hand. */
  readonly previous: Uint8Array;
  /** The hand's 256-bit secret. */
  readonly secret: Uint8Array;
}

/** A player's 32 random bytes for a hand, by the seat he sits in. */
export interface Contribution {
  readonly seat: number;
  readonly bytes: Uint8Array;
}

const DOMAIN_COMMITMENT = 'felt-fair/v1/commitment';
const DOMAIN_CONTRIBUTION = 'felt-fair/v1/contribution';
const DOMAIN_DECK = 'felt-fair/v1/deck';

const u32 = (value: number): Uint8Array => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
};

const u64 = (value: number): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
};

/** Length-prefixed: no two different field lists encode to the same bytes. */
function encode(fields: readonly (Uint8Array | string)[]): Uint8Array {
  const parts = fields.map((field) => (typeof field === 'string' ? utf8ToBytes(field) : field));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + 4 + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(u32(part.length), at);
    out.set(part, at + 4);
    at += 4 + part.length;
  }
  return out;
}

const isBytes = (value: Uint8Array, length: number): boolean =>
  value instanceof Uint8Array && value.length === length;

function checkHand(hand: FairHand): string | null {
  if (typeof hand.table !== 'string' || hand.table.length === 0)
    return 'the table must be a non-empty string';
  if (!Number.isSafeInteger(hand.hand) || hand.hand < 1) return 'the hand number must be an integer ≥ 1';
  if (!isBytes(hand.previous, FAIR_BYTES)) return 'the previous commitment must be 32 bytes';
  if (!isBytes(hand.secret, FAIR_BYTES)) return 'the secret must be 32 bytes';
  return null;
}

function checkContributions(contributions: readonly Contribution[]): string | null {
  let last = -1;
  for (const { seat, bytes } of contributions) {
    if (!Number.isInteger(seat) || seat < 0 || seat > 0xffff_ffff) return `seat ${seat} is not a seat number`;
    if (seat <= last) return 'the contributions must be in increasing seat order, one per seat';
    if (!isBytes(bytes, FAIR_BYTES)) return `the contribution of seat ${seat} must be 32 bytes`;
    last = seat;
  }
  return null;
}

/** The 32 zero bytes that stand for the previous commitment of a table's first hand. */
export const NO_PREVIOUS_COMMITMENT: Uint8Array = new Uint8Array(FAIR_BYTES);

/** C = SHA-256 of the domain, version, table, hand number, previous commitment and secret. */
export function fairCommitment(hand: FairHand): Result<Uint8Array, FairErrorCode> {
  const problem = checkHand(hand);
  if (problem !== null) return fail(FairErrorCode.BAD_FAIR_INPUT, problem);
  return ok(
    sha256(
      encode([DOMAIN_COMMITMENT, u32(FAIR_VERSION), hand.table, u64(hand.hand), hand.previous, hand.secret]),
    ),
  );
}

/** What the hand's first message lists for a contribution: it names the commitment it answers and the seat. */
export function contributionHash(commitment: Uint8Array, contribution: Contribution): Uint8Array {
  return sha256(encode([DOMAIN_CONTRIBUTION, commitment, u32(contribution.seat), contribution.bytes]));
}

/** The message the deck's HMAC stream is keyed over (before each block's counter). */
function deckMessage(
  hand: FairHand,
  commitment: Uint8Array,
  contributions: readonly Contribution[],
): Uint8Array {
  const fields: Uint8Array[] = [];
  for (const { seat, bytes } of contributions) fields.push(u32(seat), bytes);
  return encode([
    DOMAIN_DECK,
    u32(FAIR_VERSION),
    hand.table,
    u64(hand.hand),
    commitment,
    u32(contributions.length),
    ...fields,
  ]);
}

/**
 * HMAC-SHA256 in counter mode: block i = HMAC(secret, message ‖ u32(i)), read as big-endian 32-bit
 * words. The keyed state after the message is kept, so each block costs one clone and two compressions.
 */
class HmacStream implements RandomSource {
  private readonly keyed;
  private block: Uint8Array = new Uint8Array(0);
  private view = new DataView(this.block.buffer);
  private at = 0;
  private counter = 0;

  constructor(secret: Uint8Array, message: Uint8Array) {
    this.keyed = hmac.create(sha256, secret).update(message);
  }

  nextUint32(): number {
    if (this.at === this.block.length) {
      this.block = this.keyed.clone().update(u32(this.counter++)).digest();
      this.view = new DataView(this.block.buffer, this.block.byteOffset, this.block.byteLength);
      this.at = 0;
    }
    const word = this.view.getUint32(this.at);
    this.at += 4;
    return word;
  }
}

export interface FairDeal {
  readonly commitment: Uint8Array;
  /** The contributions' hashes, in seat order: what the hand's first message lists. */
  readonly contributionHashes: readonly Uint8Array[];
  /** A fresh source of the hand's stream: give it to `Hand.create` and the hand deals by the scheme. */
  random(): RandomSource;
}

/** Everything the scheme fixes for one hand, from its secret and the contributions it acknowledged. */
export function fairDeal(
  hand: FairHand,
  contributions: readonly Contribution[],
): Result<FairDeal, FairErrorCode> {
  const committed = fairCommitment(hand);
  if (!committed.ok) return committed;
  const problem = checkContributions(contributions);
  if (problem !== null) return fail(FairErrorCode.BAD_FAIR_INPUT, problem);
  const commitment = committed.value;
  const message = deckMessage(hand, commitment, contributions);
  return ok({
    commitment,
    contributionHashes: contributions.map((contribution) => contributionHash(commitment, contribution)),
    random: () => new HmacStream(hand.secret, message),
  });
}

/**
 * The order in which cards leave the deck, first card first, when nothing is put back (no draw
 * reshuffles the discards): each card is drawn uniformly from those left (Fisher–Yates from the end),
 * exactly as the hand state machine draws from the source.
 */
export function deckOrder(kind: DeckKind, random: RandomSource): Card[] {
  const stub = deckCards(kind);
  const order: Card[] = [];
  while (stub.length > 0) {
    const last = stub.length - 1;
    if (last > 0) {
      const j = randomBelow(random, stub.length);
      const picked = stub[j]!;
      stub[j] = stub[last]!;
      stub[last] = picked;
    }
    order.push(stub.pop()!);
  }
  return order;
}
