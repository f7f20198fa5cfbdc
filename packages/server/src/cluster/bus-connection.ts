/**
 * How a member reaches NATS: the URL's own credentials (`nats://user:password@host`, `nats://token@host`),
 * a credentials file (a user nkey seed, or a decorated `.creds` JWT file) and TLS, made into the nats
 * client's connection options. The client reads neither credentials nor `tls://` from a server URL
 * itself: a URL with a password made only of digits is even read as its port.
 */
import { readFile } from 'node:fs/promises';
import { fromSeed } from 'nkeys.js';
import {
  credsAuthenticator,
  nkeyAuthenticator,
  type Authenticator,
  type ConnectionOptions,
  type TlsOptions,
} from 'nats';

/** What a member is given beyond the bus's URL (`felt serve --bus-creds/--bus-tls/--bus-ca/…`). */
export interface BusConnectOptions {
  /** A user nkey seed file (`SU…`) or a `.creds` file (a user JWT and its seed), told apart by content. */
  readonly credsFile?: string;
  /** TLS to NATS, the server checked against the system's CAs or `caFile` (also on with `tls://`). */
  readonly tls?: boolean;
  /** PEM CA(s) the server's certificate must chain to (a private CA); implies `tls`. */
  readonly caFile?: string;
  /** PEM client certificate and key, for a server that verifies clients (`verify: true`); imply `tls`. */
  readonly certFile?: string;
  readonly keyFile?: string;
}

/** The bus URL's server address alone, as the client needs it and as it may be logged or shown. */
export interface BusUrl {
  readonly server: string;
  readonly user?: string;
  readonly pass?: string;
  readonly token?: string;
  readonly tls: boolean;
}

/** Reads `nats://[user[:password]@]host[:port]` or `tls://…`; a user without a password is a token. */
export function parseBusUrl(url: string): BusUrl {
  const parsed = new URL(url);
  if (parsed.protocol !== 'nats:' && parsed.protocol !== 'tls:') {
    throw new Error(`the bus is a nats:// or tls:// URL, not ${parsed.protocol}//`);
  }
  const server = `nats://${parsed.host}`;
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  const tls = parsed.protocol === 'tls:';
  if (user === '') return { server, tls };
  if (parsed.password === '') return { server, token: user, tls };
  return { server, user, pass, tls };
}

const JWT_BEGIN = /-{3,}BEGIN NATS USER JWT-{3,}/;
/** A user seed: S (seed), U (user), then base32. */
const USER_SEED = /\bSU[A-Z2-7]{56}\b/;

/**
 * Where a user's replies come: `_INBOX.<its public key>.…`, so that the server can let each user
 * subscribe to its own replies only (docs/deploy.md#nats) — not hear the replies the others receive.
 */
export const inboxPrefixOf = (publicKey: string): string => `_INBOX.${publicKey}`;

/**
 * What a credentials file gives: a `.creds` file holds a JWT block and the seed, a seed file only the
 * seed (`SU…`); the authenticator, and the user's inbox prefix.
 */
async function fromFile(file: string): Promise<{ authenticator: Authenticator; inboxPrefix: string }> {
  const text = await readFile(file, 'utf8');
  const creds = JWT_BEGIN.test(text);
  const seed = creds ? USER_SEED.exec(text)?.[0] : text.trim();
  if (seed === undefined || !USER_SEED.test(seed) || (!creds && seed.length !== text.trim().length)) {
    throw new Error(`${file}: neither a NATS user nkey seed (SU…) nor a .creds file`);
  }
  const encoded = new TextEncoder().encode(seed);
  return {
    authenticator: creds ? credsAuthenticator(new TextEncoder().encode(text)) : nkeyAuthenticator(encoded),
    inboxPrefix: inboxPrefixOf(fromSeed(encoded).getPublicKey()),
  };
}

/** The nats client's options for `url` and `auth` (the caller adds its name and reconnection policy). */
export async function natsConnectionOptions(
  url: string,
  auth: BusConnectOptions = {},
): Promise<ConnectionOptions> {
  const bus = parseBusUrl(url);
  const options: ConnectionOptions = { servers: bus.server };
  if (bus.user !== undefined && bus.pass !== undefined) {
    options.user = bus.user;
    options.pass = bus.pass;
  }
  if (bus.token !== undefined) options.token = bus.token;
  if (auth.credsFile !== undefined) {
    if (bus.user !== undefined || bus.token !== undefined) {
      throw new Error('the bus URL has credentials and a credentials file is given too: give one');
    }
    const user = await fromFile(auth.credsFile);
    options.authenticator = user.authenticator;
    options.inboxPrefix = user.inboxPrefix;
  }
  if ((auth.certFile === undefined) !== (auth.keyFile === undefined)) {
    throw new Error('a client certificate for the bus needs its key, and a key its certificate');
  }
  const tls: TlsOptions = {
    ...(auth.caFile !== undefined ? { caFile: auth.caFile } : {}),
    ...(auth.certFile !== undefined ? { certFile: auth.certFile } : {}),
    ...(auth.keyFile !== undefined ? { keyFile: auth.keyFile } : {}),
  };
  if (bus.tls || auth.tls === true || Object.keys(tls).length > 0) options.tls = tls;
  return options;
}
