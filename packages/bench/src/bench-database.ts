/**
 * A PostgreSQL database of the bench's own for one run (`FELT_ROOM_DB`): created empty on the server the
 * URL names, given to `felt serve --db` and `felt admin audit --db`, and dropped afterwards, so that a run
 * never reads what an earlier one left.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with the URL of a new empty database on the server of `serverUrl`; drops it after. */
export async function withBenchDatabase<T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `felt_bench_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
