import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventLine, potFractionBet, potSizedBets } from '../src/browser.js';
import { simulatePhh, writePhh } from '../src/index.js';
import { parsePhh } from '../src/phh/parse.js';
import { verifyFairHand } from '../src/verify.js';

const SRC = join(import.meta.dirname, '../src');

/** The source files a module loads at run time (type-only imports are erased by the compiler). */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)\.js';/gms)) {
    runtimeImports(join(dirname(file), `${match[1] ?? ''}.ts`), seen);
  }
  return seen;
}

describe('the browser entry', () => {
  it('loads neither the evaluators nor the hand state machine', () => {
    const files = [...runtimeImports(join(SRC, 'browser.ts'))].map((file) => relative(SRC, file));
    expect(files).toContain('phh/parse.ts');
    expect(files.filter((file) => file.startsWith('eval/') || file === 'hand/hand.ts')).toEqual([]);
    // Nor the fair-dealing scheme's hashes: the hex of a contribution is all the first load needs.
    expect(files).toContain('fair/hex.ts');
    expect(files.filter((file) => file.startsWith('fair/') && file !== 'fair/hex.ts')).toEqual([]);
  });

  it('the verify entry (loaded on demand) checks a hand as the engine does', () => {
    const simulated = simulatePhh({ variant: 'NT', players: 3, hands: 1, seed: 3 });
    if (!simulated.ok) throw new Error(simulated.error.message);
    const hand = parsePhh(writePhh(simulated.value[0]!));
    if (!hand.ok) throw new Error(hand.error.message);
    expect(verifyFairHand(hand.value)).toEqual({ ok: true });
    const card = hand.value.actions.findIndex((action) => action.kind === 'deal-board');
    const board = hand.value.actions[card];
    if (board?.kind !== 'deal-board') throw new Error('no board');
    const swapped = { ...board, cards: [...board.cards].reverse() };
    const tampered = { ...hand.value, actions: hand.value.actions.map((a, i) => (i === card ? swapped : a)) };
    const verdict = verifyFairHand(tampered);
    expect(!verdict.ok && verdict.reason).toMatch(/^card: /);
  });

  it('pot-sized bets follow the pot-limit rule (RULES.md §2 worked examples)', () => {
    // $1-$2 pot limit, first to act: the pot holds 3, the call is 2: raise to at most 7.
    expect(potSizedBets(3, 2, 2).pot).toBe(7);
    // Pot 200, a bet of 150 and a call of 150: the next player may make it 800.
    expect(potSizedBets(500, 150, 150).pot).toBe(800);
    // Half pot: half of the pot after the call, rounded down.
    expect(potSizedBets(3, 2, 2).halfPot).toBe(4);
  });

  it('a fraction of the pot is taken of the pot after the call, rounded down; the whole and the half are the pot sizes', () => {
    // Pot 600 after a bet of 150 faced (450 + call 150): a third is 200, three quarters 450.
    expect(potFractionBet(450, 150, 150, 1 / 3)).toBe(350);
    expect(potFractionBet(450, 150, 150, 0.75)).toBe(600);
    expect(potFractionBet(7, 0, 0, 1 / 3)).toBe(2);
    for (const [pot, bet, call] of [
      [3, 2, 2],
      [500, 150, 150],
      [1, 0, 0],
      [999, 400, 133],
    ] as const) {
      expect(potFractionBet(pot, bet, call, 1)).toBe(potSizedBets(pot, bet, call).pot);
      expect(potFractionBet(pot, bet, call, 0.5)).toBe(potSizedBets(pot, bet, call).halfPot);
    }
  });

  it('words an event with the names and money the caller gives', () => {
    const words = { name: (seat: number) => ['alice', 'bob'][seat] ?? '?', money: (n: number) => `$${n}` };
    const noBet = { currentBet: 0 };
    expect(eventLine({ type: 'call', seat: 1, amount: 5, allIn: true }, words, noBet)).toBe(
      'bob calls $5 (all in)',
    );
    expect(eventLine({ type: 'award', pot: 1, seat: 0, amount: 9, share: 'low' }, words, noBet)).toBe(
      'alice wins $9 from side pot 1 (low)',
    );
    expect(
      eventLine({ type: 'deal-hole', seat: 0, cards: ['??', 'Kd'], up: [false, true] }, words, noBet),
    ).toBe('alice is dealt Kd face up');
    expect(
      eventLine({ type: 'deal-hole', seat: 0, cards: ['??', '??'], up: [false, false] }, words, noBet),
    ).toBeNull();
  });
});
