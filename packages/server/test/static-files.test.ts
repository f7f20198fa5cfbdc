/**
 * The web client's files over real HTTP (src/transport/static-files.ts): sent compressed in the
 * encoding the browser accepts and the same bytes once decoded, hashed assets cached for a year,
 * `index.html` checked again by its ETag, a file changed by a new build sent anew, nothing outside
 * the client's folder.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/transport/static-files.js';
import { startTestRoom, type TestRoom } from './transport-client.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A GET whose body is read as it came on the wire (no decoding). */
function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the web client served', () => {
  const webDir = mkdtempSync(join(tmpdir(), 'felt-web-'));
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i % 7}"`).join(',')}];\n`;
  const page = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body>${'<div></div>'.repeat(50)}</body></html>`;
  const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 6, 7, 8]);
  let room: TestRoom;

  beforeAll(async () => {
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), page);
    writeFileSync(join(webDir, 'assets', 'index-Ab12Cd34.js'), script);
    writeFileSync(join(webDir, 'icon.png'), picture);
    room = await startTestRoom({ webDir });
  });
  afterAll(async () => {
    await room.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends Brotli or gzip as the browser accepts, the same bytes once decoded, and the file as it is otherwise', async () => {
    const url = `${room.http}/assets/index-Ab12Cd34.js`;
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('never compresses a picture, which is compressed already', async () => {
    const png = await get(`${room.http}/icon.png`, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body).toEqual(picture);
  });

  it('a hashed asset is cached for a year as immutable; the page is checked again by its ETag and answered 304 when unchanged', async () => {
    const asset = await get(`${room.http}/assets/index-Ab12Cd34.js`);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const first = await get(`${room.http}/`, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(first.body).toString()).toBe(page);
    const etag = String(first.headers['etag']);
    const again = await get(`${room.http}/index.html`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('a file a new build changed is sent anew, with a new ETag', async () => {
    const before = await get(`${room.http}/index.html`);
    const changed = `${page}<!-- build 2 -->`;
    writeFileSync(join(webDir, 'index.html'), changed);
    const after = await get(`${room.http}/index.html`, { 'if-none-match': String(before.headers['etag']) });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe(changed);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
  });

  it('serves nothing outside the client folder', async () => {
    for (const path of [
      '/..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fpackage.json',
    ]) {
      const answer = await get(`${room.http}${path}`);
      expect(answer.status).toBe(404);
    }
  });
});

describe('Accept-Encoding', () => {
  const both = new Set(['br', 'gzip'] as const);
  it('prefers Brotli, then gzip, among the encodings the browser allows and the file has', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0', both)).toBe('gzip');
    expect(chooseEncoding('*', both)).toBe('br');
    expect(chooseEncoding('br', new Set(['gzip'] as const))).toBe('identity');
    expect(chooseEncoding('deflate', both)).toBe('identity');
    expect(chooseEncoding(undefined, both)).toBe('identity');
  });
});
