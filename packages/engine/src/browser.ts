/**
 * The engine's browser-safe entry (`@felt/engine/browser`): what a client needs to show a table and a
 * hand history — cards, reading PHH (and its forced bets by position), the hand log's wording,
 * pot-sized bets, the hex of a fair-dealing contribution — without the evaluators' tables, the hand state machine or anything of Node.
 */
export * from './result.js';
export * from './cards.js';
export { parsePhh, parsePhhs } from './phh/parse.js';
export { phhToConfig } from './phh/config.js';
export { formatScaled } from './phh/decimal.js';
export { PhhErrorCode, type PhhAction, type PhhCard, type PhhHand } from './phh/types.js';
export * from './event-text.js';
export * from './pot-sizes.js';
// The hex of a fair-dealing contribution; verifying a hand is `@felt/engine/verify`'s (loaded on demand).
export { toHex } from './fair/hex.js';
