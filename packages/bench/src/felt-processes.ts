/**
 * The `felt` command of this checkout as child processes of a load run: `felt serve` on a free port,
 * and `felt bots` / `felt admin` run to their end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `felt` command of this checkout (packages/cli/bin/felt.js). */
const FELT = fileURLToPath(new URL('../../cli/bin/felt.js', import.meta.url));

/**
 * The bots run at a lower CPU priority (`nice`): on a machine where they share the cores with the
 * server they measure, they take what it leaves rather than half of each core it waits for, as clients
 * on machines of their own would. Their own delays still count in the latency they measure.
 */
export const BOTS_NICE = 10;

/** Runs `felt ARGS` to the end; its standard output and exit status. */
export function felt(
  args: readonly string[],
  onStart?: (child: ChildProcess) => void,
  nice = 0,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const node = [process.execPath, FELT, ...args];
    const [file, ...rest] = nice === 0 ? node : ['nice', '-n', String(nice), ...node];
    const child = spawn(file!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    });
    onStart?.(child);
  });
}

/** A `felt serve` that listens. */
export interface Served {
  readonly child: ChildProcess;
  readonly port: number;
  /** Its operators' port (`/metrics`, the full `/health`) on loopback. */
  readonly metricsPort: number;
  readonly exited: Promise<number | null>;
}

/**
 * Starts `felt serve ARGS` on a free port; resolves with the process and its port once it listens,
 * and fails as soon as it exits before (a service it needs is missing) or after 30 s. Afterwards the
 * lines of its log at level error go to standard error (what went wrong in a run, where it is read).
 */
export function serve(args: readonly string[]): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FELT, 'serve', '--port', '0', '--metrics-port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    let text = '';
    let listening = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`felt serve did not start: ${text}`));
    }, 30_000);
    void exited.then((status) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`felt serve exited (${status}) before it listened: ${text}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (listening) {
        const end = text.lastIndexOf('\n');
        for (const line of text.slice(0, end + 1).split('\n'))
          if (line.includes('"level":"error"')) process.stderr.write(`felt serve: ${line}\n`);
        text = text.slice(end + 1);
        return;
      }
      // Its log is one JSON object a line; the one that says it listens names the port.
      const line = text
        .split('\n')
        .slice(0, -1)
        .find((entry) => entry.includes('"msg":"listening"'));
      if (line !== undefined) {
        listening = true;
        text = '';
        clearTimeout(timer);
        const { port, metricsPort } = JSON.parse(line) as { port: number; metricsPort: number };
        resolve({ child, port, metricsPort, exited });
      }
    });
    child.on('error', reject);
  });
}
