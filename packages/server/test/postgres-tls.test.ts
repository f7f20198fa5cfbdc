/**
 * The room's database over TLS, as docs/deploy.md tells an operator to ask for it: `felt serve --db
 * 'postgres://…?sslmode=verify-full&sslrootcert=CA'` — against a PostgreSQL of the test's own (initdb)
 * that speaks TLS with a certificate of a private CA.
 */
import { chownSync, copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase, startLocalPostgres, type LocalPostgres } from '../src/cluster-launcher/postgres.js';
import { freePort } from '../src/cluster-launcher/processes.js';
import { makeTlsFiles, type TlsFiles } from '../src/cluster-launcher/tls-files.js';
import { commandInstalled } from './cluster-up-helpers.js';
import { FeltServer, tempDir } from './integration-helpers.js';

const there = (await commandInstalled('initdb')) && (await commandInstalled('openssl', ['version']));

describe.runIf(there)('felt serve on a PostgreSQL reached over TLS', () => {
  const folder = tempDir('felt-postgres-tls-');
  let postgres: LocalPostgres;
  let tls: TlsFiles;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    postgres = await startLocalPostgres(folder.dir, port);
    tls = makeTlsFiles(folder.dir);
    // PostgreSQL reads its certificate and key from its data folder, the key its own and private.
    const data = join(folder.dir, 'postgres');
    const owner = statSync(data);
    for (const [from, to] of [
      [tls.certFile, 'server.crt'],
      [tls.keyFile, 'server.key'],
    ] as const) {
      copyFileSync(from, join(data, to));
      chownSync(join(data, to), owner.uid, owner.gid);
    }
    const admin = new pg.Client({ connectionString: `${postgres.serverUrl}postgres` });
    await admin.connect();
    await admin.query('ALTER SYSTEM SET ssl = on');
    await admin.query('SELECT pg_reload_conf()');
    await admin.end();
    await ensureDatabase(`${postgres.serverUrl}felt`);
  }, 120_000);
  afterAll(async () => {
    await postgres.stop();
    folder.remove();
  }, 60_000);

  it("sslmode=verify-full with sslrootcert: the room's connections are encrypted", async () => {
    const url = `${postgres.serverUrl}felt?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.caFile)}`;
    const server = await FeltServer.start(join(folder.dir, 'data'), 0, ['--db', url]);
    try {
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const rows = await check.query<{ ssl: boolean }>(
        "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'felt'",
      );
      await check.end();
      expect(rows.rows.length).toBeGreaterThan(0);
      expect(rows.rows.every((row) => row.ssl)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("sslmode=require checks the server's certificate too (pg reads it as verify-full): refused without the CA", async () => {
    const client = new pg.Client({
      connectionString: `${postgres.serverUrl}felt?sslmode=require`,
      connectionTimeoutMillis: 10_000,
    });
    await expect(client.connect()).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    const withCa = new pg.Client({
      connectionString: `${postgres.serverUrl}felt?sslmode=require&sslrootcert=${encodeURIComponent(tls.caFile)}`,
    });
    await withCa.connect();
    await withCa.end();
  });
});
