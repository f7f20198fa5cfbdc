/**
 * The storage thread (see ./thread.ts): opens the SQLite storage and answers each call with the
 * method's result. Each call starts as its message arrives, so calls join the driver's queue in the
 * order they were made; answers go back by id. A call the storage does not have is an error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStorage } from './index.js';
import { Outbox, type StorageAnswer, type StorageCall, type StorageThreadOptions } from './thread.js';

const port = parentPort;
if (port === null) throw new Error('thread-worker.ts runs as a worker thread');
const storage = openSqliteStorage(workerData as StorageThreadOptions);
const methods = storage as unknown as Readonly<Record<string, unknown>>;

const answers = new Outbox<StorageAnswer>((batch) => {
  port.postMessage(batch);
});
port.on('message', (calls: readonly StorageCall[]) => {
  for (const call of calls) void answer(call);
});

async function answer({ id, method, args }: StorageCall): Promise<void> {
  try {
    const fn = methods[method];
    if (typeof fn !== 'function' || method === 'constructor')
      throw new Error(`storage has no method ${method}`);
    const value: unknown = await Reflect.apply(fn as (...a: unknown[]) => Promise<unknown>, storage, args);
    answers.push({ id, value });
  } catch (error) {
    answers.push({ id, error });
  }
}
