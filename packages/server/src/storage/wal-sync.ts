/**
 * Syncs a WAL file to stable storage on a worker thread, so that the event loop does not stand still
 * for each fsync (see ./sqlite.ts). `sync()` resolves once an fdatasync of the file that STARTED after
 * the call has finished; calls made while one runs share the next one (group commit of the syncs).
 * A dedicated thread rather than libuv's pool: the pool also hashes passwords (scrypt), and a commit
 * must not queue behind a sign-up.
 */
import { Worker } from 'node:worker_threads';

/** The worker: opens the file, fdatasyncs it, closes it; the directory too, the first time. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
let directorySynced = false;
parentPort.on('message', (id) => {
  try {
    if (!directorySynced) {
      // The WAL file's directory entry, once (as SQLite does when it creates a journal).
      try {
        const dir = fs.openSync(path.dirname(workerData), 'r');
        try { fs.fsyncSync(dir); } finally { fs.closeSync(dir); }
      } catch {}
      directorySynced = true;
    }
    const fd = fs.openSync(workerData, 'r');
    try { fs.fdatasyncSync(fd); } finally { fs.closeSync(fd); }
    parentPort.postMessage({ id, error: null });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export class WalSync {
  readonly #worker: Worker;
  /** Waiting for the next sync to start. */
  #waiting: Waiter[] = [];
  /** Waiting for the sync in flight. */
  #inFlight: Waiter[] | null = null;
  #nextId = 1;
  #closed = false;
  /** The worker died: every later sync fails (the driver's callers see a storage failure). */
  #broken: Error | null = null;

  constructor(walFile: string) {
    // No inherited flags: `--input-type=module` would make the (CommonJS) source a module.
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: walFile, execArgv: [] });
    this.#worker.unref();
    this.#worker.on('message', (message: { id: number; error: string | null }) => {
      this.#done(message.error === null ? null : new Error(`WAL sync failed: ${message.error}`));
    });
    this.#worker.on('error', (error) => {
      this.#broken = error;
      this.#done(error);
    });
    this.#worker.on('exit', () => {
      if (this.#closed) return;
      this.#broken ??= new Error('WAL sync worker exited');
      this.#done(this.#broken);
    });
  }

  /** Resolves when everything committed before this call is on stable storage. */
  sync(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('storage is closed'));
    if (this.#broken !== null) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (this.#inFlight === null) this.#start();
    });
  }

  /** Resolves when the sync running now, if any, has finished (whether it failed or not). */
  running(): Promise<void> {
    return this.#after(this.#inFlight);
  }

  /** Resolves when every sync requested so far has finished (whether it failed or not). */
  #settled(): Promise<void> {
    return this.#after(this.#waiting.length > 0 ? this.#waiting : this.#inFlight);
  }

  #after(group: Waiter[] | null): Promise<void> {
    if (group === null) return Promise.resolve();
    return new Promise((resolve) => {
      group.push({
        resolve,
        reject: () => {
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    await this.#settled();
    if (this.#closed) return;
    this.#closed = true;
    await this.#worker.terminate();
  }

  #start(): void {
    this.#inFlight = this.#waiting;
    this.#waiting = [];
    this.#worker.ref();
    this.#worker.postMessage(this.#nextId++);
  }

  #done(error: Error | null): void {
    if (this.#broken !== null) error = this.#broken;
    const finished = this.#inFlight ?? [];
    this.#inFlight = null;
    for (const waiter of finished) {
      if (error === null) waiter.resolve();
      else waiter.reject(error);
    }
    if (this.#waiting.length > 0 && this.#broken === null) {
      this.#start();
      return;
    }
    if (this.#waiting.length > 0) {
      for (const waiter of this.#waiting) waiter.reject(this.#broken ?? new Error('WAL sync failed'));
      this.#waiting = [];
    }
    this.#worker.unref();
  }
}
