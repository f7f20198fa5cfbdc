/**
 * The launcher's child processes: each started with its output in a log file, ready when a line of
 * that output says so, and stopped by a signal with its exit awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';

/** A port nobody listens on now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no free port'));
        else resolve(address.port);
      });
    });
  });
}

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or the signal's name) when it has exited. */
  readonly exited: Promise<number | string>;
  /** Whether it has exited. */
  readonly done: () => boolean;
  /** Sends `signal` (SIGTERM by default) unless it has exited, and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Starts `command ARGS` with its stdout and stderr appended to `logFile`; resolves once `ready` matches
 * what it has written (each chunk seen whole), and rejects if it exits first.
 */
export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  logFile: string,
  ready: RegExp,
): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
    let seen = '';
    let started = false;
    let finished = false;
    const exited = new Promise<number | string>((done) => {
      child.on('close', (code, signal) => {
        finished = true;
        log.end();
        done(code ?? signal ?? 'unknown');
      });
    });
    const watch = (chunk: Buffer): void => {
      log.write(chunk);
      if (started) return;
      // The tail of what came before, so that a line split over two chunks is still seen.
      seen = (seen + chunk.toString('utf8')).slice(-8192);
      if (!ready.test(seen)) return;
      started = true;
      resolve({
        process: child,
        pid: child.pid!,
        exited,
        done: () => finished,
        stop: (signal = 'SIGTERM') => {
          if (!finished) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('error', (error) => {
      reject(new Error(`${name}: ${error.message}`));
    });
    void exited.then((code) => {
      if (!started) reject(new Error(`${name} exited (${String(code)}) before it was ready: see ${logFile}`));
    });
  });
}
