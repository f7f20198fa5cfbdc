/**
 * A private CA and a server certificate for a bus on this machine (`felt cluster up --bus-tls`), made
 * with the `openssl` command: the cluster's members trust that CA alone.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  /** The CA's certificate, for the clients (`--bus-ca`). */
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

function openssl(args: readonly string[]): void {
  const run = spawnSync('openssl', args, { encoding: 'utf8' });
  if (run.error !== undefined) {
    throw new Error(`--bus-tls needs the openssl command to make the certificates: ${run.error.message}`);
  }
  if (run.status !== 0) throw new Error(`openssl ${args[0] ?? ''} failed: ${run.stderr}`);
}

/** Makes `ca.pem` and `nats.pem`/`nats.key` (for localhost and 127.0.0.1, valid 30 days) in `dir`. */
export function makeTlsFiles(dir: string): TlsFiles {
  const caKey = join(dir, 'ca.key');
  const caFile = join(dir, 'ca.pem');
  const keyFile = join(dir, 'nats.key');
  const csr = join(dir, 'nats.csr');
  const certFile = join(dir, 'nats.pem');
  const extensions = join(dir, 'nats.ext');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    caKey,
    '-out',
    caFile,
    '-days',
    '30',
    '-subj',
    '/CN=felt cluster CA',
  ]);
  openssl(['req', ...ec, '-keyout', keyFile, '-out', csr, '-subj', '/CN=localhost']);
  writeFileSync(
    extensions,
    'basicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\nsubjectAltName = DNS:localhost, IP:127.0.0.1\n',
  );
  openssl([
    ...['x509', '-req', '-in', csr, '-CA', caFile, '-CAkey', caKey, '-CAcreateserial'],
    ...['-out', certFile, '-days', '30', '-extfile', extensions],
  ]);
  chmodSync(caKey, 0o600);
  chmodSync(keyFile, 0o600);
  return { caFile, certFile, keyFile };
}
