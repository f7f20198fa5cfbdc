/**
 * A table's fair-dealing chain (docs/fairness.md): the next hand's secret and commitment, drawn and
 * stored before the commitment is published; the players' contributions for it; and, when the hand
 * starts, the deal they fix. The engine's `fair` module is the scheme; this is the table's bookkeeping.
 */
import {
  deckOrder,
  fairCommitment,
  fairDeal,
  fromHex,
  FAIR_BYTES,
  NO_PREVIOUS_COMMITMENT,
  toHex,
  type Card,
  type Contribution,
  type DeckKind,
  type RandomSource,
} from '@felt/engine';
import type { FairLink } from '../storage/types.js';

/** The next hand of a table's chain, open for contributions until it starts. */
export interface OpenLink {
  readonly hand: number;
  readonly previous: Uint8Array;
  readonly secret: Uint8Array;
  readonly commitment: Uint8Array;
  readonly commitmentHex: string;
  /** Acknowledged contributions by seat; every one is used when the hand starts. */
  readonly contributions: Map<number, Uint8Array>;
}

/** What a hand dealt by the scheme keeps: public (commitment, hashes) and private (secret, contributions). */
export interface HandFair {
  readonly table: string;
  readonly hand: number;
  readonly previous: Uint8Array;
  readonly commitment: Uint8Array;
  readonly secret: Uint8Array;
  /** In increasing seat order. */
  readonly contributions: readonly Contribution[];
  readonly hashes: readonly Uint8Array[];
}

function randomBytes(random: RandomSource): Uint8Array {
  const bytes = new Uint8Array(FAIR_BYTES);
  const view = new DataView(bytes.buffer);
  for (let at = 0; at < FAIR_BYTES; at += 4) view.setUint32(at, random.nextUint32());
  return bytes;
}

function openLink(table: string, hand: number, previous: Uint8Array, secret: Uint8Array): OpenLink {
  const committed = fairCommitment({ table, hand, previous, secret });
  if (!committed.ok) throw new Error(`fair chain of ${table}: ${committed.error.message}`);
  return {
    hand,
    previous,
    secret,
    commitment: committed.value,
    commitmentHex: toHex(committed.value),
    contributions: new Map(),
  };
}

/** A table's first link: hand 1, naming no previous commitment, its secret from the table's source. */
export function firstLink(table: string, random: RandomSource): OpenLink {
  return openLink(table, 1, NO_PREVIOUS_COMMITMENT, randomBytes(random));
}

/** The link as storage keeps it. */
export function storedLink(link: OpenLink): FairLink {
  return { hand: link.hand, previous: toHex(link.previous), secret: toHex(link.secret) };
}

/** A stored link taken up again (after a restart). */
export function linkFromStore(table: string, stored: FairLink): OpenLink {
  const previous = fromHex(stored.previous, FAIR_BYTES);
  const secret = fromHex(stored.secret, FAIR_BYTES);
  if (previous === null || secret === null)
    throw new Error(`fair chain of ${table}: a stored link is damaged`);
  return openLink(table, stored.hand, previous, secret);
}

/** The link's hand dealt with these contributions (in increasing seat order): its fair record and deck. */
export function dealHand(
  table: string,
  link: Pick<OpenLink, 'hand' | 'previous' | 'secret'>,
  contributions: readonly Contribution[],
): { readonly fair: HandFair; readonly deck: RandomSource } {
  const { hand, previous, secret } = link;
  const dealt = fairDeal({ table, hand, previous, secret }, contributions);
  if (!dealt.ok) throw new Error(`fair deal of ${table} hand ${hand}: ${dealt.error.message}`);
  const deal = dealt.value;
  return {
    fair: {
      table,
      hand,
      previous,
      commitment: deal.commitment,
      secret,
      contributions,
      hashes: deal.contributionHashes,
    },
    deck: deal.random(),
  };
}

/**
 * Deals the open link's hand: its fair record, the random source its deck is drawn from, and the
 * chain's next link (its secret drawn now, from the table's source).
 */
export function dealLink(
  table: string,
  link: OpenLink,
  random: RandomSource,
): { readonly fair: HandFair; readonly deck: RandomSource; readonly next: OpenLink } {
  const contributions = [...link.contributions]
    .sort(([a], [b]) => a - b)
    .map(([seat, bytes]): Contribution => ({ seat, bytes }));
  const { fair, deck } = dealHand(table, link, contributions);
  return { fair, deck, next: openLink(table, link.hand + 1, fair.commitment, randomBytes(random)) };
}

/** The deck's positions the hand's secret and contributions fix (first taken first): what revealing them rebuilds. */
export function committedOrder(fair: HandFair, deck: DeckKind): Card[] {
  return deckOrder(deck, dealHand(fair.table, fair, fair.contributions).deck);
}
