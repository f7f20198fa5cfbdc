/**
 * Tournament rules as data and pure functions, for the tournament controller to stand on:
 * - ./structure.ts: the definition (games, levels, breaks, seats, entrants, money, options) and its validator.
 * - ./rotation.ts: mixed games, the game a table deals (every level, or every orbit).
 * - ./clock.ts: the level clock as pure state (time in as arguments; pauses for breaks and restarts).
 * - ./seating.ts: the initial draw, balancing, breaking tables, the final table, late seats.
 * - ./places.ts: same-hand and hand-for-hand eliminations, shared places, the hand-for-hand predicate.
 * - ./payouts.ts: the payout tables, prizes in cents, ICM and chip-chop deals.
 * - ./chips.ts: chips sold, the prize pool, rebuy / add-on / re-entry offers.
 * - ./registration.ts: when a tournament starts or is cancelled, when registration is open.
 * - ./standings.ts: the players left ranked by chips, the average stack.
 */
export * from './structure.js';
export * from './rotation.js';
export * from './clock.js';
export * from './seating.js';
export * from './places.js';
export * from './payouts.js';
export * from './chips.js';
export * from './registration.js';
export * from './standings.js';
