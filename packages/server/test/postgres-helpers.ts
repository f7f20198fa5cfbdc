/**
 * PostgreSQL for the tests: the machine's server (`FELT_TEST_POSTGRES`, default
 * postgres://postgres@127.0.0.1:5432/test, used only to create and drop databases), a database of its
 * own for each test file, and a fresh schema in it for each storage a test opens.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { serviceReachable } from './services.js';

export const ADMIN_URL = process.env['FELT_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answers (see ./services.ts for what happens when it does not). */
export function postgresReachable(): Promise<boolean> {
  return serviceReachable(`PostgreSQL at ${ADMIN_URL}`, async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  });
}

/** The URL of another database on the same server, with a schema of its own if given. */
function urlOf(database: string, schema?: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  if (schema !== undefined) url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database `felt_test_<random>`; returns its name. */
export async function createTestDatabase(): Promise<string> {
  const name = `felt_test_${randomBytes(6).toString('hex')}`;
  await onAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  return name;
}

export async function dropTestDatabase(name: string): Promise<void> {
  await onAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export interface TestDatabase {
  /** The URL of a new empty schema in it (`s1`, `s2`, …): for one test's storage. */
  readonly freshSchema: () => Promise<string>;
  /** A new empty database, dropped with the file's (for what needs a database to itself). */
  readonly freshDatabase: () => Promise<string>;
}

/** Registers the file's database: created before its tests, dropped after them with every other it made. */
export function testDatabase(): TestDatabase {
  const databases: string[] = [];
  let client: pg.Client | undefined;
  let schemas = 0;
  beforeAll(async () => {
    databases.push(await createTestDatabase());
    client = new pg.Client({ connectionString: urlOf(databases[0]!) });
    await client.connect();
  }, 60_000);
  // Dropping a database waits for a checkpoint: seconds on a busy machine.
  afterAll(async () => {
    await client?.end();
    for (const name of databases) await dropTestDatabase(name);
  }, 60_000);
  return {
    async freshSchema() {
      const schema = `s${++schemas}`;
      await client!.query(`CREATE SCHEMA ${schema}`);
      return urlOf(databases[0]!, schema);
    },
    async freshDatabase() {
      const name = await createTestDatabase();
      databases.push(name);
      return urlOf(name);
    },
  };
}
