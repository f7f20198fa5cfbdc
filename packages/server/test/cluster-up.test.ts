/**
 * `felt cluster up`: a room of three real processes whose bus is closed to everyone but its members —
 * its own nats-server with one nkey user per member — started, played at, probed from outside, and
 * stopped by SIGTERM. On a fresh database of the machine's PostgreSQL, and once on its own PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, ErrorCode, Events, NatsError, nkeyAuthenticator, type NatsConnection } from 'nats';
import { Player, tempDir, writeTables } from './integration-helpers.js';
import {
  alive,
  clusterUp,
  roomOf,
  commandInstalled,
  natsPid,
  spareConnection,
  spareSeed,
  type ClusterUp,
} from './cluster-up-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';

const TABLE = 'up-1';
const natsThere = await commandInstalled('nats-server');
const reachable = natsThere && (await postgresReachable());
const initdbThere = natsThere && (await commandInstalled('initdb'));
const opensslThere = await commandInstalled('openssl', ['version']);

/** The member id each member joined the cluster as, from its log in the cluster's folder. */
function joinedAs(cluster: ClusterUp): number[] {
  return cluster.members.map(({ node }) => {
    const lines = readFileSync(join(cluster.dir, `${node}.log`), 'utf8').split('\n');
    const joined = lines.find((line) => line.includes('"cluster member joined"'));
    if (joined === undefined) throw new Error(`${node} never joined`);
    return (JSON.parse(joined) as { member: number }).member;
  });
}

/** A NATS error's code from a failed connect. */
async function connectError(connecting: Promise<NatsConnection>): Promise<string> {
  try {
    const nc = await connecting;
    await nc.close();
    return 'connected';
  } catch (error) {
    return error instanceof NatsError ? error.code : String(error);
  }
}

/** The first error the server reports on `nc` about `subject`. */
async function permissionRefused(nc: NatsConnection, subject: string): Promise<string> {
  for await (const status of nc.status()) {
    const context = (status as { permissionContext?: { operation: string; subject: string } })
      .permissionContext;
    if (status.type === Events.Error && context?.subject === subject)
      return `${context.operation} ${typeof status.data === 'string' ? status.data : ''}`;
  }
  throw new Error('the connection closed first');
}

describe.runIf(reachable)('felt cluster up on a database of the machine', () => {
  const db = testDatabase();
  const folder = tempDir('felt-cluster-up-');
  let cluster: ClusterUp;

  beforeAll(async () => {
    const tables = writeTables(folder.dir, [nlHoldem(TABLE)]);
    cluster = await clusterUp({
      processes: 3,
      db: await db.freshDatabase(),
      extraArgs: ['--tables', tables],
    });
  }, 120_000);
  afterAll(async () => {
    await cluster.stop();
    folder.remove();
  }, 60_000);

  it('prints the bus, the database, its folder and three members that each listen and joined', async () => {
    expect(cluster.bus).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(cluster.members.map((member) => member.node)).toEqual(['m1', 'm2', 'm3']);
    for (const { port } of cluster.members) {
      expect((await fetch(`http://127.0.0.1:${String(port)}/health`)).status).toBe(200);
    }
    expect(new Set(joinedAs(cluster)).size).toBe(3);
  });

  it('a player on one member and a player on another are dealt a hand together over the closed bus', async () => {
    const [a, b] = cluster.members;
    const alice = await Player.signUp(`ws://127.0.0.1:${String(a!.port)}`, 'alice');
    const bob = await Player.signUp(`ws://127.0.0.1:${String(b!.port)}`, 'bob');
    try {
      await alice.sit(TABLE, 0, 10_000, 'post');
      await bob.sit(TABLE, 1, 10_000, 'post');
      await alice.event((event) => event.type === 'deal-hole' && event.seat === 0, 60_000);
      await bob.event((event) => event.type === 'deal-hole' && event.seat === 1, 60_000);
    } finally {
      alice.close();
      bob.close();
    }
  });

  it('a NATS client without credentials is refused by the bus (authorization violation)', async () => {
    expect(await connectError(connect({ servers: cluster.bus, reconnect: false }))).toBe(
      ErrorCode.AuthorizationViolation,
    );
  });

  it("a client with a member's bus rights hears the room but is refused any subject outside it", async () => {
    const room = roomOf(cluster.db);
    const nc = await connect(await spareConnection(cluster));
    try {
      // The members publish their tables every second: the room's subjects are open to it.
      const heard = new Promise<string>((resolve) => {
        const sub = nc.subscribe(`${room}.>`, {
          callback: (error, msg) => {
            if (error === null) resolve(msg.subject);
            sub.unsubscribe();
          },
        });
      });
      expect(await heard).toMatch(new RegExp(`^${room.replaceAll('.', '\\.')}\\.`));

      const refusedSubscription = (subject: string) =>
        new Promise<string>((resolve) => {
          nc.subscribe(subject, {
            callback: (error) => {
              resolve(error?.code ?? 'message');
            },
          });
        });
      expect(await refusedSubscription('felt.another_room.>')).toBe(ErrorCode.PermissionsViolation);
      // Nor the replies the members receive: each hears its own inbox only.
      expect(await refusedSubscription('_INBOX.>')).toBe(ErrorCode.PermissionsViolation);
      for (const subject of ['felt.another_room.member.1.requests', `_INBOX.${'U'.repeat(56)}.reply`]) {
        const refused = permissionRefused(nc, subject);
        nc.publish(subject);
        expect(await refused).toBe(`publish ${ErrorCode.PermissionsViolation}`);
      }
    } finally {
      await nc.close();
    }
  });
});

describe.runIf(reachable)('stopping felt cluster up', () => {
  const db = testDatabase();

  it('SIGTERM stops every member and the nats-server and exits 0', async () => {
    const cluster = await clusterUp({ processes: 3, db: await db.freshDatabase() });
    const pids = [...cluster.members.map((member) => member.pid), natsPid(cluster)];
    expect(pids.every(alive)).toBe(true);
    expect(await cluster.stop()).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  }, 120_000);
});

describe.runIf(reachable && opensslThere)('felt cluster up --bus-tls', () => {
  const db = testDatabase();

  it("the members reach the bus over TLS, trusting the cluster's own CA", async () => {
    const cluster = await clusterUp({ processes: 2, db: await db.freshDatabase(), extraArgs: ['--bus-tls'] });
    try {
      expect(cluster.bus).toMatch(/^tls:\/\/127\.0\.0\.1:\d+$/);
      for (const { port } of cluster.members) {
        expect((await fetch(`http://127.0.0.1:${String(port)}/health`)).status).toBe(200);
      }
      expect(new Set(joinedAs(cluster)).size).toBe(2);
      // With the right key but without the CA, a client does not trust the server.
      const refused = await connectError(
        connect({
          servers: cluster.bus,
          reconnect: false,
          authenticator: nkeyAuthenticator(new TextEncoder().encode(spareSeed(cluster))),
        }),
      );
      expect(refused).not.toBe('connected');
    } finally {
      expect(await cluster.stop()).toBe(0);
    }
  }, 120_000);
});

describe.runIf(reachable)('a member of felt cluster up dying', () => {
  const db = testDatabase();

  it('is reported and the others go on, as a room of several processes rides out a member lost; SIGTERM still stops them', async () => {
    const cluster = await clusterUp({ processes: 2, db: await db.freshDatabase() });
    const others = [cluster.members[1]!.pid, natsPid(cluster)];
    process.kill(cluster.members[0]!.pid, 'SIGKILL');
    await expect.poll(() => cluster.stderr(), { timeout: 60_000 }).toMatch(/member m1 exited \(SIGKILL\)/);
    expect(others.filter(alive)).toEqual(others);
    const survivor = await fetch(`http://127.0.0.1:${String(cluster.members[1]!.port)}/health`);
    expect(survivor.status).toBe(200);
    expect(await cluster.stop()).toBe(0);
    expect(others.filter(alive)).toEqual([]);
  }, 120_000);
});

describe.runIf(reachable)('a member of felt cluster up that cannot start', () => {
  const db = testDatabase();

  it('fails the start with exit 1, naming it, and leaves nothing running', async () => {
    const failed = await clusterUp({
      processes: 2,
      db: await db.freshDatabase(),
      extraArgs: ['--log-level', 'bogus'],
    }).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failed).toMatch(/^felt cluster up exited \(1\): .*member m[12] exited \(2\) before it was ready/);
    // Its nats-server is gone: no process runs with the cluster's configuration.
    const dir = /see (\S+)\/m[12]\.log/.exec(failed!)![1]!;
    expect(spawnSync('pgrep', ['-f', dir]).status).toBe(1);
  }, 120_000);
});

describe.runIf(initdbThere)('felt cluster up with its own PostgreSQL', () => {
  it('starts PostgreSQL on a free port, runs the room on it, and stops it with the rest', async () => {
    const cluster = await clusterUp({ processes: 2 });
    try {
      expect(cluster.db).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/felt$/);
      const health = (await (
        await fetch(`http://127.0.0.1:${String(cluster.members[1]!.port)}/health`)
      ).json()) as {
        status: string;
      };
      expect(health.status).toBe('ok');
    } finally {
      expect(await cluster.stop()).toBe(0);
    }
    const ready = spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', new URL(cluster.db).port]);
    expect(ready.status).not.toBe(0);
  }, 120_000);
});
