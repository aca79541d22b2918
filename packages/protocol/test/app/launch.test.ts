import { describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/app/base64.ts';
import { MAX_LAUNCH_PAYLOAD_BYTES, buildLaunchLink, decodeLaunchLink, formatLaunchProblem } from '../../src/index.ts';

const DOCS_EXAMPLE =
  'W3sic291cmNlIjoiZ2l0aHViOk9wZW5IYW5kcy9leHRlbnNpb25zIiwicmVmIjoibWFpbiIsInJlcG9fcGF0aCI6InBsdWdpbnMvcHItcmV2aWV3In1d';
const base64Of = (value: unknown) => toBase64(new TextEncoder().encode(JSON.stringify(value)));
const full = (plugin: Record<string, unknown>) => ({ ref: null, repo_path: null, parameters: null, ...plugin });
const messages = (input: string) => decodeLaunchLink(input).problems.map(formatLaunchProblem);

describe('decoding a launch link', () => {
  it('reads the OpenHands documentation’s example, as a link and as the parameter alone', () => {
    const expected = [full({ source: 'github:OpenHands/extensions', ref: 'main', repo_path: 'plugins/pr-review' })];
    const link = decodeLaunchLink(`https://app.example/launch?plugins=${DOCS_EXAMPLE}&message=%2Fpr-review%3Anow`);
    expect(link).toEqual({ plugins: expected, message: '/pr-review:now', problems: [] });
    expect(decodeLaunchLink(DOCS_EXAMPLE)).toEqual({ plugins: expected, message: null, problems: [] });
    // Badge generators that percent-encode padding (`%3D`).
    expect(decodeLaunchLink(`/launch?plugins=${DOCS_EXAMPLE}%3D%3D`).plugins).toEqual(expected);
    // The same references give the same base64 back.
    const built = buildLaunchLink([
      { source: 'github:OpenHands/extensions', ref: 'main', repo_path: 'plugins/pr-review' },
    ]);
    expect(built).toEqual({ url: `/launch?plugins=${DOCS_EXAMPLE}`, problems: [] });
  });

  it('survives a `+` turned into a space, URL-safe base64, `%3D` padding and no padding', () => {
    const value = ['>>>?', '>?>?>', 'a>>>??', '>>>>??'].find((v) =>
      /\+.*\/|\/.*\+/.test(base64Of([{ source: 'github:a/b', parameters: { v } }])),
    );
    const plugins = [{ source: 'github:a/b', parameters: { v: value } }];
    const encoded = base64Of(plugins);
    expect(encoded).toMatch(/\+/);
    expect(encoded).toMatch(/\//);
    const expected = [full(plugins[0] as Record<string, unknown>)];
    // A badge that did not percent-encode: the query decoder turns each `+` into a space.
    expect(decodeLaunchLink(`/launch?plugins=${encoded}`).plugins).toEqual(expected);
    expect(decodeLaunchLink(encoded.replace(/\+/g, ' ')).plugins).toEqual(expected);
    const urlSafe = encoded.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeLaunchLink(urlSafe)).toMatchObject({ plugins: expected, problems: [] });
    expect(decodeLaunchLink(encodeURIComponent(encoded)).plugins).toEqual(expected);
    const built = buildLaunchLink(plugins, { baseUrl: 'https://bosun.example/' }).url as string;
    expect(built).not.toMatch(/plugins=[^&]*[+/=]/);
    expect(decodeLaunchLink(built)).toMatchObject({ plugins: expected, problems: [] });
  });

  it('decodes UTF-8: non-ASCII parameter values and messages arrive intact', () => {
    const plugins = [
      { source: 'github:acme/weather', parameters: { city: 'Zürich', greeting: '東京 🚀', days: 3, metric: true } },
    ];
    const url = buildLaunchLink(plugins, { message: '/weather:now für Zürich & co', baseUrl: 'http://h:3000' }).url;
    expect(decodeLaunchLink(url as string)).toEqual({
      plugins: [full(plugins[0] as Record<string, unknown>)],
      message: '/weather:now für Zürich & co',
      problems: [],
    });
  });

  it('refuses an object instead of an array, an empty array, and what is not base64, JSON or UTF-8', () => {
    expect(messages(base64Of({ source: 'github:a/b' }))).toEqual([
      'plugins: expected a JSON array of plugin references, got an object (wrap it in [ ])',
    ]);
    expect(messages(base64Of([]))).toEqual(['plugins: no plugins: the array is empty']);
    expect(messages('not*base64')[0]).toMatch(/^plugins: not base64/);
    expect(messages(toBase64(new TextEncoder().encode('[{')))[0]).toMatch(/^plugins: the decoded payload is not JSON/);
    expect(messages(toBase64(new Uint8Array([0x5b, 0xff, 0x5d])))).toEqual([
      'plugins: the decoded payload is not UTF-8 text',
    ]);
    expect(messages('https://app.example/launch?message=hi')).toEqual(['plugins: the link has no plugins parameter']);
  });

  it('accepts 100 plugins and refuses 101', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ source: `github:acme/plugin-${i}` }));
    const hundred = decodeLaunchLink(base64Of(many(100)));
    expect(hundred.problems).toEqual([]);
    expect(hundred.plugins).toHaveLength(100);
    expect(hundred.plugins[99]?.source).toBe('github:acme/plugin-99');
    expect(messages(base64Of(many(101)))).toEqual(['plugins: 101 plugins; a launch link holds at most 100']);
    expect(buildLaunchLink(many(101)).problems).toHaveLength(1);
  });

  it('refuses a 1 MB parameter with the limit in the message, decoding and building', () => {
    const plugins = [{ source: 'github:a/b', parameters: { big: 'x'.repeat(1024 * 1024) } }];
    const [problem] = messages(base64Of(plugins));
    expect(problem).toMatch(/^plugins: the decoded payload is 104\d{4} bytes; a launch link holds at most 262144/);
    const built = buildLaunchLink(plugins);
    expect(built.url).toBeNull();
    expect(formatLaunchProblem(built.problems[0] as never)).toContain(`at most ${MAX_LAUNCH_PAYLOAD_BYTES} bytes`);
  });

  it('reports every problem with where it is, and keeps the good references', () => {
    const decoded = decodeLaunchLink(
      base64Of([
        { source: 'github:acme/tools' },
        { source: 'github:acme/tools/plugins/x', ref: 'main..x', repo_path: '/abs' },
        { source: 'https://user:hunter2@git.example/a.git', repo_path: 'a/../../b', parameters: { n: { deep: 1 } } },
        { source: 'git@github.com:acme/tools.git', repo_path: 'https://x', extra: 1 },
        'github:acme/tools',
      ]),
    );
    expect(decoded.plugins).toEqual([full({ source: 'github:acme/tools' })]);
    expect(decoded.problems.map(formatLaunchProblem)).toEqual([
      'plugins[1].source: expected github:owner/repo (exactly two segments; a folder inside the repository goes in repo_path)',
      'plugins[1].ref: not a Git branch, tag or commit name',
      'plugins[1].repo_path: must be relative to the repository',
      expect.stringMatching(/^plugins\[2\]\.source: the URL holds credentials; put the token in a secret/),
      'plugins[2].repo_path: must not leave the repository (`..`)',
      'plugins[2].parameters.n: expected a string, number or boolean',
      'plugins[3].extra: unknown field',
      'plugins[3].repo_path: must be a folder inside the repository, not a URL',
      'plugins[4]: expected an object {source, ref?, repo_path?, parameters?}',
    ]);
    expect(JSON.stringify(decoded)).not.toContain('hunter2');
  });

  it('accepts the Git sources people use, secrets named as placeholders', () => {
    const sources = [
      'gitlab:group/project',
      'bitbucket:team/repo',
      'https://github.com/acme/tools.git',
      'https://x-access-token:${GITHUB_TOKEN}@github.com/acme/private.git',
      'ssh://git@git.example:2222/acme/tools.git',
      'git@github.com:acme/tools.git',
      'file:///srv/git/tools',
    ];
    const decoded = decodeLaunchLink(base64Of(sources.map((source) => ({ source, ref: 'v1.2.0' }))));
    expect(decoded.problems).toEqual([]);
    expect(decoded.plugins.map((p) => p.source)).toEqual(sources);
    expect(messages(base64Of([{ source: 'https://ghp_token@github.com/a/b.git' }]))[0]).toContain('credentials');
    expect(messages(base64Of([{ source: 'plugins/local' }]))[0]).toContain('expected github:owner/repo');
  });

  it('reads the development form (plugin_source, plugin_ref, plugin_repo_path)', () => {
    const decoded = decodeLaunchLink(
      '/launch?plugin_source=github:a/b&plugin_ref=dev&plugin_repo_path=p/q&message=go+on',
    );
    expect(decoded).toEqual({
      plugins: [full({ source: 'github:a/b', ref: 'dev', repo_path: 'p/q' })],
      message: 'go on',
      problems: [],
    });
  });
});

describe('building a launch link', () => {
  it('round-trips references and message, whatever the decoder', () => {
    const plugins = [
      full({ source: 'github:acme/a', ref: 'release/2.0', repo_path: 'plugins/x', parameters: { n: 1.5, ok: false } }),
      full({ source: 'https://git.example/b.git' }),
    ];
    const { url, problems } = buildLaunchLink(plugins, { message: 'a+b = c?&d', baseUrl: 'https://ui.example/app' });
    expect(problems).toEqual([]);
    expect(url).toMatch(/^https:\/\/ui\.example\/app\/launch\?plugins=[A-Za-z0-9%]+&message=/);
    expect(decodeLaunchLink(url as string)).toEqual({ plugins, message: 'a+b = c?&d', problems: [] });
    const query = new URL(url as string).searchParams;
    expect(decodeLaunchLink(query.get('plugins') as string).plugins).toEqual(plugins);
  });

  it('refuses bad references, message and base URL with where they are', () => {
    const { url, problems } = buildLaunchLink([{ source: '' }], {
      message: 'x'.repeat(5001),
      baseUrl: 'javascript:alert(1)',
      at: ['body'],
    });
    expect(url).toBeNull();
    expect(problems).toEqual([
      { loc: ['body', 'plugins', 0, 'source'], msg: 'must not be empty' },
      { loc: ['body', 'message'], msg: 'longer than 5000 characters' },
      { loc: ['body', 'base_url'], msg: 'expected an http(s) URL without query or fragment' },
    ]);
  });
});
