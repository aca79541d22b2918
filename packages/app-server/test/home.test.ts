import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../src/index.ts';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/** `/` tells a person in a browser what is running, and where to read on; it shows nothing of the configuration. */

const SECRETS = {
  llm_api_key: 'sk-llm-secret-value-1',
  jwt_secret: 'jwt-secret-value-2',
  s3_secret_access_key: 's3-secret-value-3',
  database_url: 'postgres://bosun:db-password-4@127.0.0.1:1/bosun',
};

let app: ListeningApp;
beforeAll(async () => {
  app = await listenApp({ config: { ...SECRETS, s3_bucket: 'b', s3_access_key_id: 'id' } });
});
afterAll(async () => {
  await app.close();
});

describe('the home page', () => {
  it('is HTML naming the product and its version, saying the web application comes later', async () => {
    const page = await call(app.url, '/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain(`<title>Bosun App Server ${SERVER_VERSION}</title>`);
    expect(page.text).toMatch(/web application comes in a later release/);
  });

  it('links to the API documentation, the OpenAPI document and the README', async () => {
    const { text } = await call(app.url, '/');
    const links = [...text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(expect.arrayContaining(['/docs', '/openapi.json']));
    expect(links.some((link) => /\/README\.md$/.test(link ?? ''))).toBe(true);
    for (const link of ['/docs', '/openapi.json']) {
      expect((await fetch(`${app.url}${link}`)).status).toBe(200);
    }
  });

  it('holds no secret of the configuration', async () => {
    const { text } = await call(app.url, '/');
    for (const value of [...Object.values(SECRETS), 'db-password-4']) expect(text).not.toContain(value);
  });
});
