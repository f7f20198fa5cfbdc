import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `felt` command, as `npx felt` runs it. */
export const FELT = fileURLToPath(new URL('../bin/felt.js', import.meta.url));

export interface FeltRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Standard output's lines parsed as JSON. */
  json: unknown[];
}

export function runFelt(args: readonly string[], input = ''): FeltRun {
  const run = spawnSync(process.execPath, [FELT, ...args], { input, encoding: 'utf8' });
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    json: lines.map((line) => JSON.parse(line) as unknown),
  };
}
