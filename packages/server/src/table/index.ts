/** Tables: the table machine and its actor, seats, blinds, clocks and views (Server I). */
export * from './types.js';
export { createTable } from './actor.js';
export { step, check, createMachineState, type MachineCommand, type StepResult } from './machine.js';
export type {
  Effect,
  Write,
  ControllerNews,
  HandPositions,
  HandFinisher,
  SubscriberId,
  TimerName,
} from './effects.js';
export { CASH_GAME, type TablePolicies, type StakesPolicy } from './policies.js';
export type { MachineState, SeatState, HandInPlay } from './state.js';
export { resolveTable, defaultBuyIn, studForcedBets, type ResolvedTable } from './config.js';
export { realClock, manualClock, type ManualClock } from './clock.js';
export { memoryAllInCounter } from './allin.js';
export { cryptoRandomSource } from './random.js';
export { viewFor, recapFor, tableViewFor } from './visibility.js';
export {
  planButtonHand,
  planDeadButtonHand,
  planStudHand,
  type HandPlan,
  type SeatPicture,
} from './seating.js';
