/** Tables: actors, seats, blinds, clocks and views (Server I). */
export * from './types.js';
export { createTable } from './table.js';
export { resolveTable, defaultBuyIn, studForcedBets, type ResolvedTable } from './config.js';
export { realClock, manualClock, type ManualClock } from './clock.js';
export { memoryAllInCounter } from './allin.js';
export { cryptoRandomSource } from './random.js';
export { viewFor, recapFor } from './view.js';
export { planButtonHand, planStudHand, type HandPlan, type SeatPicture } from './seating.js';
