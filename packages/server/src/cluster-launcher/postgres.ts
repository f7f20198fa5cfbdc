/**
 * The room's database for `felt cluster up`: the one named in `--db`, created on its server when
 * missing, or a PostgreSQL of its own started in the cluster's folder (`initdb`, `pg_ctl`; trust on
 * 127.0.0.1 only, so nobody else on the network reaches it).
 */
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** The database's name in a `postgres://…/NAME` URL. */
export function databaseOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (name === '') throw new Error(`${url} names no database`);
  return name;
}

/** Creates the database named in `url` unless it exists, connected to its server's `postgres` (or `test`). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseOf(url);
  let lastError: unknown;
  for (const maintenance of ['postgres', 'test']) {
    const other = new URL(url);
    other.pathname = `/${maintenance}`;
    const client = new pg.Client({ connectionString: other.toString(), connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      continue;
    }
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      return;
    } finally {
      await client.end();
    }
  }
  throw new Error(`cannot reach the server of ${databaseOf(url)} to create it`, { cause: lastError });
}

/** A PostgreSQL server started by the launcher. */
export interface LocalPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/` (add the database's name). */
  readonly serverUrl: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root: as root it runs as the `postgres` system user, which must then
 * own its folder (and reach it through the cluster's).
 */
function runAs(folder: string, parent: string): SpawnOptions {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string): number => {
    const run = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error('PostgreSQL will not run as root, and there is no postgres user');
    return Number(run.stdout.trim());
  };
  const uid = id('-u');
  const gid = id('-g');
  chmodSync(parent, 0o711);
  chownSync(folder, uid, gid);
  return { uid, gid };
}

function run(command: string, args: readonly string[], options: SpawnOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.on('error', (error) => {
      reject(
        new Error(`${command}: ${error.message} (without --db, felt cluster up starts its own PostgreSQL)`),
      );
    });
    child.on('close', (status) => {
      if (status === 0) resolve();
      else reject(new Error(`${command} ${args[0] ?? ''} exited ${String(status)}: ${errors.trim()}`));
    });
  });
}

/** Makes a database cluster in `dir/postgres` and starts it on 127.0.0.1:`port`. */
export async function startLocalPostgres(dir: string, port: number): Promise<LocalPostgres> {
  const data = join(dir, 'postgres');
  mkdirSync(data, { mode: 0o700 });
  const as = runAs(data, dir);
  await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], as);
  const settings = `-p ${String(port)} -k ${data} -c listen_addresses=127.0.0.1`;
  await run('pg_ctl', ['-D', data, '-o', settings, '-l', join(data, 'server.log'), '-w', 'start'], as);
  return {
    serverUrl: `postgres://postgres@127.0.0.1:${String(port)}/`,
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'], as),
  };
}
