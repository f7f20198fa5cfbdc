/**
 * One hand of poker, from forced bets to chips pushed (Engine II).
 *
 * - ./types.ts: the vocabulary: `HandConfig` (position-ordered stacks and forced bets, structure,
 *   house/PokerKit flags), `HandAction`, `HandEvent`, `DealRequest`, `LegalActions`, `HandErrorCode`.
 * - ./variants.ts: the closed registry of games as data (streets with deal patterns, draws, burns,
 *   forced bets, bring-in rule, openers, rake trigger, seat limit) for the 13 room games and the
 *   PHH-only razz, 2-7 single draw, short-deck hold'em and badugi.
 * - ./structures.ts: fixed, spread, pot, half-pot and no limit amounts.
 * - ./hand.ts: the state machine, `Hand` (mutable inside; `verify` / `can` / `apply`; immutable
 *   events and `snapshot()`).
 * - ./pots.ts: side pots, hi/lo halves, quartering, odd chips. ./rake.ts: the house rake table.
 * - ./driver.ts: `playRandomHand`, `randomAction`, `replayHand`, `sampleConfig`.
 *
 * Typical use: `Hand.create(config, random)`; then loop: `hand.phase === 'deal'` → `apply({ type:
 * 'deal' })` (or give the cards); `'bet' | 'draw' | 'split'` → the actor's choice among
 * `hand.legalActions()`; `'showdown'` → `show` / `muck` of `hand.showdownPending()` (or set
 * `autoShowdown`); `'done'` → `hand.finishingStacks()`.
 */
export * from './types.js';
export * from './variants.js';
export * from './structures.js';
export * from './pots.js';
export * from './showing.js';
export * from './rake.js';
export * from './hand.js';
export * from './driver.js';
