import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KeyRing, createRepositories, newSecretsKey, openDatabase } from '../../src/data/index.ts';
import { appServerConfig } from '../../src/index.ts';
import { sandboxNetwork } from '../../src/sandboxes/index.ts';
import { sandboxLaunch } from '../../src/sandboxes/launch.ts';

/** What a new sandbox may reach, decided per start from `sandbox_network` and what it needs. */
describe('sandbox network', () => {
  const needed = ['https://api.openai.com/v1', 'http://127.0.0.1:3000'];

  it('under none: only what it needs (the LLM endpoint, the app), each as host and port', () => {
    expect(sandboxNetwork('none', [], needed)).toEqual({
      mode: 'allow',
      hosts: [
        { host: 'api.openai.com', port: 443 },
        { host: '127.0.0.1', port: 3000 },
      ],
    });
  });

  it('under none with nothing needed: no network at all', () => {
    expect(sandboxNetwork('none', [], [null, undefined, 'not a url', 'file:///etc/passwd'])).toEqual({ mode: 'none' });
  });

  it('under allow: the configured hosts, then what it needs, each once', () => {
    const configured = ['pypi.org:443', '[::1]:8080', 'api.openai.com:443'];
    expect(sandboxNetwork('allow', configured, [...needed, 'http://[::1]:8080/x'])).toEqual({
      mode: 'allow',
      hosts: [
        { host: 'pypi.org', port: 443 },
        { host: '::1', port: 8080 },
        { host: 'api.openai.com', port: 443 },
        { host: '127.0.0.1', port: 3000 },
      ],
    });
  });

  it('under open: the host network as it is', () => {
    expect(sandboxNetwork('open', [], needed)).toEqual({ mode: 'open' });
  });
});

describe('a new sandbox of the app', () => {
  it('reaches the Git hosts configured for the providers (a marketplace on a company GitLab is cloned there)', async () => {
    const keyRing = new KeyRing(newSecretsKey());
    const dir = await mkdtemp(join(tmpdir(), 'bosun-sandbox-launch-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const database = await openDatabase({ dataDir: dir, keyRing });
    onTestFinished(() => database.close());
    const config = appServerConfig({ data_dir: dir, git_gitlab_url: 'http://git.example.internal:8929' });
    const launch = sandboxLaunch(
      config,
      createRepositories(database, keyRing),
      () => ({}),
      () => 'http://127.0.0.1:3000',
      {
        embedded: true,
      },
    );
    expect((await launch(null)).network).toEqual({
      mode: 'allow',
      hosts: [
        { host: '127.0.0.1', port: 3000 },
        { host: 'git.example.internal', port: 8929 },
      ],
    });
  });
});
