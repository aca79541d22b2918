import { decodeLaunchLink } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { pluginOf } from '../src/commands/launch.ts';
import { runCli } from './io.ts';

const DOCS_EXAMPLE =
  'W3sic291cmNlIjoiZ2l0aHViOk9wZW5IYW5kcy9leHRlbnNpb25zIiwicmVmIjoibWFpbiIsInJlcG9fcGF0aCI6InBsdWdpbnMvcHItcmV2aWV3In1d';

describe('bosun launch decode', () => {
  it('prints a link’s plugins and message and exits 0', async () => {
    const result = await runCli([
      'launch',
      'decode',
      `https://app.example/launch?plugins=${DOCS_EXAMPLE}&message=hi+there`,
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        'Plugins (1):\n  github:OpenHands/extensions\n    ref:  main\n    path: plugins/pr-review\nMessage: hi there\n',
      stderr: '',
    });
  });

  it('prints JSON with --json, and every problem with exit 1', async () => {
    const json = await runCli(['launch', 'decode', DOCS_EXAMPLE, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(decodeLaunchLink(DOCS_EXAMPLE));

    const bad = btoa(JSON.stringify([{ source: 'github:a/b/c' }, { source: 'github:a/b', repo_path: '/x' }]));
    const text = await runCli(['launch', 'decode', bad]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('Plugins (0)\nMessage: (none)\n');
    expect(text.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^bosun launch: plugins\[0\]\.source: expected github:owner\/repo/),
      'bosun launch: plugins[1].repo_path: must be relative to the repository',
    ]);
    const asJson = await runCli(['launch', 'decode', '--json', bad]);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout).problems).toHaveLength(2);
  });

  it('exits 2 for bad usage', async () => {
    expect((await runCli(['launch'])).code).toBe(2);
    expect((await runCli(['launch', 'decode'])).code).toBe(2);
    expect((await runCli(['launch', 'decode', 'a', 'b'])).code).toBe(2);
    expect((await runCli(['launch', 'open', 'x'])).stderr).toContain("unknown action 'open'");
    const help = await runCli(['launch', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('bosun launch link --plugin SOURCE[@REF][:PATH]');
  });
});

describe('bosun launch link', () => {
  it('prints a link that decodes to the plugins, parameters and message given', async () => {
    const result = await runCli([
      'launch',
      'link',
      '--plugin',
      'github:acme/weather@v2:plugins/now',
      '--param',
      'city=Zürich',
      '--param',
      'days=3',
      '--param',
      'metric=true',
      '--plugin',
      'https://x-access-token:${GITHUB_TOKEN}@git.example/acme/tools.git@release/1.0',
      '--message',
      '/weather:now',
      '--base',
      'https://ui.example',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^https:\/\/ui\.example\/launch\?plugins=[A-Za-z0-9%]+&message=%2Fweather%3Anow\n$/);
    expect(decodeLaunchLink(result.stdout.trim())).toEqual({
      plugins: [
        {
          source: 'github:acme/weather',
          ref: 'v2',
          repo_path: 'plugins/now',
          parameters: { city: 'Zürich', days: 3, metric: true },
        },
        {
          source: 'https://x-access-token:${GITHUB_TOKEN}@git.example/acme/tools.git',
          ref: 'release/1.0',
          repo_path: null,
          parameters: null,
        },
      ],
      message: '/weather:now',
      problems: [],
    });
  });

  it('splits SOURCE[@REF][:PATH] after the source’s own colons and at-signs', () => {
    expect(pluginOf('github:a/b')).toEqual({ source: 'github:a/b' });
    expect(pluginOf('gitlab:a/b:x/y')).toEqual({ source: 'gitlab:a/b', repo_path: 'x/y' });
    expect(pluginOf('git@github.com:a/b.git@main:p')).toEqual({
      source: 'git@github.com:a/b.git',
      ref: 'main',
      repo_path: 'p',
    });
    expect(pluginOf('ssh://git@h:2222/a/b.git@v1')).toEqual({ source: 'ssh://git@h:2222/a/b.git', ref: 'v1' });
  });

  it('exits 1 with every problem of the references, 2 for bad usage', async () => {
    const bad = await runCli(['launch', 'link', '--plugin', 'github:a/b/c', '--plugin', 'https://me:pw@h/x.git']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/plugins\[0\]\.source: .*\n.*plugins\[1\]\.source: the URL holds credentials/);
    expect((await runCli(['launch', 'link'])).code).toBe(2);
    expect((await runCli(['launch', 'link', '--param', 'a=b', '--plugin', 'github:a/b'])).code).toBe(2);
    expect((await runCli(['launch', 'link', '--plugin'])).code).toBe(2);
    expect((await runCli(['launch', 'link', '--plugin', 'github:a/b', '--bogus', 'x'])).code).toBe(2);
  });
});
