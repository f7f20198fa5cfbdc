import { runChild } from '../child.js';
import { CONTENDER_NAMES, PEER_NAMES, type BenchGroup, type BenchRow } from '../registry.js';
import { EVAL_ROWS, type EvalRow } from './contender.js';
import type { EvalJob, EvalResult } from './worker.js';

/** Agreement is checked on this many deals at most: pokersolver needs seconds for a thousand Omaha pairs. */
const MAX_PAIRS = 1000;

const UNITS: Readonly<Record<EvalRow, string>> = {
  eval7: 'evals/s',
  omaha: 'evals/s',
  omaha5: 'evals/s',
  showdown6: 'showdowns/s',
};

/**
 * eval7: seat 0's seven cards of each deal; omaha / omaha5: seat 0's 4 / 5 hole cards on the board;
 * showdown6: the six hold'em hands of the deal. Every (row, library) pair runs in a fresh process.
 */
export const evalGroup: BenchGroup = {
  name: 'eval',
  async *rows({ samples, batchMs }) {
    const pairs = Math.min(samples, MAX_PAIRS);
    for (const row of EVAL_ROWS) {
      const results = new Map<string, EvalResult>();
      for (const contender of CONTENDER_NAMES) {
        const job: EvalJob = { row, contender, samples, pairs, batchMs };
        results.set(contender, await runChild<EvalResult>(new URL('./worker.js', import.meta.url), job));
      }
      const felt = results.get('felt')!;
      const peers: Record<string, number> = {};
      const disagreements: Record<string, number> = {};
      for (const peer of PEER_NAMES) {
        const result = results.get(peer)!;
        peers[peer] = Math.round(result.rate);
        disagreements[peer] = result.verdicts.filter((verdict, i) => verdict !== felt.verdicts[i]).length;
      }
      const benchRow: BenchRow = {
        name: row,
        unit: UNITS[row],
        felt: Math.round(felt.rate),
        peers,
        agreement: { pairs, disagreements },
      };
      yield benchRow;
    }
  },
};
