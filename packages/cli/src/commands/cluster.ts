import { fileURLToPath } from 'node:url';
import type { Command } from './command.js';

const USAGE =
  'usage: felt cluster up --processes N [--db postgres://…] [--dir DIR] [--bus-tls] [SERVE-ARGS…]\n' +
  '  a room of N `felt serve` processes on this machine, its bus closed to all but them:\n' +
  '  a nats-server of its own on a free port, one nkey user per member (DIR/m1.nk, …; DIR/spare.nk is\n' +
  "  one more user with a member's rights, for tools and tests that must speak as a member-credentialed\n" +
  "  client), allowed only the room's subjects; --bus-tls: TLS to it with a CA of its own (DIR/ca.pem,\n" +
  '  needs openssl);\n' +
  '  --db: the room on that database (created when missing); default: a PostgreSQL of its own in DIR\n' +
  '  (initdb, pg_ctl) on 127.0.0.1;\n' +
  "  DIR (default: a new temporary folder) holds the keys, nats.conf and every process's log;\n" +
  '  SERVE-ARGS (e.g. --tables FILE, --log-level debug) go to every member.\n' +
  '  Prints one JSON line {bus, db, members: [{node, port, pid}], dir} once every member listens.\n' +
  '  SIGTERM or SIGINT: stops the members, then NATS, then its own PostgreSQL, and exits 0. A member that\n' +
  '  dies is reported on standard error and the others go on, as a room of several processes does.\n';

interface UpArgs {
  readonly processes: number;
  readonly db: string | null;
  readonly dir: string | null;
  readonly busTls: boolean;
  readonly serveArgs: readonly string[];
}

/** What the launcher gives each member itself: not to be passed through. */
const OWN = /^--(bus|bus-creds|bus-ca|bus-cert|bus-key|node|port|data)(=|$)/;

export function parseUpArgs(args: readonly string[]): UpArgs | string {
  let processes: number | null = null;
  let db: string | null = null;
  let dir: string | null = null;
  let busTls = false;
  const serveArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--bus-tls') {
      busTls = true;
      continue;
    }
    const match = /^--(processes|db|dir)(?:=(.*))?$/.exec(arg);
    if (match) {
      const value = match[2] ?? args[++i];
      if (value === undefined || value === '') return `${arg} needs a value`;
      if (match[1] === 'processes') {
        if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64)
          return '--processes is an integer 1–64';
        processes = Number(value);
      } else if (match[1] === 'db') {
        if (!/^postgres(ql)?:\/\//.test(value)) return '--db is a postgres:// URL';
        db = value;
      } else dir = value;
      continue;
    }
    if (OWN.test(arg)) return `${arg.split('=')[0]!} is set by felt cluster up for each member`;
    serveArgs.push(arg);
  }
  if (processes === null) return '--processes N is needed';
  return { processes, db, dir, busTls, serveArgs };
}

export const cluster: Command = {
  async run(args) {
    const [verb, ...rest] = args;
    if (verb === undefined) {
      process.stderr.write(USAGE);
      return 2;
    }
    if (verb === '--help' || verb === '-h' || rest.includes('--help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (verb !== 'up') {
      process.stderr.write(`felt cluster: unknown ${verb}\n${USAGE}`);
      return 2;
    }
    const parsed = parseUpArgs(rest);
    if (typeof parsed === 'string') {
      process.stderr.write(`felt cluster up: ${parsed}\n${USAGE}`);
      return 2;
    }
    const { clusterUp } = await import('@felt/server/cluster-launcher');
    const felt = fileURLToPath(new URL('../../bin/felt.js', import.meta.url));
    // One handler from the start to the exit: a signal while the cluster starts stops it once started,
    // and no moment is left in which a signal would kill this process before its children.
    const start = { signalled: false };
    let onSignal = (): void => {
      start.signalled = true;
    };
    const signal = (): void => {
      onSignal();
    };
    process.on('SIGTERM', signal).on('SIGINT', signal);
    let running: Awaited<ReturnType<typeof clusterUp>>;
    try {
      running = await clusterUp({
        processes: parsed.processes,
        felt: [process.execPath, felt],
        busTls: parsed.busTls,
        serveArgs: parsed.serveArgs,
        ...(parsed.db !== null ? { db: parsed.db } : {}),
        ...(parsed.dir !== null ? { dir: parsed.dir } : {}),
      });
    } catch (error) {
      process.stderr.write(`felt cluster up: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> => (stopping ??= running.stop());
    if (start.signalled) {
      await stop();
      return 0;
    }
    return new Promise<number>((done) => {
      onSignal = () => {
        void stop().then(() => {
          done(0);
        });
      };
      // The room rides out a member's death (the others take its tables): it is told, not ended.
      running.onMemberExit((node, exit) => {
        if (stopping !== null) return;
        process.stderr.write(
          `felt cluster up: member ${node} exited (${String(exit)}); the others go on (its log: ${running.info.dir}/${node}.log)\n`,
        );
      });
      process.stdout.write(`${JSON.stringify(running.info)}\n`);
    });
  },
};
