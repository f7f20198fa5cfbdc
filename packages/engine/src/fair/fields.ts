/**
 * The scheme's record of a hand, as PHH user-defined fields (names starting with `_`, which PokerKit
 * and other PHH readers ignore): docs/fairness.md §7.
 */
import type { PhhExtraValue } from '../phh/types.js';
import { fromHex, toHex } from './hex.js';
import { FAIR_BYTES } from './scheme.js';

/** What a verifier reads of a hand: the secret and the contributions only once they are revealed. */
export interface FairRecord {
  readonly version: number;
  readonly table: string;
  readonly hand: number;
  readonly previous: Uint8Array;
  readonly commitment: Uint8Array;
  /** Seats that contributed, increasing; the hashes and contributions follow the same order. */
  readonly seats: readonly number[];
  readonly contributionHashes: readonly Uint8Array[];
  readonly contributions: readonly Uint8Array[] | null;
  readonly secret: Uint8Array | null;
}

export const FAIR_FIELDS = {
  version: '_fair_version',
  table: '_fair_table',
  hand: '_fair_hand',
  previous: '_fair_previous',
  commitment: '_fair_commitment',
  seats: '_fair_contribution_seats',
  contributionHashes: '_fair_contribution_hashes',
  contributions: '_fair_contributions',
  secret: '_fair_secret',
} as const;

/** The fields to add to a hand's `extra`, in the order the specification lists them. */
export function fairFields(record: FairRecord): Record<string, PhhExtraValue> {
  const fields: Record<string, PhhExtraValue> = {
    [FAIR_FIELDS.version]: record.version,
    [FAIR_FIELDS.table]: record.table,
    [FAIR_FIELDS.hand]: record.hand,
    [FAIR_FIELDS.previous]: toHex(record.previous),
    [FAIR_FIELDS.commitment]: toHex(record.commitment),
    [FAIR_FIELDS.seats]: [...record.seats],
    [FAIR_FIELDS.contributionHashes]: record.contributionHashes.map(toHex),
  };
  if (record.contributions !== null) fields[FAIR_FIELDS.contributions] = record.contributions.map(toHex);
  if (record.secret !== null) fields[FAIR_FIELDS.secret] = toHex(record.secret);
  return fields;
}

/** Reads the fields back; a message naming the first field missing or malformed. */
export function readFairFields(extra: Readonly<Record<string, PhhExtraValue>>): FairRecord | string {
  const value = (key: keyof typeof FAIR_FIELDS): PhhExtraValue | undefined => extra[FAIR_FIELDS[key]];
  const version = value('version');
  if (version === undefined) return `${FAIR_FIELDS.version} is missing: the hand was not dealt by the scheme`;
  if (typeof version !== 'number' || !Number.isInteger(version))
    return `${FAIR_FIELDS.version} must be an integer`;
  const table = value('table');
  if (typeof table !== 'string' || table.length === 0)
    return `${FAIR_FIELDS.table} must be a non-empty string`;
  const hand = value('hand');
  if (typeof hand !== 'number' || !Number.isSafeInteger(hand) || hand < 1)
    return `${FAIR_FIELDS.hand} must be an integer ≥ 1`;
  const bytes = (key: 'previous' | 'commitment' | 'secret'): Uint8Array | string | null => {
    const text = value(key);
    if (text === undefined) return null;
    return (
      (typeof text === 'string' && fromHex(text, FAIR_BYTES)) || `${FAIR_FIELDS[key]} must be 64 hex digits`
    );
  };
  const list = (key: 'contributionHashes' | 'contributions'): Uint8Array[] | string | null => {
    const items = value(key);
    if (items === undefined) return null;
    if (!Array.isArray(items)) return `${FAIR_FIELDS[key]} must be a list`;
    const out: Uint8Array[] = [];
    for (const item of items as readonly PhhExtraValue[]) {
      const parsed = typeof item === 'string' ? fromHex(item, FAIR_BYTES) : null;
      if (parsed === null) return `${FAIR_FIELDS[key]} must list 64-hex-digit strings`;
      out.push(parsed);
    }
    return out;
  };
  const previous = bytes('previous');
  const commitment = bytes('commitment');
  const secret = bytes('secret');
  if (previous === null) return `${FAIR_FIELDS.previous} is missing`;
  if (commitment === null) return `${FAIR_FIELDS.commitment} is missing`;
  for (const parsed of [previous, commitment, secret]) if (typeof parsed === 'string') return parsed;
  const seats = value('seats') ?? [];
  if (!Array.isArray(seats) || !(seats as readonly PhhExtraValue[]).every((seat) => Number.isInteger(seat)))
    return `${FAIR_FIELDS.seats} must list seat numbers`;
  const hashes = list('contributionHashes') ?? [];
  const contributions = list('contributions');
  for (const parsed of [hashes, contributions]) if (typeof parsed === 'string') return parsed;
  return {
    version,
    table,
    hand,
    previous: previous as Uint8Array,
    commitment: commitment as Uint8Array,
    seats: seats as number[],
    contributionHashes: hashes as Uint8Array[],
    contributions: contributions as Uint8Array[] | null,
    secret: secret as Uint8Array | null,
  };
}
