/**
 * Drivers for tests, the simulator and the benchmark: a random legal-action player, replay of a
 * hand's own events, and a sample configuration for any variant and structure.
 */
import { randomBelow, type RandomSource } from '../random.js';
import { Hand } from './hand.js';
import {
  type HandAction,
  type HandConfig,
  type HandEvent,
  type HandResult,
  type Structure,
  type VariantId,
} from './types.js';
import { variantOf } from './variants.js';

/** A random legal action for the hand as it stands (deals come from the engine's deck), or null when done. */
export function randomAction(hand: Hand, random: RandomSource): HandAction | null {
  switch (hand.phase) {
    case 'done':
      return null;
    case 'deal':
      return { type: 'deal' };
    case 'showdown': {
      const pending = hand.showdownPending();
      const player = pending[0]!;
      if (randomBelow(random, 4) === 0) {
        const muck: HandAction = { type: 'muck', player };
        if (hand.can(muck)) return muck;
      }
      return { type: 'show', player };
    }
    case 'split':
    case 'draw':
    case 'bet': {
      const legal = hand.legalActions()!;
      const player = legal.player;
      if (legal.split) return { type: 'split', player, accept: randomBelow(random, 3) === 0 };
      if (legal.discard !== null) {
        const cards = hand.cardsOf(player);
        const count = randomBelow(random, legal.discard + 1);
        const pool = [...cards];
        const chosen = [];
        for (let i = 0; i < count; i++) chosen.push(pool.splice(randomBelow(random, pool.length), 1)[0]!);
        return { type: 'discard', player, cards: chosen };
      }
      const roll = randomBelow(random, 100);
      if (roll < 3) return { type: 'timeout', player };
      if (legal.bringIn !== null) {
        if (legal.raise && roll < 30)
          return { type: 'bet-raise', player, to: pickRaise(legal.raise, legal.raiseTos, random) };
        return { type: 'bring-in', player };
      }
      if (legal.raise && roll < 25)
        return { type: 'bet-raise', player, to: pickRaise(legal.raise, legal.raiseTos, random) };
      if (legal.call !== null && roll < 40) return { type: 'fold', player };
      return { type: 'check-call', player };
    }
  }
}

function pickRaise(
  range: { min: number; max: number },
  tos: readonly number[] | null,
  random: RandomSource,
): number {
  if (tos && tos.length > 0) return tos[randomBelow(random, tos.length)]!;
  const roll = randomBelow(random, 4);
  if (roll === 0 || range.max === range.min) return range.min;
  if (roll === 1) return range.max;
  return range.min + randomBelow(random, Math.min(range.max - range.min, 0xffff_ffff) + 1);
}

/**
 * Plays a hand to the end with random legal actions, dealing from a deck shuffled by `random`.
 * Throws if the engine refuses an action it listed as legal, or never ends (a bug, by definition).
 */
export function playRandomHand(config: HandConfig, random: RandomSource): Hand {
  const created = Hand.create(config, random);
  if (!created.ok) throw new Error(`bad config: ${created.error.message}`);
  const hand = created.value;
  for (let steps = 0; steps < 10_000; steps++) {
    const action = randomAction(hand, random);
    if (action === null) return hand;
    const result = hand.apply(action);
    if (!result.ok)
      throw new Error(
        `engine refused its own legal action ${JSON.stringify(action)}: ${result.error.message}`,
      );
  }
  throw new Error('hand did not end in 10,000 steps');
}

/** The action that caused an event, for the events a caller causes; null for the rest. */
export function actionOf(event: HandEvent): HandAction | null {
  switch (event.type) {
    case 'deal-hole':
    case 'deal-board':
    case 'deal-draw':
      return { type: 'deal', cards: event.cards };
    case 'fold':
      return { type: 'fold', player: event.player };
    case 'check':
    case 'call':
      return { type: 'check-call', player: event.player };
    case 'bring-in':
      return { type: 'bring-in', player: event.player };
    case 'bet-raise':
      return { type: 'bet-raise', player: event.player, to: event.to };
    case 'discard':
      return { type: 'discard', player: event.player, cards: event.cards, timedOut: event.timedOut };
    case 'show':
      return { type: 'show', player: event.player, cards: event.cards.filter((c) => c !== null) };
    case 'muck':
      return { type: 'muck', player: event.player };
    case 'split':
      return { type: 'split', player: event.player, accept: event.accept };
    case 'timeout':
      return { type: 'timeout', player: event.player };
    case 'run-twice':
      return { type: 'run-twice' };
    case 'post':
    case 'round':
    case 'return':
    case 'rake':
    case 'award':
    case 'end':
      return null;
  }
}

/**
 * Replays a hand from its events (the caller-caused ones; the rest follow from the rules). With
 * `autoShowdown` set in the config, show/muck events are the engine's own and are skipped.
 */
export function replayHand(config: HandConfig, events: readonly HandEvent[]): HandResult<Hand> {
  const created = Hand.create(config);
  if (!created.ok) return created;
  const hand = created.value;
  let skipNext = false;
  for (const event of events) {
    if (config.autoShowdown && (event.type === 'show' || event.type === 'muck')) continue;
    const action = actionOf(event);
    if (action !== null && skipNext) {
      skipNext = false; // the check, fold or bring-in a timeout made
      continue;
    }
    if (event.type === 'timeout') skipNext = event.result !== 'artificial-all-in';
    if (action === null) continue;
    const result = hand.apply(action);
    if (!result.ok) return result;
  }
  return { ok: true, value: hand };
}

/**
 * A playable configuration for any variant and structure: stacks in [minStack, maxStack], blinds
 * 1/2 (button games) or ante 1, bring-in 1 (stud games), limits 2/4.
 */
export function sampleConfig(
  variant: VariantId,
  structure: Structure,
  players: number,
  random: RandomSource,
  options: { readonly minStack?: number; readonly maxStack?: number; readonly autoShowdown?: boolean } = {},
): HandConfig {
  const v = variantOf(variant);
  const n = Math.min(players, v.seats);
  const minStack = options.minStack ?? 1;
  const maxStack = options.maxStack ?? 400;
  const stacks = Array.from({ length: n }, () => minStack + randomBelow(random, maxStack - minStack + 1));
  const base = {
    variant,
    structure,
    stacks,
    smallBet: 2,
    bigBet: 4,
    minBet: 2,
    autoShowdown: options.autoShowdown ?? true,
  };
  if (v.forced === 'blinds') {
    return { ...base, blinds: n === 2 ? [2, 1] : [1, 2] };
  }
  return { ...base, antes: 1, bringIn: 1 };
}
