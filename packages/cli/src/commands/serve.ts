import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { setFlagsFromString } from 'node:v8';
// The room's log alone, not the room: the V8 flag below is set before the room is loaded.
import { createLogger, isLogLevel, LOG_LEVELS, type LogLevel } from '@felt/server/log';
import type { BusConnectOptions } from '@felt/server';
import type { Command } from './command.js';

const USAGE =
  'usage: felt serve [--port P] [--data DIR] [--db postgres://…] [--bus nats://…] [--node NAME] [--tables FILE]\n' +
  '                  [--bus-creds FILE] [--bus-tls] [--bus-ca FILE] [--bus-cert FILE --bus-key FILE]\n' +
  '                  [--switch-mode]\n' +
  '                  [--allow-origin ORIGIN]… [--trust ADDRESS]… [--max-per-address N] [--ipv6-prefix BITS]\n' +
  '                  [--proxy ADDRESS|CIDR]… [--proxy-protocol]\n' +
  '                  [--metrics-port [ADDRESS:]PORT] [--metrics-token-file FILE]\n' +
  '                  [--log-level fatal|error|warn|info|debug|trace|silent]\n' +
  '  runs the poker room: HTTP + WebSocket on port P (default 8080), data in DIR (default ./data);\n' +
  '  --db: the room on that PostgreSQL database instead of the SQLite file DIR/felt.db;\n' +
  "  --bus (with --db): one of several processes sharing the room's tables over that NATS server;\n" +
  '  --node: its name in the cluster (default: the host name; docs/deploy.md);\n' +
  "  --bus-creds: the bus user's nkey seed file (SU…) or .creds file (nats://user:password@… and\n" +
  '  nats://token@… are read from the URL); --bus-tls: TLS to NATS (also tls://…), --bus-ca: the CA\n' +
  "  that signed the NATS server's certificate, --bus-cert/--bus-key: a client certificate (each implies\n" +
  '  --bus-tls; docs/deploy.md#nats);\n' +
  '  --switch-mode (with --db): run a database last used by the other kind of room (one process, or a\n' +
  '  cluster) once none of it runs; without it such a start is refused (docs/deploy.md);\n' +
  '  the table set from FILE (default DIR/tables.json when present, else the built-in set);\n' +
  "  --allow-origin: another site's pages may use the room (e.g. https://poker.example; default: only\n" +
  "  the room's own pages and clients that are not browsers);\n" +
  '  --trust: an address spared the per-address limits like loopback (e.g. a reverse proxy);\n' +
  '  --max-per-address: open connections per address at most (default 64; docs/security.md);\n' +
  '  --ipv6-prefix: the per-address limits count an IPv6 client by this many leading bits (default 64);\n' +
  '  --proxy: a load balancer whose X-Forwarded-For names the client (addresses or ranges; nobody\n' +
  "  else's is believed); --proxy-protocol: those proxies send a PROXY protocol header instead\n" +
  '  (docs/deploy.md);\n' +
  "  --metrics-port: /metrics and /health's figures on a port of their own, on 127.0.0.1 unless an\n" +
  '  address is given (0.0.0.0:9464); --metrics-token-file (or $FELT_METRICS_TOKEN): a bearer token that\n' +
  "  opens them on the players' port too (docs/operators.md); the players' /health says only ok or not;\n" +
  '  --log-level: the least severe log lines written (default $FELT_LOG_LEVEL, else info); the log is\n' +
  '  one JSON object a line on stdout (docs/operators.md; `| npx pino-pretty` to read it at a terminal).\n' +
  '  SIGTERM or SIGINT: stops, every chip back to its owner, and exits.\n';

interface ServeArgs {
  readonly port: number;
  readonly data: string;
  readonly tables: string | null;
  readonly db: string | null;
  readonly bus: string | null;
  readonly node: string | null;
  readonly busAuth: BusConnectOptions;
  readonly allowedOrigins: readonly string[];
  readonly trusted: readonly string[];
  readonly maxPerAddress: number | null;
  readonly ipv6Prefix: number | null;
  readonly metricsPort: { readonly port: number; readonly host: string | null } | null;
  readonly metricsTokenFile: string | null;
  readonly metricsToken: string | null;
  readonly proxies: readonly string[];
  readonly proxyProtocol: boolean;
  readonly switchMode: boolean;
  readonly logLevel: LogLevel;
}

/** `10.0.0.5`, `10.0.0.0/8`, `fd00::/8`: an address, or a range of them by its prefix length. */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** `9464`, `0.0.0.0:9464`, `[::]:9464`: the operators' port and the address it listens on. */
function metricsAddress(value: string): { port: number; host: string | null } | null {
  const match = /^(?:\[([^\]]+)\]:|([^:[\]]+):)?(\d{1,5})$/.exec(value);
  if (match === null || Number(match[3]) > 65535) return null;
  const host = match[1] ?? match[2] ?? null;
  if (host !== null && isIP(host) === 0) return null;
  return { port: Number(match[3]), host };
}

const LEVEL_WORDS = `--log-level is one of ${LOG_LEVELS.join(', ')}`;

/** Reads the arguments (and FELT_LOG_LEVEL from `env`); a message when they are wrong. */
export function parseServeArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ServeArgs | string {
  let port = 8080;
  let data = './data';
  let tables: string | null = null;
  let db: string | null = null;
  let bus: string | null = null;
  let node: string | null = null;
  let busAuth: BusConnectOptions = {};
  const allowedOrigins: string[] = [];
  const trusted: string[] = [];
  let maxPerAddress: number | null = null;
  let ipv6Prefix: number | null = null;
  let metricsPort: { port: number; host: string | null } | null = null;
  let metricsTokenFile: string | null = null;
  const envToken = env.FELT_METRICS_TOKEN;
  const metricsToken = envToken !== undefined && envToken !== '' ? envToken : null;
  const proxies: string[] = [];
  let proxyProtocol = false;
  let switchMode = false;
  const fromEnv = env.FELT_LOG_LEVEL;
  if (fromEnv !== undefined && fromEnv !== '' && !isLogLevel(fromEnv))
    return `FELT_LOG_LEVEL: ${LEVEL_WORDS}`;
  let logLevel: LogLevel = fromEnv !== undefined && isLogLevel(fromEnv) ? fromEnv : 'info';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--proxy-protocol') {
      proxyProtocol = true;
      continue;
    }
    if (arg === '--bus-tls') {
      busAuth = { ...busAuth, tls: true };
      continue;
    }
    const busFile = /^--bus-(creds|ca|cert|key)(?:=(.*))?$/.exec(arg);
    if (busFile) {
      const file = busFile[2] ?? args[++i];
      if (file === undefined || file === '') return `${arg} needs a value`;
      const key = ({ creds: 'credsFile', ca: 'caFile', cert: 'certFile', key: 'keyFile' } as const)[
        busFile[1] as 'creds' | 'ca' | 'cert' | 'key'
      ];
      busAuth = { ...busAuth, [key]: file };
      continue;
    }
    if (arg === '--switch-mode') {
      switchMode = true;
      continue;
    }
    const match =
      /^--(port|data|tables|db|bus|node|allow-origin|trust|max-per-address|ipv6-prefix|metrics-port|metrics-token-file|proxy|log-level)(?:=(.*))?$/.exec(
        arg,
      );
    if (!match) return `unknown argument ${arg}`;
    const value = match[2] ?? args[++i];
    if (value === undefined || value === '') return `${arg} needs a value`;
    if (match[1] === 'port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) return '--port must be an integer 0–65535';
      port = Number(value);
    } else if (match[1] === 'data') data = value;
    else if (match[1] === 'db') db = value;
    else if (match[1] === 'bus') {
      if (!/^(nats|tls):\/\/\S+$/.test(value)) return '--bus is a nats:// URL';
      bus = value;
    } else if (match[1] === 'node') node = value;
    else if (match[1] === 'allow-origin') {
      // An origin is scheme://host[:port], exactly as a browser sends it.
      if (!/^https?:\/\/[^/\s]+$/.test(value)) return '--allow-origin is scheme://host[:port]';
      allowedOrigins.push(value);
    } else if (match[1] === 'trust') trusted.push(value);
    else if (match[1] === 'max-per-address') {
      if (!/^\d+$/.test(value) || Number(value) < 1) return '--max-per-address must be an integer ≥ 1';
      maxPerAddress = Number(value);
    } else if (match[1] === 'metrics-port') {
      const parsed = metricsAddress(value);
      if (parsed === null) return '--metrics-port is PORT or ADDRESS:PORT (127.0.0.1:9464, [::1]:9464)';
      metricsPort = parsed;
    } else if (match[1] === 'metrics-token-file') metricsTokenFile = value;
    else if (match[1] === 'ipv6-prefix') {
      if (!/^\d{1,3}$/.test(value) || Number(value) > 128) return '--ipv6-prefix is a number of bits 0–128';
      ipv6Prefix = Number(value);
    } else if (match[1] === 'proxy') {
      if (!isAddressOrRange(value)) return '--proxy is an IP address or a CIDR range (10.0.0.0/8)';
      proxies.push(value);
    } else if (match[1] === 'log-level') {
      if (!isLogLevel(value)) return LEVEL_WORDS;
      logLevel = value;
    } else tables = value;
  }
  if (bus !== null && db === null) return '--bus needs --db postgres://…';
  if (node !== null && bus === null) return '--node names a process of a cluster (--bus)';
  if (Object.keys(busAuth).length > 0 && bus === null) return '--bus-creds, --bus-tls, … need --bus';
  if ((busAuth.certFile === undefined) !== (busAuth.keyFile === undefined))
    return '--bus-cert and --bus-key go together';
  if (switchMode && db === null) return '--switch-mode is for a PostgreSQL database (--db)';
  if (proxyProtocol && proxies.length === 0)
    return '--proxy-protocol needs the proxies that send it (--proxy)';
  return {
    port,
    data,
    tables,
    db,
    bus,
    node,
    busAuth,
    allowedOrigins,
    trusted,
    maxPerAddress,
    ipv6Prefix,
    metricsPort,
    metricsTokenFile,
    metricsToken,
    proxies,
    proxyProtocol,
    switchMode,
    logLevel,
  };
}

export const serve: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    const parsed = parseServeArgs(args, process.env);
    if (typeof parsed === 'string') {
      process.stderr.write(`felt serve: ${parsed}\n${USAGE}`);
      return 2;
    }
    // The room's old generation is small (~55 MB live at 6,000 players) and V8 lets it grow only
    // 20–50 % before collecting it again: a mark-compact every 4–15 s, each holding the event loop
    // 55–135 ms, and with it every action in flight (docs/benchmarks.md, eleventh session). Letting it
    // grow threefold makes them rare, for ~100 MB more heap.
    setFlagsFromString('--heap-growing-percent=300');
    let token = parsed.metricsToken;
    if (parsed.metricsTokenFile !== null) {
      try {
        token = readFileSync(parsed.metricsTokenFile, 'utf8').trim();
      } catch (error) {
        process.stderr.write(`felt serve: --metrics-token-file: ${(error as Error).message}\n`);
        return 2;
      }
      if (token === '') {
        process.stderr.write('felt serve: --metrics-token-file: the file is empty\n');
        return 2;
      }
    }
    const { startServer, StorageOpenError } = await import('@felt/server');
    const logger = createLogger({ level: parsed.logLevel });
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({
        logger,
        port: parsed.port,
        dataDir: parsed.data,
        ...(parsed.tables !== null ? { tables: parsed.tables } : {}),
        ...(parsed.db !== null ? { db: parsed.db } : {}),
        ...(parsed.bus !== null ? { bus: parsed.bus } : {}),
        ...(parsed.node !== null ? { node: parsed.node } : {}),
        busAuth: parsed.busAuth,
        ...(parsed.switchMode ? { switchMode: true } : {}),
        allowedOrigins: parsed.allowedOrigins,
        metrics: {
          ...(parsed.metricsPort !== null ? { port: parsed.metricsPort.port } : {}),
          ...(parsed.metricsPort?.host != null ? { host: parsed.metricsPort.host } : {}),
          ...(token !== null ? { token } : {}),
        },
        addresses: {
          trusted: parsed.trusted,
          ...(parsed.maxPerAddress !== null ? { maxConnections: parsed.maxPerAddress } : {}),
          ...(parsed.ipv6Prefix !== null ? { ipv6Prefix: parsed.ipv6Prefix } : {}),
          proxies: parsed.proxies,
          proxyProtocol: parsed.proxyProtocol,
        },
      });
    } catch (error) {
      // A folder in use or a damaged file: the operator's to fix, told in words (a bug keeps its stack).
      if (!(error instanceof StorageOpenError)) throw error;
      logger.fatal({ code: error.code }, `cannot start: ${error.message}`);
      return 1;
    }
    return new Promise<number>((resolve) => {
      let stopping = false;
      const stop = (signal: string): void => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'stopping');
        // Hard limit: exit within 5 seconds whatever happens (10 in a cluster, which first lets the
        // hands at its tables end).
        setTimeout(
          () => {
            logger.fatal('stop timed out');
            process.exit(1);
          },
          parsed.bus === null ? 4500 : 9500,
        ).unref();
        server.stop().then(
          () => {
            resolve(0);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'stop failed');
            resolve(1);
          },
        );
      };
      process.once('SIGTERM', () => {
        stop('SIGTERM');
      });
      process.once('SIGINT', () => {
        stop('SIGINT');
      });
    });
  },
};
