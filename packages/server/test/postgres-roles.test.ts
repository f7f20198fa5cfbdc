/**
 * The least-privilege roles of docs/deploy.md#postgresql: an owner role that creates and migrates the
 * room's tables (`felt admin migrate --db`), and the room's role that may only
 * read and write them — with which a cluster's members start, play, and cannot change the schema.
 * On a PostgreSQL of the test's own (initdb): roles are the server's, not one database's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPostgres, type LocalPostgres } from '../src/cluster-launcher/postgres.js';
import { freePort } from '../src/cluster-launcher/processes.js';
import { clusterUp, commandInstalled } from './cluster-up-helpers.js';
import { felt, Player, tempDir } from './integration-helpers.js';

const there = (await commandInstalled('initdb')) && (await commandInstalled('nats-server'));

/** Runs `statements` in order as `user` on database `database`. */
async function as(server: string, user: string, database: string, statements: readonly string[]) {
  const url = new URL(`${server}${database}`);
  url.username = user;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.runIf(there)("the room's PostgreSQL role with DML rights only", () => {
  const folder = tempDir('felt-postgres-roles-');
  let postgres: LocalPostgres;
  let server: string;

  beforeAll(async () => {
    postgres = await startLocalPostgres(folder.dir, await freePort());
    server = postgres.serverUrl;
    // As docs/deploy.md#postgresql shows them.
    await as(server, 'postgres', 'postgres', [
      'CREATE ROLE felt_owner LOGIN',
      'CREATE ROLE felt_room LOGIN',
      'CREATE DATABASE felt OWNER felt_owner',
    ]);
    await as(server, 'felt_owner', 'felt', [
      'GRANT USAGE ON SCHEMA public TO felt_room',
      'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO felt_room',
      'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO felt_room',
    ]);
  }, 120_000);
  afterAll(async () => {
    await postgres.stop();
    folder.remove();
  }, 60_000);

  it('the owner migrates; members on the DML-only role start and play; that role cannot change the schema', async () => {
    const owner = await felt([
      'admin',
      'migrate',
      '--db',
      `${server.replace('postgres@', 'felt_owner@')}felt`,
    ]);
    expect(owner.status).toBe(0);
    const cluster = await clusterUp({
      processes: 2,
      db: `${server.replace('postgres@', 'felt_room@')}felt`,
    });
    try {
      const player = await Player.signUp(`ws://127.0.0.1:${String(cluster.members[1]!.port)}`, 'carol');
      player.close();
    } finally {
      expect(await cluster.stop()).toBe(0);
    }
    await expect(as(server, 'felt_room', 'felt', ['DROP TABLE ledger_postings'])).rejects.toThrow(
      /must be owner/,
    );
    await expect(as(server, 'felt_room', 'felt', ['CREATE TABLE intruder (x INTEGER)'])).rejects.toThrow(
      /permission denied for schema public/,
    );
  }, 120_000);
});
