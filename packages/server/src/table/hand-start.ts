/**
 * The state a hand was dealt from, stored with the hand (`hands.start_state`, JSON) so that another
 * process can go on with it from its journal (a table handed over in play, ../cluster/): the stakes it
 * was dealt at, the plan (button, blinds, who sits where in the engine's positions), the stacks at the
 * deal, who plays, its place in the fair-dealing chain (secret and contributions: the same cards come),
 * and each player's showdown choice and time bank at the deal. The engine's configuration is made from
 * these the same way when the hand is dealt and when it is resumed (./hand-flow.ts).
 */
import { fromHex, toHex, FAIR_BYTES, type Contribution } from '@felt/engine';
import type { HandFair } from './fair.js';
import type { HandPlan } from './seating.js';
import type { AccountId, TableStakes } from './types.js';

export interface HandStart {
  readonly stakes: TableStakes;
  readonly plan: HandPlan;
  /** In engine position order, like every list here. */
  readonly stacks: readonly number[];
  readonly accounts: readonly AccountId[];
  readonly names: readonly string[];
  readonly muckLosing: readonly boolean[];
  readonly timeBankMs: readonly number[];
  readonly fair: {
    readonly hand: number;
    /** Hex, 64 digits each. */
    readonly previous: string;
    readonly secret: string;
    readonly contributions: readonly { readonly seat: number; readonly bytes: string }[];
  };
}

/** The fair record's part of a hand's start, as stored. */
export function storedFair(fair: HandFair): HandStart['fair'] {
  return {
    hand: fair.hand,
    previous: toHex(fair.previous),
    secret: toHex(fair.secret),
    contributions: fair.contributions.map((c) => ({ seat: c.seat, bytes: toHex(c.bytes) })),
  };
}

const bytesOf = (hex: string): Uint8Array => {
  const bytes = fromHex(hex, FAIR_BYTES);
  if (bytes === null) throw new Error('a stored hand start holds damaged fair-dealing bytes');
  return bytes;
};

/**
 * The stored fair part as the dealing takes it: the link's hand, previous commitment and secret, and
 * the contributions.
 */
export function fairFromStart(fair: HandStart['fair']): {
  readonly link: { readonly hand: number; readonly previous: Uint8Array; readonly secret: Uint8Array };
  readonly contributions: readonly Contribution[];
} {
  return {
    link: { hand: fair.hand, previous: bytesOf(fair.previous), secret: bytesOf(fair.secret) },
    contributions: fair.contributions.map((c) => ({ seat: c.seat, bytes: bytesOf(c.bytes) })),
  };
}
