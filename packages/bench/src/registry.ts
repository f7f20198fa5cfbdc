/**
 * A benchmark group measures a few rows (`eval` measures eval7, omaha, omaha5 and showdown6);
 * `felt bench --only <group>` runs one group. To add a group, write it in its own file and list it
 * in ./groups.ts.
 */
export interface BenchGroup {
  readonly name: string;
  /** Measures the group's rows, yielding each one as soon as it is known. */
  rows(settings: BenchSettings): AsyncIterable<BenchRow>;
}

export interface BenchSettings {
  /** How many random deals the rows share. */
  readonly samples: number;
  /** The length of one timed batch; a rate is the median of several batches. */
  readonly batchMs: number;
}

/** One figure for Felt and for each peer that can do the task, in the same unit. */
export interface BenchRow {
  readonly name: string;
  /** `…/s` when more is better (evals/s); otherwise less is better (ms, MB). */
  readonly unit: string;
  readonly felt: number;
  readonly peers: Readonly<Record<string, number>>;
  /** Per peer: of `pairs` cases, how many it decides differently from Felt. */
  readonly agreement?: { readonly pairs: number; readonly disagreements: Readonly<Record<string, number>> };
}

/** The npm libraries Felt is measured against (devDependencies of this package). */
export const PEER_NAMES = ['@pokertools/evaluator', 'phe', 'poker-evaluator', 'pokersolver'] as const;
export type PeerName = (typeof PEER_NAMES)[number];
export type ContenderName = 'felt' | PeerName;
export const CONTENDER_NAMES: readonly ContenderName[] = ['felt', ...PEER_NAMES];
