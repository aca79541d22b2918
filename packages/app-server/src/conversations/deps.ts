import type { Cache } from '../cache/index.ts';
import type { Repositories } from '../data/index.ts';
import type { GitHubApp } from '../git/apps/github-app.ts';
import type { GitProviderUrls } from '../git/provider-urls.ts';
import type { ProviderTokenReader } from '../git/token-renewal.ts';
import type { AutoLoad } from '../marketplaces/auto-load.ts';
import type { SandboxSpec, Sandboxes } from '../sandboxes/index.ts';
import type { LlmDefaults } from '../settings/llm-defaults.ts';
import type { SkillRepositoryDiscovery } from '../skill-repositories/discovery.ts';
import type { PluginTrustGate } from '../trust/index.ts';

/** Where the conversations write what happens away from any request. */
export interface ConversationLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What the conversations of the application need. */
export interface ConversationDeps {
  repositories: Pick<
    Repositories,
    'conversations' | 'startTasks' | 'settings' | 'secrets' | 'providerTokens' | 'pendingMessages'
  >;
  sandboxes: Sandboxes;
  /** The first is the spec new sandboxes start from. */
  specs: readonly SandboxSpec[];
  /** Start tasks' progress is published on it (to every replica). */
  cache: Cache;
  gitUrls: GitProviderUrls;
  /** The users' provider tokens as a start uses them: renewed when they expire. */
  gitTokens: ProviderTokenReader;
  /** Whether a repository may be cloned from a token's own host at a private address (`git_allow_private_hosts`). */
  allowPrivateHosts?: boolean;
  llmDefaults: LlmDefaults;
  log: ConversationLog;
  /** The trust a start's plugins need (a 409 without it). */
  pluginTrust: PluginTrustGate;
  /** The auto-loaded marketplaces of a new conversation (none when absent). */
  autoLoad?: (userId: string, orgId: string | null) => Promise<AutoLoad>;
  /** The organization and user skills repositories of a start (none looked for when absent). */
  skillRepositories?: Pick<SkillRepositoryDiscovery, 'find' | 'withCredentials'>;
  /** The GitHub App whose installations clone what the user may read but their token cannot (none when absent). */
  githubApp?: GitHubApp | undefined;
  /** The app's URL as sandboxes reach it (throws while it has none): their provider tokens are looked up there. */
  publicUrl?: () => string;
  /** How long the agent server may take to start a conversation (it may fetch plugins first). */
  agentTimeoutMs?: number;
}
