import type { ConversationDeps } from '../../src/conversations/deps.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { appServerConfig } from '../../src/index.ts';
import { SANDBOX_SPECS } from '../../src/sandboxes/index.ts';
import { withGitProviders } from '../../src/sandboxes/launch.ts';
import type { Api } from '../api/harness.ts';

/** What another replica of the app's start tasks runs on over `api`'s sandboxes, with its own log and `overrides`. */
export async function replica(api: Api, overrides: Partial<ConversationDeps> = {}) {
  const logs: string[] = [];
  const note = (details: object, message: string) => logs.push(`${message} ${JSON.stringify(details)}`);
  const deps = {
    repositories: api.repositories,
    sandboxes: api.sandboxes,
    specs: withGitProviders(SANDBOX_SPECS, appServerConfig({})),
    cache: await api.replicaCache(),
    gitUrls: gitUrlsOf({}),
    gitTokens: api.repositories.providerTokens,
    llmDefaults: {},
    log: { warn: note, error: note },
    ...overrides,
  } as ConversationDeps;
  return { deps, logs };
}
