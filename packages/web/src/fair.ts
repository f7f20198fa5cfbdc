/**
 * Provably fair dealing in the client (docs/fairness.md): the player's own 32 random bytes for the next
 * hand, from the browser's cryptographic source. The check of a finished hand is ./fair-check.ts,
 * loaded with the hand's history only.
 */
import { toHex } from '@felt/engine/browser';

/** 32 bytes of `crypto.getRandomValues`, as the 64 hex digits `fair-contribute` takes. */
export function randomContribution(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** A hash or commitment short enough for a line: its first 16 hex digits. */
export function shortHex(hex: string): string {
  return `${hex.slice(0, 16)}…`;
}
