/**
 * Game security (issue 23): the reports of ./reports.ts over every settled hand the room stored, read
 * page by page through the hand histories (`settledHands`). What `felt admin integrity` prints and the
 * console's `staff-integrity` shows. The hands are read and the reports computed on a thread of their
 * own (./worker.ts): in a big room that takes seconds, during which the tables keep answering.
 */
import { Worker } from 'node:worker_threads';
import type { HandHistories, StoredHand } from '../storage/types.js';
import type { IntegrityDocument } from './document.js';
import type { IntegrityOptions } from './reports.js';

export { integrityReports, DEFAULT_ALPHA, type IntegrityOptions, type IntegrityReports } from './reports.js';
export { readHand, type ReadHand } from './hands.js';
export { IntegrityBuilder, type IntegrityDocument, type Named } from './document.js';

/** What the reports' thread is sent: the stored hands page by page, then the options to report with. */
export type ToIntegrityWorker =
  | { readonly type: 'page'; readonly hands: readonly StoredHand[] }
  | { readonly type: 'report'; readonly options: IntegrityOptions };

/** The worker's built code, from `src/integrity` (tests) or `dist/integrity` alike (./storage/thread.ts). */
const WORKER = new URL('../../dist/integrity/worker.js', import.meta.url);

const PAGE = 2000;

/** Reads every settled hand and computes the reports; hands whose PHH cannot be read are counted apart. */
export async function roomIntegrity(
  histories: Pick<HandHistories, 'settledHands'>,
  options: IntegrityOptions = {},
): Promise<IntegrityDocument> {
  const worker = new Worker(WORKER);
  try {
    const answered = new Promise<IntegrityDocument>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => {
        reject(new Error(`the integrity thread exited (${code})`));
      });
    });
    // Awaited once every page is sent; a thread that dies before is not an unhandled rejection meanwhile.
    answered.catch(() => undefined);
    const send = (message: ToIntegrityWorker): void => {
      worker.postMessage(message);
    };
    for (let after = 0; ;) {
      const page = await histories.settledHands({ after, limit: PAGE });
      send({ type: 'page', hands: page });
      if (page.length < PAGE) break;
      after = page.at(-1)!.handId;
    }
    send({ type: 'report', options });
    return await answered;
  } finally {
    await worker.terminate();
  }
}
