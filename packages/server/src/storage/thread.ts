/**
 * Storage on a thread of its own: the SQLite storage (./sql-storage.ts on ./sqlite.ts) runs in a
 * worker (./thread-worker.ts) and this proxy forwards every {@link Storage} call to it as a message.
 *
 * Why: better-sqlite3 is synchronous, so on the event loop every statement and COMMIT holds up every
 * socket and every table — about a third of the room's main-thread time with 1,000 busy tables
 * (docs/storage.md). On its own thread the SQL work runs beside the tables instead.
 *
 * Nothing else changes: calls reach the worker in the order they were made (one message port) and
 * join the driver's queue there in that order, so group commit, savepoints and the durability promise
 * hold as before — an answer comes back only once what it reports is durable. Arguments and answers
 * are plain data (structured clone), sent in one message per turn of each thread's event loop. If the
 * worker dies, every call in flight and every later call fails, and the tables stop as on any storage
 * failure (the crash rule refunds on restart).
 */
import { Worker } from 'node:worker_threads';
import { WaitingCalls } from '../waiting-calls.js';
import { StorageOpenError, type OpenErrorCode } from './open-errors.js';
import type { SqliteStorageOptions, Storage } from './types.js';

/** What the worker needs: where the database is and how durable (the clock stays `Date.now`). */
export type StorageThreadOptions = Pick<
  SqliteStorageOptions,
  'dataDir' | 'file' | 'synchronous' | 'commitGapMs'
>;

/**
 * Messages to the other thread, sent together once per turn of the event loop: a message costs far
 * more than its few fields, and a busy room makes hundreds of calls per turn.
 */
export class Outbox<T> {
  #items: T[] = [];
  readonly #send: (items: readonly T[]) => void;

  constructor(send: (items: readonly T[]) => void) {
    this.#send = send;
  }

  push(item: T): void {
    if (this.#items.length === 0) setImmediate(this.#flush);
    this.#items.push(item);
  }

  readonly #flush = (): void => {
    const items = this.#items;
    this.#items = [];
    this.#send(items);
  };
}

/** A call to the worker, and its answer (both travel in arrays, see {@link Outbox}). */
export interface StorageCall {
  readonly id: number;
  readonly method: string;
  readonly args: readonly unknown[];
}
export type StorageAnswer =
  { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: WireError };

/**
 * An error as it crosses the thread. A structured clone keeps only an Error's own enumerable
 * properties: better-sqlite3's `SqliteError` arrived as `{ code }` alone, its message lost (shown as
 * `[object Object]`). So the worker sends the words, and the proxy makes an Error of them again.
 */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
}

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
  };
}

export function fromWireError(wire: WireError): Error {
  const error =
    wire.name === 'StorageOpenError' && wire.code !== undefined
      ? new StorageOpenError(wire.code as OpenErrorCode, wire.message)
      : Object.assign(
          new Error(wire.message),
          { name: wire.name },
          wire.code !== undefined ? { code: wire.code } : {},
        );
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}

/**
 * The worker's built code, from this file in `src/storage` (tests) or in `dist/storage` alike: both
 * are two levels below the package, and the worker always runs the compiled JavaScript.
 */
const WORKER = new URL('../../dist/storage/thread-worker.js', import.meta.url);

interface Pending {
  readonly id: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Starts the worker, which opens the database and runs the migrations; resolves once it is ready. */
export async function openStorageThread(options: StorageThreadOptions = {}): Promise<Storage> {
  const worker = new Worker(WORKER, { workerData: options });
  const pending = new WaitingCalls<Pending>();
  let nextId = 1;
  let dead: Error | null = null;
  const stop = (error: Error): void => {
    dead ??= error;
    for (const call of pending.takeAll()) call.reject(dead);
  };
  worker.on('message', (answers: readonly StorageAnswer[]) => {
    for (const answer of answers) {
      const call = pending.take(answer.id);
      if (call === undefined) continue;
      if ('error' in answer) call.reject(fromWireError(answer.error));
      else call.resolve(answer.value);
    }
  });
  worker.on('error', stop);
  worker.on('exit', (code) => {
    stop(new Error(`the storage thread exited (${code})`));
  });
  const outbox = new Outbox<StorageCall>((calls) => {
    try {
      worker.postMessage(calls);
    } catch {
      // An argument that cannot be cloned: send them one by one, so that only such calls fail.
      for (const one of calls) {
        try {
          worker.postMessage([one]);
        } catch (error) {
          pending.take(one.id)?.reject(error);
        }
      }
    }
  });
  const call = (method: string, args: readonly unknown[]): Promise<unknown> => {
    if (dead !== null) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.add({ id, resolve, reject });
      outbox.push({ id, method, args });
    });
  };
  try {
    await call('migrate', []);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  const close = async (): Promise<void> => {
    if (dead !== null) return;
    await call('close', []);
    await worker.terminate();
  };
  // Every method of Storage is a call to the worker; `then` stays undefined so that the proxy is not
  // mistaken for a promise when returned from an async function.
  return new Proxy({} as Storage, {
    get: (_target, name) => {
      if (name === 'close') return close;
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => call(name, args);
    },
  });
}
