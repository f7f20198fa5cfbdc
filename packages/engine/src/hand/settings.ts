/**
 * A hand's configuration read once into one fixed object shape, every optional field present
 * (undefined where the caller left it out).
 *
 * Why: callers build configurations in many ways, often by spreading a base object (`{ ...base,
 * blinds }`), and V8 looks up a property such an object lacks through a slow path (a few hundred
 * nanoseconds a read, measured on Node 20), where the hand reads many optional fields on every
 * action. Copying a plain configuration's own fields once onto a shape that has them all (a few
 * hundred nanoseconds a hand) makes every later read a plain one. The hand reads its settings once:
 * a configuration changed after `Hand.create` does not change the hand (it never should).
 */
import type { HandConfig } from './types.js';

/** The configuration's fields that may be left out. */
type OptionalKey = {
  [K in keyof HandConfig]-?: undefined extends HandConfig[K] ? K : never;
}[keyof HandConfig];

/** A `HandConfig` with every field present: the optional ones may hold undefined. */
export type HandSettings = Pick<HandConfig, Exclude<keyof HandConfig, OptionalKey>> & {
  readonly [K in OptionalKey]-?: HandConfig[K] | undefined;
};

const OBJECT_PROTOTYPE = Object.prototype as unknown;

/** Every field, undefined: the shape settings start from. */
const EMPTY: { readonly [K in keyof HandConfig]-?: undefined } = {
  variant: undefined,
  structure: undefined,
  stacks: undefined,
  antes: undefined,
  blinds: undefined,
  deadBlinds: undefined,
  bringIn: undefined,
  smallBet: undefined,
  bigBet: undefined,
  spreadLimits: undefined,
  minBet: undefined,
  capHeadsUp: undefined,
  openPairBigBet: undefined,
  anteTrimming: undefined,
  shortAllInReopens: undefined,
  maxRaises: undefined,
  rakeEachPot: undefined,
  rake: undefined,
  autoShowdown: undefined,
};

/** Reads a configuration's fields once, as plain property reads would (own or inherited). */
export function settingsOf(config: HandConfig): HandSettings {
  const proto: unknown = Object.getPrototypeOf(config);
  // A plain object inherits no configuration field: its own enumerable fields over the empty shape.
  if (proto === OBJECT_PROTOTYPE || proto === null) return Object.assign({ ...EMPTY }, config);
  // Anything else (a class instance, a prototype of defaults) is read field by field.
  return {
    variant: config.variant,
    structure: config.structure,
    stacks: config.stacks,
    antes: config.antes,
    blinds: config.blinds,
    deadBlinds: config.deadBlinds,
    bringIn: config.bringIn,
    smallBet: config.smallBet,
    bigBet: config.bigBet,
    spreadLimits: config.spreadLimits,
    minBet: config.minBet,
    capHeadsUp: config.capHeadsUp,
    openPairBigBet: config.openPairBigBet,
    anteTrimming: config.anteTrimming,
    shortAllInReopens: config.shortAllInReopens,
    maxRaises: config.maxRaises,
    rakeEachPot: config.rakeEachPot,
    rake: config.rake,
    autoShowdown: config.autoShowdown,
  };
}
