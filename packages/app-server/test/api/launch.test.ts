import { AppServerClient } from '@bosun/client';
import { decodeLaunchLink } from '@bosun/protocol';
import { expect, it } from 'vitest';
import { describeApi } from './harness.ts';

const DOCS_EXAMPLE =
  'W3sic291cmNlIjoiZ2l0aHViOk9wZW5IYW5kcy9leHRlbnNpb25zIiwicmVmIjoibWFpbiIsInJlcG9fcGF0aCI6InBsdWdpbnMvcHItcmV2aWV3In1d';

describeApi('launch links', (api) => {
  it('builds a link on this server (or the given base) that decodes to the same references', async () => {
    const user = await api().user();
    const plugins = [
      { source: 'github:acme/weather', ref: 'v2', repo_path: 'plugins/now', parameters: { city: 'Zürich' } },
    ];
    const built = await api().call('/api/v1/launch/link', {
      method: 'POST',
      as: user,
      body: { plugins, message: '/weather:now' },
    });
    expect(built.status, built.text).toBe(200);
    expect(built.body.problems).toEqual([]);
    expect(built.body.url.startsWith(`${api().url}/launch?plugins=`)).toBe(true);
    expect(decodeLaunchLink(built.body.url)).toEqual({ plugins, message: '/weather:now', problems: [] });

    const elsewhere = await api().call('/api/v1/launch/link', {
      method: 'POST',
      as: user,
      body: { plugins, base_url: 'https://ui.example/' },
    });
    expect(elsewhere.body.url).toMatch(/^https:\/\/ui\.example\/launch\?plugins=[A-Za-z0-9%]+$/);
  });

  it('builds and decodes links through the typed client', async () => {
    const user = await api().user();
    const client = new AppServerClient({ baseUrl: api().url, apiKey: user.key });
    const plugins = [{ source: 'github:acme/tools', parameters: { greeting: 'grüß dich' } }];
    const { url } = await client.post('/api/v1/launch/link', { body: { plugins, message: 'hello' } });
    const value = new URL(url).searchParams.get('plugins') as string;
    expect(await client.get('/api/v1/launch/decode', { query: { plugins: value, message: 'hello' } })).toEqual({
      plugins: [{ ...plugins[0], ref: null, repo_path: null }],
      message: 'hello',
      problems: [],
    });
    expect((await client.get('/api/v1/launch/decode', { query: { plugins: value } })).message).toBeNull();
  });

  it('answers 422 with the place of every invalid reference', async () => {
    const user = await api().user();
    const answer = await api().call('/api/v1/launch/link', {
      method: 'POST',
      as: user,
      body: {
        plugins: [
          { source: 'github:acme/tools' },
          { source: 'github:acme/tools/deep', repo_path: '../x' },
          { source: 'https://me:pa55word@git.example/x.git' },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'plugins', 1, 'source'],
      ['body', 'plugins', 1, 'repo_path'],
      ['body', 'plugins', 2, 'source'],
    ]);
    expect(answer.body.detail[2]).toMatchObject({ type: 'value_error', msg: expect.stringContaining('secret') });
    expect(answer.text).not.toContain('pa55word');

    const empty = await api().call('/api/v1/launch/link', { method: 'POST', as: user, body: { plugins: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([
      { loc: ['body', 'plugins'], msg: 'no plugins: the array is empty', type: 'value_error' },
    ]);

    const huge = await api().call('/api/v1/launch/link', {
      method: 'POST',
      as: user,
      body: { plugins: [{ source: 'github:a/b', parameters: { big: 'x'.repeat(300_000) } }] },
    });
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].msg).toContain('at most 262144 bytes');

    const missing = await api().call('/api/v1/launch/link', { method: 'POST', as: user, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'plugins']);
  });

  it('decodes a link’s parameters, with problems as data, and refuses a missing one', async () => {
    const user = await api().user();
    const good = await api().call(`/api/v1/launch/decode?plugins=${DOCS_EXAMPLE}&message=%2Fpr-review%3Anow`, {
      as: user,
    });
    expect(good.status, good.text).toBe(200);
    expect(good.body).toEqual({
      plugins: [
        { source: 'github:OpenHands/extensions', ref: 'main', repo_path: 'plugins/pr-review', parameters: null },
      ],
      message: '/pr-review:now',
      problems: [],
    });

    // Unescaped, the `+` of standard base64 reaches the server as a space; UTF-8 values come out intact.
    const plugins = [{ source: 'github:a/b', ref: null, repo_path: null, parameters: { v: '>>>?', city: 'Zürich' } }];
    const encoded = Buffer.from(JSON.stringify(plugins)).toString('base64');
    expect(encoded).toContain('+');
    const damaged = await api().call(`/api/v1/launch/decode?plugins=${encoded}&message=f%C3%BCr+alle`, { as: user });
    expect(damaged.body).toEqual({ plugins, message: 'für alle', problems: [] });

    const object = btoa(JSON.stringify({ source: 'github:a/b' }));
    const bad = await api().call(`/api/v1/launch/decode?plugins=${object}`, { as: user });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({
      plugins: [],
      message: null,
      problems: [
        { loc: ['plugins'], msg: 'expected a JSON array of plugin references, got an object (wrap it in [ ])' },
      ],
    });

    const missing = await api().call('/api/v1/launch/decode', { as: user });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['query', 'plugins']);

    const anonymous = await api().call(`/api/v1/launch/decode?plugins=${DOCS_EXAMPLE}`);
    expect(anonymous.status).toBe(401);
  });
});
