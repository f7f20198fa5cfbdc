export { DEAL_KIND, parseOddsRequest, withDiscard, cardsToCome } from './spot.js';
export type { DealKind, HandSpec, OddsRequest, OddsSpot } from './spot.js';
export { runOutCount, enumerateSpot, sampleSpot } from './enumerate.js';
export type { Tally } from './enumerate.js';
export { outsOf } from './outs.js';
export {
  computeOdds,
  discardChoices,
  oddsJson,
  roundToSum,
  DEFAULT_SAMPLES,
  DEFAULT_SEED,
  EXACT_LIMIT,
} from './odds.js';
export type { DiscardOdds, OddsOptions, OddsResult, PlayerOdds } from './odds.js';
