import { join } from 'node:path';
import type { GitProviders } from '@bosun/sources';
import type { Repositories } from '../data/index.ts';
import type { ProviderTokenReader } from '../git/token-renewal.ts';
import { PluginCommits } from './commits.ts';
import { PluginTrustGate } from './gate.ts';

export { PluginCommits, type PluginRef } from './commits.ts';
export { PluginTrustGate, PluginTrustRequiredError } from './gate.ts';

/** The trust check of starts, asking the configured providers (a Git cache under `dataDir`) for commits. */
export function pluginTrustGate(
  repositories: Pick<Repositories, 'pluginTrust'>,
  gitTokens: ProviderTokenReader,
  providers: Required<GitProviders>,
  dataDir: string,
): PluginTrustGate {
  return new PluginTrustGate({
    repositories,
    gitTokens,
    providers,
    commits: new PluginCommits(providers, join(dataDir, 'cache', 'git')),
  });
}
