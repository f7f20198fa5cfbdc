/**
 * Clients behind a load balancer. A client's address is taken from what a proxy says only when the
 * connection comes from a proxy the operator trusts (`--proxy ADDRESS|CIDR`): from the PROXY protocol
 * header (v1 or v2) that such a proxy sends first when `--proxy-protocol` is set, otherwise from
 * `X-Forwarded-For` (its rightmost hop that is not itself a trusted proxy). Anyone else's headers are
 * ignored, so a client cannot pick his own address to escape the per-address limits.
 */
import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import proxyaddr from 'proxy-addr';
import {
  Command,
  IPv4ProxyAddress,
  IPv6ProxyAddress,
  V1ProxyProtocol,
  V2ProxyProtocol,
} from 'proxy-protocol-js';

const V1_SIGNATURE = Buffer.from('PROXY ');
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** A v1 header is at most 107 bytes with its CRLF; a v2 header is 16 bytes and its announced length. */
const V1_MAX_BYTES = 107;
const V2_FIXED_BYTES = 16;
/** Longer than any address block with the TLVs load balancers add (AWS, GCP, HAProxy's SSL fields). */
const V2_MAX_BYTES = 4096;

export class ProxyHeaderError extends Error {
  override readonly name = 'ProxyHeaderError';
}

/** The proxies the operator trusts, by address or CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export class TrustedProxies {
  readonly #trust: (address: string, hop: number) => boolean;
  readonly empty: boolean;

  constructor(proxies: readonly string[]) {
    this.#trust = proxyaddr.compile([...proxies]);
    this.empty = proxies.length === 0;
  }

  includes(address: string): boolean {
    return !this.empty && this.#trust(address, 0);
  }

  /** The client behind the trusted proxies that forwarded `request` (its own peer if none did). */
  forwardedFor(request: IncomingMessage): string {
    return proxyaddr(request, this.#trust);
  }
}

/** `[0x20, 0x01, …]` (16 bytes) is `2001:…`: eight groups, uncompressed — one spelling per address. */
function ipv6(bytes: readonly number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}

/**
 * The client's address in a complete header (`null` for a proxy's own LOCAL connection, e.g. a health
 * check, or an address family that has none such as UNIX or UNSPEC).
 */
export function clientOfHeader(header: Buffer): string | null {
  if (header.subarray(0, V2_SIGNATURE.length).equals(V2_SIGNATURE)) {
    const parsed = V2ProxyProtocol.parse(header);
    if (parsed.command === Command.LOCAL) return null;
    const address = parsed.proxyAddress;
    if (address instanceof IPv4ProxyAddress) return address.sourceAddress.address.join('.');
    if (address instanceof IPv6ProxyAddress) return ipv6(address.sourceAddress.address);
    return null;
  }
  const text = header.toString('latin1');
  // The parser wants addresses after UNKNOWN, which the specification does not require.
  if (text.startsWith('PROXY UNKNOWN')) return null;
  const source = V1ProxyProtocol.parse(text).source.ipAddress;
  if (isIP(source) === 0) throw new ProxyHeaderError(`not an address: ${source}`);
  return source;
}

function startsLike(buffer: Buffer, signature: Buffer): boolean {
  const n = Math.min(buffer.length, signature.length);
  return buffer.subarray(0, n).equals(signature.subarray(0, n));
}

/** How many bytes the header at the start of `buffer` takes, or null while more are needed. */
function headerLength(buffer: Buffer): number | null {
  if (startsLike(buffer, V2_SIGNATURE)) {
    if (buffer.length < V2_FIXED_BYTES) return null;
    const length = V2_FIXED_BYTES + buffer.readUInt16BE(14);
    if (length > V2_MAX_BYTES) throw new ProxyHeaderError('PROXY v2 header too long');
    return buffer.length >= length ? length : null;
  }
  if (!startsLike(buffer, V1_SIGNATURE)) throw new ProxyHeaderError('no PROXY protocol header');
  const end = buffer.indexOf('\r\n');
  if (end >= 0) return end + 2;
  if (buffer.length >= V1_MAX_BYTES) throw new ProxyHeaderError('PROXY v1 header too long');
  return null;
}

/**
 * Reads the PROXY header at the start of `socket` and gives back what follows it to the socket (the
 * HTTP request that a proxy may send in the same packet). Rejects with ProxyHeaderError when the
 * header is missing, malformed or not complete within `timeoutMs`.
 */
export function readProxyHeader(socket: Socket, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const finish = (outcome: () => void): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      try {
        const length = headerLength(buffered);
        if (length === null) return;
        const client = clientOfHeader(buffered.subarray(0, length));
        finish(() => {
          if (buffered.length > length) socket.unshift(buffered.subarray(length));
          resolve(client);
        });
      } catch (error) {
        // The parser's own errors are not Error instances; each becomes a ProxyHeaderError.
        const message = (error as { message?: unknown }).message;
        finish(() => {
          reject(new ProxyHeaderError(typeof message === 'string' ? message : 'bad PROXY header'));
        });
      }
    };
    const onClose = (): void => {
      finish(() => {
        reject(new ProxyHeaderError('closed before its PROXY header'));
      });
    };
    const timer = setTimeout(() => {
      finish(() => {
        reject(new ProxyHeaderError('no PROXY header in time'));
      });
    }, timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}
