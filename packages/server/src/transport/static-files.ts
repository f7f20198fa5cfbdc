/**
 * The web client's files: compressed once (Brotli and gzip, kept in memory beside the file's size and
 * time, made again when the build changes it) and sent in the encoding the browser accepts; Vite's
 * hashed assets (`/assets/NAME-HASH.ext`) cached by the browser for a year as immutable, everything
 * else (`index.html`) checked again at every load against its ETag.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { SECURITY_HEADERS } from './browser-security.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Text compresses; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg', '.txt']);

/** A file whose name carries the hash of its content never changes under that name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Anything else may change with the next build: the browser asks again, with its ETag. */
const REVALIDATE = 'no-cache';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

interface Prepared {
  readonly size: number;
  readonly mtimeMs: number;
  readonly type: string;
  readonly etag: string;
  readonly identity: Buffer;
  /** The compressed bodies smaller than the file (a body no smaller is not worth the browser's work). */
  readonly compressed: ReadonlyMap<'br' | 'gzip', Buffer>;
}

/**
 * The encoding to send: Brotli, then gzip, of those `available` that `accept` (an Accept-Encoding
 * header) allows; else the file as it is.
 */
export function chooseEncoding(accept: string | undefined, available: ReadonlySet<Encoding>): Encoding {
  const allowed = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    allowed.set(name ?? '', q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => allowed.get(name) ?? allowed.get('*') ?? 0;
  for (const encoding of ['br', 'gzip'] as const) {
    if (available.has(encoding) && weight(encoding) > 0) return encoding;
  }
  return 'identity';
}

export class StaticFiles {
  readonly #base: string;
  readonly #prepared = new Map<string, Promise<Prepared>>();

  constructor(root: string) {
    this.#base = resolve(root);
  }

  /** Answers `urlPath` from the files under the root (never outside it); false when there is none. */
  async serve(urlPath: string, request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const file = this.#fileOf(urlPath);
    if (file === null) return false;
    let info;
    try {
      info = await stat(file);
    } catch {
      return false;
    }
    if (!info.isFile()) return false;
    const prepared = await this.#prepare(file, info.size, info.mtimeMs);
    const cacheControl = urlPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE;
    const common = {
      ...SECURITY_HEADERS,
      'cache-control': cacheControl,
      etag: prepared.etag,
      vary: 'accept-encoding',
    };
    if (request.headers['if-none-match'] === prepared.etag) {
      response.writeHead(304, common);
      response.end();
      return true;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding'], new Set(prepared.compressed.keys()));
    const body = encoding === 'identity' ? prepared.identity : prepared.compressed.get(encoding)!;
    response.writeHead(200, {
      ...common,
      'content-type': prepared.type,
      'content-length': body.length,
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  #fileOf(urlPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const file = resolve(join(this.#base, normalize(decoded === '/' ? '/index.html' : decoded)));
    return file === this.#base || file.startsWith(this.#base + sep) ? file : null;
  }

  /** The file's bodies in each encoding, made once per version of the file (its size and time). */
  #prepare(file: string, size: number, mtimeMs: number): Promise<Prepared> {
    const known = this.#prepared.get(file);
    const fresh = known?.then((p) => (p.size === size && p.mtimeMs === mtimeMs ? p : null));
    const made = (fresh ?? Promise.resolve(null)).then(async (p) => {
      if (p !== null) return p;
      const raw = await readFile(file);
      const extension = extname(file).toLowerCase();
      const compress = COMPRESSIBLE.has(extension);
      const compressed = new Map<'br' | 'gzip', Buffer>();
      if (compress) {
        const [br, gz] = await Promise.all([
          brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzipped(raw, { level: 9 }),
        ]);
        if (br.length < raw.length) compressed.set('br', br);
        if (gz.length < raw.length) compressed.set('gzip', gz);
      }
      return {
        size,
        mtimeMs,
        type: TYPES[extension] ?? 'application/octet-stream',
        etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
        identity: raw,
        compressed,
      };
    });
    this.#prepared.set(file, made);
    made.catch(() => this.#prepared.delete(file));
    return made;
  }
}
