import { runChild } from '../child.js';
import { median } from '../measure.js';
import {
  CONTENDER_NAMES,
  PEER_NAMES,
  type BenchGroup,
  type BenchRow,
  type ContenderName,
} from '../registry.js';
import type { StartupResult } from './worker.js';

/** Fresh processes per library; each figure is their median. */
const RUNS = 3;

const round1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * startup: the time to import a library and make its first evaluations, which build its tables;
 * tables-memory: the memory that holds on to afterwards. Each measured in a fresh process.
 */
export const startupGroup: BenchGroup = {
  name: 'startup',
  async *rows() {
    const ms = new Map<ContenderName, number>();
    const megabytes = new Map<ContenderName, number>();
    for (const contender of CONTENDER_NAMES) {
      const runs: StartupResult[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(
          await runChild<StartupResult>(new URL('./worker.js', import.meta.url), contender, ['--expose-gc']),
        );
      }
      ms.set(contender, round1(median(runs.map((result) => result.ms))));
      megabytes.set(contender, round1(median(runs.map((result) => result.bytes / 2 ** 20))));
    }
    const row = (name: string, unit: string, figures: ReadonlyMap<ContenderName, number>): BenchRow => ({
      name,
      unit,
      felt: figures.get('felt')!,
      peers: Object.fromEntries(PEER_NAMES.map((peer) => [peer, figures.get(peer)!])),
    });
    yield row('startup', 'ms', ms);
    yield row('tables-memory', 'MB', megabytes);
  },
};
