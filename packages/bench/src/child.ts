import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Runs a script of this package in a fresh Node process, passing `input` as JSON in argv[2], and
 * returns the JSON it prints. A fresh process keeps one library's code, heap and JIT state from
 * colouring another's figures.
 */
export async function runChild<T>(
  script: URL,
  input: unknown,
  nodeOptions: readonly string[] = [],
): Promise<T> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [...nodeOptions, fileURLToPath(script), JSON.stringify(input)],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as T;
}

/** In a child script: its input, as passed to {@link runChild}. */
export function childInput(): unknown {
  const arg = process.argv[2];
  if (arg === undefined) throw new Error('a bench child script needs its input as JSON in argv[2]');
  return JSON.parse(arg);
}

/** In a child script: hands the result back to {@link runChild}. */
export function childOutput(result: unknown): void {
  process.stdout.write(JSON.stringify(result));
}
