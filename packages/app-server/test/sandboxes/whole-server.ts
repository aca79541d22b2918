import { chmod } from 'node:fs/promises';
import type { AppServerClient } from '@bosun/client';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import type { AppServerConfig, RunningAppServer } from '../../src/index.ts';
import { appServerConfig, startAppServer } from '../../src/index.ts';
import type { EachDatabase } from '../support/databases.ts';
import { type Repositories, conversationRow, newUser, repositoriesOf } from '../support/server-users.ts';

/** The whole server as `bosun serve` runs it, on `each`'s database, and a user of it. */
export interface WholeServer {
  running: RunningAppServer;
  repositories: Repositories;
  dataDir: string;
  /** A new user's id, API key and client of the server. */
  user(): Promise<{ id: string; key: string; app: AppServerClient }>;
  /**
   * A row of the user's conversation `id` in their sandbox (as a conversation started on the agent server gets
   * one), so that the app lists it.
   */
  conversationRow(userId: string, sandboxId: string, id: string): Promise<void>;
}

/**
 * The whole server (services, routes, sockets and the proxy as `startAppServer` wires them) on `each`'s database,
 * with `config` over fast test defaults: sandboxes not isolated (their processes run from the test bundle), no
 * event sweep. The caller closes `running`.
 */
export async function startWholeServer(each: EachDatabase, config: Partial<AppServerConfig>): Promise<WholeServer> {
  const target = await each.target();
  // Sandboxes run as another user, who must reach the runtime's root inside it.
  await chmod(target.dataDir, 0o711);
  const running = await startAppServer(
    appServerConfig({
      port: 0,
      log_level: 'silent',
      data_dir: target.dataDir,
      ...(target.url ? { database_url: target.url } : {}),
      event_sweep_interval: 0,
      sandbox_isolation: 'unsafe-none',
      sandbox_command: SANDBOX_COMMAND,
      ...config,
    }),
  );
  const repositories = repositoriesOf(running);
  return {
    running,
    repositories,
    dataDir: target.dataDir,
    user: () => newUser(running),
    conversationRow: (userId, sandboxId, id) => conversationRow(repositories, { id, userId, sandboxId }),
  };
}
