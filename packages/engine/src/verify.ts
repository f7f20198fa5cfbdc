/**
 * The engine's fair-dealing verifier for the browser (`@felt/engine/verify`), kept apart from
 * `@felt/engine/browser`: checking a hand's cards replays it on the hand state machine (with its
 * evaluators), which the client's first load does without. The web client loads this entry only when a
 * player opens a hand's Verify view.
 */
export { verifyFairHand, type FairVerdict } from './fair/verify.js';
export { readFairFields, FAIR_FIELDS, type FairRecord } from './fair/fields.js';
export { toHex } from './fair/hex.js';
