import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/**
 * `/` is the web application: its page for every path a browser navigates to, its hashed assets cached for good, and
 * nothing of the configuration. Built here as a small stand-in build (the real build is tested in the browser tests).
 */

const SECRETS = {
  llm_api_key: 'sk-llm-secret-value-1',
  jwt_secret: 'jwt-secret-value-2',
  s3_secret_access_key: 's3-secret-value-3',
  database_url: 'postgres://bosun:db-password-4@127.0.0.1:1/bosun',
};
const PAGE =
  '<!doctype html><html lang="en"><head><title>Bosun</title></head><body><div id="root"></div></body></html>';
const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

/** A GET as sent, its body as the bytes that came (fetch would decode them). */
function request(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ headers: answer.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

let webRoot: string;
let app: ListeningApp;
beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'bosun-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), PAGE);
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js'), 'console.log("bosun")');
  writeFileSync(join(webRoot, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log("bosun")'));
  app = await listenApp({ webRoot, config: { ...SECRETS, s3_bucket: 'b', s3_access_key_id: 'id' } });
});
afterAll(async () => {
  await app.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('the web application', () => {
  it('is the page at / and at every page a browser opens (deep links), never cached stale', async () => {
    for (const path of [
      '/',
      '/conversations/5f0c0f0e-8d1a-4b4f-9a51-3a7c5d7c9e01',
      '/settings/llm',
      '/sign-in?return_to=%2F',
    ]) {
      const page = await call(app.url, path, html);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.text).toBe(PAGE);
    }
  });

  it('serves the page as built now: a rebuild while the server runs is served at once', async () => {
    const rebuilt = PAGE.replace('<div id="root">', '<div id="root" data-build="2">');
    writeFileSync(join(webRoot, 'index.html'), rebuilt);
    // A new modification time even on a coarse clock.
    utimesSync(join(webRoot, 'index.html'), new Date(), new Date(Date.now() + 5_000));
    expect((await call(app.url, '/settings', html)).text).toBe(rebuilt);
    writeFileSync(join(webRoot, 'index.html'), PAGE);
    utimesSync(join(webRoot, 'index.html'), new Date(), new Date(Date.now() + 10_000));
    expect((await call(app.url, '/', html)).text).toBe(PAGE);
  });

  it('serves its hashed assets with their type, cached for good', async () => {
    const asset = await call(app.url, '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript|^application\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await call(app.url, '/assets/missing.js')).status).toBe(404);
  });

  it('sends the brotli form the build wrote to a browser that takes it, the plain one otherwise', async () => {
    const compressed = await request(`${app.url}/assets/index-abc123.js`, { 'accept-encoding': 'br, gzip' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(compressed.body).toString()).toBe('console.log("bosun")');
    const plain = await request(`${app.url}/assets/index-abc123.js`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('console.log("bosun")');
  });

  it('keeps the JSON 404 for the API, sockets, sandboxes and requests that do not ask for a page', async () => {
    for (const path of ['/api/v1/nothing-here', '/api/nothing', '/sockets/nothing', '/sandboxes/x/y']) {
      const answer = await call(app.url, path, html);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ detail: 'Not Found' });
    }
    const script = await call(app.url, '/conversations/x', { headers: { accept: 'application/json' } });
    expect(script.status).toBe(404);
    expect(script.body).toEqual({ detail: 'Not Found' });
  });

  it('leaves the API documentation, the OpenAPI document and the README where they were', async () => {
    for (const link of ['/docs', '/openapi.json', '/README.md']) {
      expect((await fetch(`${app.url}${link}`)).status, link).toBe(200);
    }
    const readme = await fetch(`${app.url}/README.md`);
    expect(readme.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await readme.text()).toContain('npm start');
    const document = (await call(app.url, '/openapi.json')).body as { paths: Record<string, unknown> };
    expect(
      Object.keys(document.paths).filter((path) => path === '/' || path.startsWith('/assets') || path === '/*'),
    ).toEqual([]);
  });

  it('holds no secret of the configuration', async () => {
    const { text } = await call(app.url, '/', html);
    for (const value of [...Object.values(SECRETS), 'db-password-4']) expect(text).not.toContain(value);
  });
});

describe('without a built web application', () => {
  let bare: ListeningApp;
  beforeAll(async () => {
    bare = await listenApp({ webRoot: undefined });
  });
  afterAll(async () => {
    await bare.close();
  });

  it('says at / how to build it, and links to the API documentation', async () => {
    const page = await call(bare.url, '/', html);
    expect(page.status).toBe(200);
    expect(page.text).toContain('npm run build');
    expect(page.text).toContain('href="/docs"');
    expect((await call(bare.url, '/conversations/x', html)).status).toBe(404);
  });
});
