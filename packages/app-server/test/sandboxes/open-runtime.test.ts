import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuntimeUnavailableError } from '@bosun/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appServerConfig } from '../../src/index.ts';
import { openSandboxRuntime } from '../../src/sandboxes/index.ts';

/**
 * The runtime the configuration names: without bubblewrap no sandbox starts unless unsafe-none, which is then said
 * aloud.
 */
describe('the sandboxes runtime from the settings', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bosun-open-runtime-'));
    await chmod(dataDir, 0o711);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('without bubblewrap, opens a runtime that refuses every start, saying why and naming the setting', async () => {
    const warnings: string[] = [];
    const config = appServerConfig({ data_dir: dataDir });
    const opened = await openSandboxRuntime(config, {
      bwrapPath: join(dataDir, 'no-bwrap-here'),
      logger: { warn: (message) => warnings.push(message) },
    });
    const why = /^sandbox_isolation: bubblewrap is not installed.*unsafe-none/;
    expect(opened.description).toMatch(/^Sandboxes: none can start: sandbox_isolation: bubblewrap is not installed/);
    expect(warnings).toEqual([expect.stringMatching(/^no sandbox can start: sandbox_isolation: bubblewrap/)]);
    const start = opened.runtime.start({ sessionId: 'never', command: ['true'] } as never);
    await expect(start).rejects.toThrow(RuntimeUnavailableError);
    await expect(start).rejects.toThrow(why);
    // The readiness probe asks its health: not answering.
    await expect(opened.runtime.health()).rejects.toThrow(why);
    expect(await opened.runtime.list()).toEqual([]);
  });

  it('with unsafe-none, runs them unisolated and warns; with bubblewrap, isolated', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const unsafe = await openSandboxRuntime(appServerConfig({ data_dir: dataDir, sandbox_isolation: 'unsafe-none' }), {
      logger,
    });
    expect(unsafe).toMatchObject({ embedded: true, description: expect.stringContaining('NOT isolated') });
    const health = await unsafe.runtime.health();
    expect(health).toMatchObject({ backend: 'local', isolated: false });
    // Bubblewrap is installed here: the health says why sandboxes are not isolated all the same.
    expect(health.notEnforced).toEqual([
      'isolation is turned off (isolation: none): sandboxes are plain processes that see everything the runtime sees',
    ]);
    expect(warnings.join('\n')).toMatch(/NOT isolated/);
    await unsafe.runtime.close();

    const isolated = await openSandboxRuntime(appServerConfig({ data_dir: dataDir }), { logger });
    expect(await isolated.runtime.health()).toMatchObject({ isolated: true });
    expect(isolated.description).toBe(`Sandboxes: bubblewrap, in ${join(dataDir, 'sandboxes')}`);
    await isolated.runtime.close();
  });

  it('is a client of the runtime service the settings name', async () => {
    const config = appServerConfig({
      data_dir: dataDir,
      runtime_api_url: 'http://127.0.0.1:9/',
      runtime_api_key: 'a-runtime-api-key-of-16+',
    });
    const remote = await openSandboxRuntime(config);
    expect(remote).toMatchObject({ embedded: false, description: 'Sandboxes: runtime service http://127.0.0.1:9/' });
    await expect(remote.runtime.health()).rejects.toThrow();
  });
});
