import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LlmReplay, type LlmReplayOptions, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll } from 'vitest';
import { type RunningAppServer, appServerConfig, startAppServer } from '../../src/index.ts';
import { SANDBOX_COMMAND } from '../sandboxes/bundle.ts';

export interface ServerWithReplay {
  running: RunningAppServer;
  replay: LlmReplay;
  dataDir: string;
}

/**
 * For the file's tests (started before them, closed after): the whole server as `bosun serve` runs it (SQLite,
 * in-process cache) with a fast event sweep, and llm-replay playing `script`. Its sandboxes are not isolated (the
 * wiring, not the isolation: test/sandboxes/): their agent reaches llm-replay wherever it listens. The fields are
 * there once the tests run.
 */
export function serverWithReplay(prefix: string, script: LlmReplayOptions['script']): ServerWithReplay {
  const setup = {} as ServerWithReplay;
  let root: string | undefined;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
    // Sandboxes run as another user, who must reach the runtime's root inside it.
    await chmod(root, 0o711);
    setup.dataDir = join(root, 'data');
    setup.replay = await startLlmReplay({ script });
    setup.running = await startAppServer(
      appServerConfig({
        port: 0,
        log_level: 'silent',
        data_dir: setup.dataDir,
        event_sweep_interval: 0.2,
        sandbox_isolation: 'unsafe-none',
        sandbox_command: SANDBOX_COMMAND,
      }),
    );
  });
  afterAll(async () => {
    await setup.running?.close();
    await setup.replay?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });
  return setup;
}
