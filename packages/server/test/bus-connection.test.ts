/**
 * A member reaches a NATS server that wants credentials or TLS (`felt serve --bus … --bus-creds/--bus-tls/
 * --bus-ca`): each case against a real nats-server of its own, configured as docs/deploy.md says.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, NatsError } from 'nats';
import { createUser } from 'nkeys.js';
import { Bus, type BusSecurity } from '../src/cluster/bus.js';
import { MemberKeys, type PublicMemberKeys } from '../src/cluster/bus-crypto.js';
import { LiveMembers } from '../src/cluster/peers.js';
import type { BusConnectOptions } from '../src/cluster/bus-connection.js';
import { freePort, startChild, type Child } from '../src/cluster-launcher/processes.js';
import { natsServerConfig, newNkeyUser } from '../src/cluster-launcher/nats-config.js';
import { makeTlsFiles } from '../src/cluster-launcher/tls-files.js';
import { commandInstalled } from './cluster-up-helpers.js';
import { tempDir } from './integration-helpers.js';

const natsThere = await commandInstalled('nats-server');
const opensslThere = natsThere && (await commandInstalled('openssl', ['version']));

const folder = tempDir('felt-bus-connection-');
const servers: Child[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  folder.remove();
});

/** A nats-server with `config` (its `listen` line added); its port. */
async function natsServer(name: string, config: string): Promise<number> {
  const port = await freePort();
  const file = join(folder.dir, `${name}.conf`);
  writeFileSync(file, `listen: "127.0.0.1:${String(port)}"\n${config}`);
  servers.push(
    await startChild(name, 'nats-server', ['-c', file], join(folder.dir, `${name}.log`), /Server is ready/),
  );
  return port;
}

/** The members' public keys, as their rows in PostgreSQL hold them. */
const registered = new Map<number, PublicMemberKeys>();

/** What makes a process the member `member` on the bus: keys of its own, registered. */
function memberSecurity(member: number): BusSecurity {
  const keys = new MemberKeys();
  registered.set(member, keys.public);
  return {
    keys,
    members: new LiveMembers({ liveMemberKeys: (id) => Promise.resolve(registered.get(id) ?? null) }, 0),
  };
}

/** Whether a member connects to `url` with `auth` ('connected'), or the NATS error's code. */
async function memberConnects(url: string, auth: BusConnectOptions = {}): Promise<string> {
  let bus: Bus;
  try {
    bus = await Bus.connect(url, 'felt test', 'room', memberSecurity(1), auth);
  } catch (error) {
    return error instanceof NatsError ? error.code : error instanceof Error ? error.message : String(error);
  }
  await bus.flush();
  await bus.close();
  return 'connected';
}

const seedOf = (pair: ReturnType<typeof createUser>): string => new TextDecoder().decode(pair.getSeed());

describe.runIf(natsThere)('bus credentials', () => {
  it("a bus URL's user and password are the credentials (nats://user:password@host)", async () => {
    const port = await natsServer('password', 'authorization { user: "felt", password: "s3cret" }\n');
    expect(await memberConnects(`nats://felt:s3cret@127.0.0.1:${String(port)}`)).toBe('connected');
    expect(await memberConnects(`nats://felt:wrong@127.0.0.1:${String(port)}`)).toBe(
      ErrorCode.AuthorizationViolation,
    );
  });

  it('a password made only of digits is a password, not the port', async () => {
    const port = await natsServer('digits', 'authorization { user: "felt", password: "4711" }\n');
    expect(await memberConnects(`nats://felt:4711@127.0.0.1:${String(port)}`)).toBe('connected');
  });

  it("a bus URL's lone user name is a token (nats://token@host)", async () => {
    const port = await natsServer('token', 'authorization { token: "t0ken" }\n');
    expect(await memberConnects(`nats://t0ken@127.0.0.1:${String(port)}`)).toBe('connected');
    expect(await memberConnects(`nats://127.0.0.1:${String(port)}`)).toBe(ErrorCode.AuthorizationViolation);
  });

  it("--bus-creds with a user nkey seed file signs the server's challenge with it", async () => {
    const user = createUser();
    const stranger = createUser();
    const port = await natsServer(
      'nkey',
      `authorization { users: [ { nkey: "${user.getPublicKey()}" } ] }\n`,
    );
    const seedFile = join(folder.dir, 'member.nk');
    const strangerFile = join(folder.dir, 'stranger.nk');
    writeFileSync(seedFile, `${seedOf(user)}\n`);
    writeFileSync(strangerFile, `${seedOf(stranger)}\n`);
    const url = `nats://127.0.0.1:${String(port)}`;
    expect(await memberConnects(url, { credsFile: seedFile })).toBe('connected');
    expect(await memberConnects(url, { credsFile: strangerFile })).toBe(ErrorCode.AuthorizationViolation);
  });

  it('a decorated .creds file is told from a seed file: its JWT sent, its seed signing', async () => {
    const user = createUser();
    const port = await natsServer(
      'creds',
      `authorization { users: [ { nkey: "${user.getPublicKey()}" } ] }\n`,
    );
    // A server without an operator reads the nkey and its signature, not the JWT: what is checked here
    // is that the file is read as a .creds file (the seed found after the JWT block).
    const credsFile = join(folder.dir, 'member.creds');
    writeFileSync(
      credsFile,
      [
        '-----BEGIN NATS USER JWT-----',
        'eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.e30.c2ln',
        '------END NATS USER JWT------',
        '',
        '************************* IMPORTANT *************************',
        'NKEY Seed printed below can be used to sign and prove identity.',
        '',
        '-----BEGIN USER NKEY SEED-----',
        seedOf(user),
        '------END USER NKEY SEED------',
        '',
      ].join('\n'),
    );
    expect(await memberConnects(`nats://127.0.0.1:${String(port)}`, { credsFile })).toBe('connected');
  });

  it("with a user's key, the answers to its requests come to its own inbox, the only one it may hear", async () => {
    const [asker, answerer] = [newNkeyUser(), newNkeyUser()];
    const port = await freePort();
    const file = join(folder.dir, 'inboxes.conf');
    writeFileSync(
      file,
      natsServerConfig({
        host: '127.0.0.1',
        port,
        database: 'room',
        users: [
          { name: 'asker', ...asker },
          { name: 'answerer', ...answerer },
        ],
      }),
    );
    servers.push(await startChild('inboxes', 'nats-server', ['-c', file], `${file}.log`, /Server is ready/));
    const credsOf = (name: string, seed: string) => {
      writeFileSync(join(folder.dir, `${name}.nk`), seed);
      return { credsFile: join(folder.dir, `${name}.nk`) };
    };
    const url = `nats://127.0.0.1:${String(port)}`;
    const a = await Bus.connect(url, 'asker', 'room', memberSecurity(1), credsOf('asker', asker.seed));
    const b = await Bus.connect(
      url,
      'answerer',
      'room',
      memberSecurity(2),
      credsOf('answerer', answerer.seed),
    );
    a.identify(1);
    b.identify(2);
    try {
      b.serveMember(2, (body) => Promise.resolve({ echo: body }));
      await b.flush();
      expect(await a.request(2, { requestId: 'r1', body: 'hello' }, 5000)).toEqual({ echo: 'hello' });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a credentials file that holds no user key is refused before connecting', async () => {
    const file = join(folder.dir, 'not-a-key');
    writeFileSync(file, 'hello\n');
    expect(await memberConnects('nats://127.0.0.1:1', { credsFile: file })).toMatch(/neither a NATS user/);
  });
});

describe.runIf(opensslThere)('bus TLS', () => {
  it("--bus-tls with --bus-ca checks the server's certificate against that CA", async () => {
    const tlsDir = join(folder.dir, 'tls');
    mkdirSync(tlsDir);
    const files = makeTlsFiles(tlsDir);
    const port = await natsServer(
      'tls',
      `tls { cert_file: "${files.certFile}", key_file: "${files.keyFile}" }\n`,
    );
    const url = `nats://127.0.0.1:${String(port)}`;
    expect(await memberConnects(url, { tls: true, caFile: files.caFile })).toBe('connected');
    expect(await memberConnects(`tls://127.0.0.1:${String(port)}`, { caFile: files.caFile })).toBe(
      'connected',
    );
    // The system's CAs do not know the cluster's own: the member refuses to speak to that server.
    expect(await memberConnects(url, { tls: true })).not.toBe('connected');
  });
});
