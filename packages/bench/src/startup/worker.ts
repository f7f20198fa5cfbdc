// Child script: imports one library and makes its first evaluations, which build its tables. Nothing
// else is imported before the clock starts, so the figures are the library's alone.
import { childInput, childOutput } from '../child.js';
import type { ContenderName } from '../registry.js';

export interface StartupResult {
  readonly ms: number;
  /** Growth of heap and external memory (typed arrays, buffers), after garbage collection, in bytes. */
  readonly bytes: number;
}

/** A seven-card hand every library reads: A♠ K♠ Q♥ 7♦ 7♣ 4♥ 2♠. */
const HAND = ['As', 'Ks', 'Qh', '7d', '7c', '4h', '2s'];

const FIRST_USE: Readonly<Record<ContenderName, () => Promise<unknown>>> = {
  felt: async () => {
    const { bestOmahaValueOf, highRankingStandard, parseCards, standardHigh } = await import('@felt/engine');
    const parsed = parseCards(HAND);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const cards = parsed.value;
    return (
      standardHigh().value(cards) + bestOmahaValueOf(highRankingStandard, cards.slice(0, 4), cards.slice(4))
    );
  },
  '@pokertools/evaluator': async () => (await import('@pokertools/evaluator')).evaluateStrings(HAND),
  phe: async () => (await import('phe')).default.evaluateCards(HAND),
  'poker-evaluator': async () => (await import('poker-evaluator')).evalHand(HAND),
  pokersolver: async () => {
    const { Hand, Game } = (await import('pokersolver')).default;
    return Hand.solve(HAND, new Game('standard'));
  },
};

const name = childInput() as ContenderName;
const gc = globalThis.gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const held = (): number => {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};
const before = held();
const start = performance.now();
await FIRST_USE[name]();
const ms = performance.now() - start;
const result: StartupResult = { ms, bytes: held() - before };
childOutput(result);
