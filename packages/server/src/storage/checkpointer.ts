/**
 * Checkpoints a WAL database from a worker thread with its own connection, so that the event loop
 * never copies WAL pages into the database nor waits for the database file's fsync — which SQLite's
 * automatic checkpoint does inside the COMMIT that crosses its threshold, stalling every table for
 * 10–50 ms a few times a second under load (docs/storage.md).
 *
 * Every `everyMs` the worker runs a PASSIVE checkpoint: it copies what is committed, never waits for
 * a lock and never blocks the writer. Once a checkpoint has caught up, the writer's next transaction
 * starts the WAL file over. The main connection keeps an automatic checkpoint at a high threshold
 * only as a safety net, should this thread fall behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = ' + workerData.synchronous);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String((error && error.message) || error));
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** The safety net's threshold for the main connection (pages of the WAL; SQLite's default is 1,000). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_000;

export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  constructor(file: string, synchronous: 'FULL' | 'NORMAL', everyMs = 200) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver, synchronous, everyMs },
      execArgv: [],
    });
    this.#worker.unref();
    this.#worker.on('message', (message: string) => {
      console.error(`WAL checkpoint failed: ${message}`);
    });
    this.#worker.on('error', (error) => {
      console.error('WAL checkpointer stopped:', error);
    });
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', () => {
        resolve();
      });
    });
  }

  /** Stops checkpointing and closes the worker's connection. */
  async close(): Promise<void> {
    this.#worker.ref(); // until it has closed its connection and exited
    this.#worker.postMessage('close');
    await this.#exited;
  }
}
