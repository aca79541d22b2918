import { redactUrl } from '@bosun/http';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { startTestServer } from './support/server.ts';

describe('query values that look like secrets are never logged', () => {
  it('a key, token, secret or password in any query parameter is redacted in the request log', async () => {
    const logs: string[] = [];
    const server = await startTestServer({ logLevel: 'info', logStream: { write: (line: string) => logs.push(line) } });
    try {
      const query = [
        'X-Session-API-Key=secret-one',
        'access_token=secret-two',
        'password=secret-three',
        'client_secret=secret-four',
        'apiKey=secret-five',
        '%61pi_key=secret-six',
        'limit=5',
      ].join('&');
      const reply = await call(server.url, `/api/conversations/search?${query}`);
      expect(reply.status).toBe(200);
      const log = logs.join('');
      expect(log).toContain('/api/conversations/search?');
      expect(log).toContain('limit=5');
      expect(log).toContain('X-Session-API-Key=<redacted>');
      expect(log).not.toMatch(/secret-(one|two|three|four|five|six)/);
    } finally {
      await server.close();
    }
  });
});

describe('redactUrl', () => {
  it.each([
    ['/a?session_api_key=k', '/a?session_api_key=<redacted>'],
    ['/a?token=t&limit=5&auth=x', '/a?token=<redacted>&limit=5&auth=<redacted>'],
    ['/a?pwd=p&passwd=q', '/a?pwd=<redacted>&passwd=<redacted>'],
    ['/callback?code=c&state=s', '/callback?code=<redacted>&state=s'],
    ['/a?zip_code=1', '/a?zip_code=1'],
    ['/a?kind=MessageEvent&body=hello', '/a?kind=MessageEvent&body=hello'],
    ['/a?%ff%6Bey=x', '/a?%ff%6Bey=<redacted>'],
    ['/a?token', '/a?token'],
    ['/a', '/a'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
