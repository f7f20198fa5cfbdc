/**
 * The nats-server configuration of a room's bus, as docs/deploy.md tells an operator to write it: one
 * nkey user per member (and spares for tools), each allowed only the room's subjects, replies to what
 * it is asked and its own inbox; no anonymous access; TLS when given.
 */
import { createUser } from 'nkeys.js';
import { inboxPrefixOf } from '../cluster/bus-connection.js';

/** The subject prefix of the room on database `database` (as `Bus.connect` makes it). */
export const roomSubjects = (database: string): string =>
  `felt.${database.replaceAll(/[^A-Za-z0-9_-]/g, '_')}.>`;

/** A NATS user: its public nkey (`U…`, in the configuration) and its seed (`SU…`, in its own file). */
export interface NkeyUser {
  readonly publicKey: string;
  readonly seed: string;
}

export function newNkeyUser(): NkeyUser {
  const pair = createUser();
  return { publicKey: pair.getPublicKey(), seed: new TextDecoder().decode(pair.getSeed()) };
}

export interface NatsConfigOptions {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** Every user allowed on the bus, by a name for the comment beside it. */
  readonly users: readonly { readonly name: string; readonly publicKey: string }[];
  /** The server's certificate and key (PEM files): clients must then speak TLS. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  /** Where nats-server writes its pid. */
  readonly pidFile?: string;
}

const quoted = (text: string): string => JSON.stringify(text);

/**
 * A member's rights: publish on the room's subjects, and reply to the requests it receives
 * (`allow_responses`: only to those, once each); subscribe to the room's subjects and to its own
 * inbox, where the answers to its requests come (./bus-connection.ts sets the prefix).
 */
function memberPermissions(subjects: string, publicKey: string): string {
  const inbox = `${inboxPrefixOf(publicKey)}.>`;
  return (
    `{ publish: { allow: [${quoted(subjects)}] }, ` +
    `subscribe: { allow: [${quoted(subjects)}, ${quoted(inbox)}] }, allow_responses: true }`
  );
}

export function natsServerConfig(options: NatsConfigOptions): string {
  const subjects = roomSubjects(options.database);
  const lines = [
    `listen: ${quoted(`${options.host}:${String(options.port)}`)}`,
    ...(options.pidFile !== undefined ? [`pid_file: ${quoted(options.pidFile)}`] : []),
    '',
    ...(options.tls !== undefined
      ? [
          'tls {',
          `  cert_file: ${quoted(options.tls.certFile)}`,
          `  key_file: ${quoted(options.tls.keyFile)}`,
          '}',
          '',
        ]
      : []),
    '# Only these users, each a member (or the spare); a client without one of their keys is refused.',
    "# Each may use the room's subjects, reply to what it is asked, and hear only its own replies.",
    'authorization {',
    '  users: [',
    ...options.users.map(
      (user) =>
        `    { nkey: ${quoted(user.publicKey)}, permissions: ${memberPermissions(subjects, user.publicKey)} } # ${user.name}`,
    ),
    '  ]',
    '}',
    '',
  ];
  return lines.join('\n');
}
