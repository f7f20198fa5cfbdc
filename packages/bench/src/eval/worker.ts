// Child script: one contender, one row (see ./group.ts).
import { childInput, childOutput } from '../child.js';
import { Deals } from '../deals.js';
import { medianRate } from '../measure.js';
import type { ContenderName } from '../registry.js';
import type { EvalRow } from './contender.js';
import { feltContender } from './felt.js';
import { PEERS } from './peers.js';

export interface EvalJob {
  readonly row: EvalRow;
  readonly contender: ContenderName;
  readonly samples: number;
  readonly pairs: number;
  readonly batchMs: number;
}

export interface EvalResult {
  /** Items per second. */
  readonly rate: number;
  /** The verdicts on the first `pairs` deals. */
  readonly verdicts: string[];
}

const job = childInput() as EvalJob;
const deals = new Deals(job.samples);
const contender = job.contender === 'felt' ? feltContender() : await PEERS[job.contender]();
const task = contender[job.row](deals);
const rate = medianRate(task.run, deals.count, job.batchMs);
const result: EvalResult = { rate, verdicts: Array.from({ length: job.pairs }, (_, i) => task.verdict(i)) };
childOutput(result);
