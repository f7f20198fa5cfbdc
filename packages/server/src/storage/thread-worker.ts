/**
 * The storage thread (see ./thread.ts): opens the SQLite storage and answers each call with the
 * method's result. Each call starts as its message arrives, so calls join the driver's queue in the
 * order they were made; answers go back by id. A call the storage does not have is an error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStorage } from './index.js';
import {
  Outbox,
  toWireError,
  type StorageAnswer,
  type StorageCall,
  type StorageThreadOptions,
} from './thread.js';
import type { Storage } from './types.js';

const port = parentPort;
if (port === null) throw new Error('thread-worker.ts runs as a worker thread');
// A database that cannot be opened (damaged, say) answers every call with why, in words.
let storage: Storage | null = null;
let openError: Error | null = null;
try {
  storage = openSqliteStorage(workerData as StorageThreadOptions);
} catch (error) {
  openError = error instanceof Error ? error : new Error(String(error));
}
const methods = (storage ?? {}) as unknown as Readonly<Record<string, unknown>>;

const answers = new Outbox<StorageAnswer>((batch) => {
  port.postMessage(batch);
});
port.on('message', (calls: readonly StorageCall[]) => {
  for (const call of calls) void answer(call);
});

async function answer({ id, method, args }: StorageCall): Promise<void> {
  try {
    if (openError !== null) throw openError;
    const fn = methods[method];
    if (typeof fn !== 'function' || method === 'constructor')
      throw new Error(`storage has no method ${method}`);
    const value: unknown = await Reflect.apply(fn as (...a: unknown[]) => Promise<unknown>, storage, args);
    answers.push({ id, value });
  } catch (error) {
    answers.push({ id, error: toWireError(error) });
  }
}
