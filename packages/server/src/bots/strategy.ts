/**
 * The bots' simple strategy: a random choice among the legal actions the server sent, weighted so
 * that hands go on to later streets and showdowns (mostly checks and calls, some bets and raises,
 * a few folds) without every pot becoming an all-in. Every game works from the same `LegalView`:
 * bring-ins and completions (stud), discards (draw games), split offers (32-card draw); run it twice
 * is always agreed (`runTwiceToAgree`).
 */
import type { HandView, LegalView, WireHandAction } from '@felt/protocol';

/** A number in [0, 1); `Math.random` in the bots, a seeded source in tests. */
export type Roll = () => number;

const CARD = /^[2-9TJQKA][cdhs]$/;

/**
 * How long a bot thinks before one action: uniform in [(1 − spread)·thinkMs, (1 + spread)·thinkMs],
 * so `thinkMs` on average. Why not always `thinkMs`: bots answered by the same group commit would act
 * again in the same millisecond, hand after hand — a room in lockstep waves that no crowd of people makes.
 */
export function thinkTime(thinkMs: number, spread: number, roll: Roll): number {
  return thinkMs * (1 - spread + 2 * spread * roll());
}

/** An integer in [0, n). */
const below = (roll: Roll, n: number): number => Math.min(n - 1, Math.floor(roll() * n));

/** A `to` amount for a bet, raise or completion: mostly the minimum, now and then more, rarely all. */
export function pickAmount(
  raise: { readonly min: number; readonly max: number },
  tos: readonly number[] | null,
  roll: Roll,
): number {
  if (tos !== null && tos.length > 0) return tos[below(roll, tos.length)]!;
  const r = roll();
  if (r < 0.6 || raise.max <= raise.min) return raise.min;
  if (r < 0.97) return raise.min + below(roll, Math.min(raise.max, raise.min * 3) - raise.min + 1);
  return raise.max;
}

/**
 * The action for a decision. `cards`: the bot's own cards in this hand as it knows them (hidden or
 * unknown ones are skipped), used for discards.
 */
export function chooseAction(
  legal: LegalView,
  cards: readonly string[],
  roll: Roll = Math.random,
): WireHandAction {
  if (legal.split) return { type: 'split', accept: roll() < 0.5 };
  if (legal.discard !== null) {
    const known = cards.filter((card) => CARD.test(card));
    const count = below(roll, Math.min(legal.discard, known.length) + 1);
    if (count === 0) return { type: 'stand-pat' };
    const pool = [...known];
    const chosen: string[] = [];
    for (let i = 0; i < count; i++) chosen.push(pool.splice(below(roll, pool.length), 1)[0]!);
    return { type: 'discard', cards: chosen };
  }
  if (legal.bringIn !== null) {
    if (legal.raise !== null && roll() < 0.25)
      return { type: 'complete', to: pickAmount(legal.raise, legal.raiseTos, roll) };
    return { type: 'bring-in' };
  }
  const r = roll();
  if (legal.raise !== null && r < 0.15) {
    const to = pickAmount(legal.raise, legal.raiseTos, roll);
    return legal.check ? { type: 'bet', to } : { type: 'raise', to };
  }
  if (legal.check) return { type: 'check' };
  if (legal.call !== null) return r < 0.2 ? { type: 'fold' } : { type: 'call' };
  return legal.fold ? { type: 'fold' } : { type: 'check' };
}

/** The safest legal action, for when the server refuses the chosen one: stand pat, bring in, check, call, else fold. */
export function safeAction(legal: LegalView): WireHandAction {
  if (legal.discard !== null) return { type: 'stand-pat' };
  if (legal.bringIn !== null) return { type: 'bring-in' };
  if (legal.check) return { type: 'check' };
  return legal.call !== null ? { type: 'call' } : { type: 'fold' };
}

/**
 * Whether the bot at `seat` should answer the hand's run-it-twice offer now: it is asked and has not
 * agreed yet. A bot always agrees (its only rule: it lowers nobody's variance but costs nothing).
 */
export function runTwiceToAgree(hand: HandView | null, seat: number | null): boolean {
  const offer = hand?.runTwice ?? null;
  return offer !== null && seat !== null && offer.seats.includes(seat) && !offer.accepted.includes(seat);
}
