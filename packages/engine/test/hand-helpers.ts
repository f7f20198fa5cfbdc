import { expect } from 'vitest';
import { Hand, parseCards, type HandAction, type HandConfig, type HandEvent } from '../src/index.js';

/** Creates a hand with no deck: every deal must be given. */
export function start(config: HandConfig): Hand {
  const created = Hand.create(config);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

export function cards(text: string): number[] {
  const parsed = parseCards(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** Applies an action that must be legal. */
export function act(hand: Hand, action: HandAction): HandEvent {
  const result = hand.apply(action);
  if (!result.ok) throw new Error(`${JSON.stringify(action)} refused: ${result.error.message}`);
  return result.value;
}

/** Deals the pending request with these cards. */
export function deal(hand: Hand, text: string): void {
  expect(hand.phase).toBe('deal');
  act(hand, { type: 'deal', cards: cards(text) });
}

/** Deals hole cards to every pending player in turn. */
export function dealHoles(hand: Hand, ...texts: string[]): void {
  for (const text of texts) {
    const request = hand.pendingDeal();
    expect(request?.kind).toBe('hole');
    deal(hand, text);
  }
}

export const fold = (hand: Hand, player: number): HandEvent => act(hand, { type: 'fold', player });
export const call = (hand: Hand, player: number): HandEvent => act(hand, { type: 'check-call', player });
export const raiseTo = (hand: Hand, player: number, to: number): HandEvent =>
  act(hand, { type: 'bet-raise', player, to });

export const awards = (hand: Hand): { pot: number; player: number; amount: number; share: string }[] =>
  hand.events.flatMap((e) =>
    e.type === 'award' ? [{ pot: e.pot, player: e.player, amount: e.amount, share: e.share }] : [],
  );

export const total = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
