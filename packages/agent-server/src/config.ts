import { resolve } from 'node:path';
import { logFormatSetting, logLevelSetting, serviceSettings, timeoutSettings, timeoutsOf } from '@bosun/http';
import { type Static, Type } from '@sinclair/typebox';
import type { AgentServerOptions } from './app.ts';

/**
 * The agent server's settings, written once: each key is also a flag (`data_dir` -> `--data-dir`), an environment
 * variable (`BOSUN_DATA_DIR`) and a key of a `--config` file. `secret` keys have no flag (command lines are
 * visible to every user of the machine) and their values are never echoed in errors.
 */
export const AgentServerConfig = Type.Object({
  ...serviceSettings(8000, 'Where conversations, their events and the secrets key are kept.'),
  log_level: logLevelSetting(),
  log_format: logFormatSetting(),
  ...timeoutSettings(),
  session_api_keys: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    secret: true,
    description: 'When set, every /api/* request needs one of these keys in an X-Session-API-Key header.',
  }),
  llm_model: Type.Optional(
    Type.String({
      description:
        'Model of conversations started without an agent (anthropic/* and claude* use the Anthropic API); ' +
        'none: each conversation brings its own "agent.llm".',
    }),
  ),
  llm_base_url: Type.Optional(
    Type.String({ description: 'Base URL of that model (any OpenAI-compatible server: LiteLLM, vLLM, Ollama).' }),
  ),
  llm_api_key: Type.Optional(Type.String({ secret: true, description: 'API key of that model.' })),
  git_github_url: Type.Optional(
    Type.String({ description: 'Base URL of github: sources (skills, plugins, marketplaces).' }),
  ),
  git_gitlab_url: Type.Optional(Type.String({ description: 'Base URL of gitlab: sources.' })),
  git_bitbucket_url: Type.Optional(Type.String({ description: 'Base URL of bitbucket: sources.' })),
  git_cache_dir: Type.Optional(
    Type.String({ description: 'Where fetched commits are kept (default: <data_dir>/git).' }),
  ),
  secrets_key: Type.Optional(
    Type.String({
      secret: true,
      description: 'Key sealing secrets at rest: base64 of 32 bytes (default: generated into <data_dir>/secrets.key).',
    }),
  ),
  secrets_key_file: Type.Optional(
    Type.String({ description: 'A file holding that key; refused together with secrets_key from the same source.' }),
  ),
  secrets_key_previous: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    secret: true,
    description: 'Older keys: data sealed with them is read, then sealed again with the current key.',
  }),
  workspace_root: Type.Optional(
    Type.String({ minLength: 1, description: "When set, every conversation's working_dir must be inside it." }),
  ),
  webhook_base_url: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#@]+(/[^\\s?#]*)?$',
      expected: 'an http:// or https:// URL without a query, a fragment or credentials',
      description:
        'When set, every committed event is posted to <url>/events/<conversation id> (JSON arrays, in order) and ' +
        "each conversation's info to <url>/conversations when its status, title or metrics change.",
    }),
  ),
  webhook_flush_ms: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 100,
    description: 'How long events may wait to be posted together (0: at once).',
  }),
  webhook_batch_size: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 50,
    description: 'The most events in one webhook post.',
  }),
  conversation_setup_timeout: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description:
      "Seconds a conversation's plugins, skills and MCP servers may take to load; past it the conversation starts " +
      'without what did not load, and says so in its events.',
  }),
  warm_up: Type.Boolean({
    default: true,
    description:
      'Before answering ready, pay what the first conversation costs (its modules, request validators, a ' +
      'throwaway conversation in memory) instead of the first user (--no-warm-up: do not).',
  }),
  allow_cors_origins: Type.Array(Type.String({ pattern: '^(\\*|https?://[^\\s/?#@]+)$' }), {
    default: [],
    expected: 'a list (comma-separated in a flag or variable) of origins such as https://app.example.com, or *',
    description:
      'Origins whose web pages may call this server (CORS; * for any). When set, a WebSocket handshake from a ' +
      'page of another origin is refused.',
  }),
});
export type AgentServerConfig = Static<typeof AgentServerConfig>;

/** What `buildAgentServer` needs from the configuration (the address to listen on is the caller's). */
export function agentServerOptions(config: AgentServerConfig): AgentServerOptions {
  const model = config.llm_model;
  const providers = {
    ...(config.git_github_url ? { github: config.git_github_url } : {}),
    ...(config.git_gitlab_url ? { gitlab: config.git_gitlab_url } : {}),
    ...(config.git_bitbucket_url ? { bitbucket: config.git_bitbucket_url } : {}),
  };
  return {
    dataDir: config.data_dir,
    sessionApiKeys: config.session_api_keys,
    secretsKey: {
      ...(config.secrets_key ? { key: config.secrets_key } : {}),
      ...(config.secrets_key_file ? { keyFile: config.secrets_key_file } : {}),
      previousKeys: config.secrets_key_previous,
    },
    ...(model
      ? {
          defaultLlm: {
            model,
            ...(config.llm_base_url ? { base_url: config.llm_base_url } : {}),
            ...(config.llm_api_key ? { api_key: config.llm_api_key } : {}),
          },
        }
      : {}),
    logLevel: config.log_level,
    logFormat: config.log_format,
    timeouts: timeoutsOf(config),
    setupTimeoutMs: config.conversation_setup_timeout * 1000,
    warmUp: config.warm_up,
    gitProviders: providers,
    ...(config.git_cache_dir ? { gitCacheDir: config.git_cache_dir } : {}),
    ...(config.workspace_root ? { workspaceRoot: resolve(config.workspace_root) } : {}),
    ...(config.webhook_base_url
      ? {
          webhooks: {
            baseUrl: config.webhook_base_url,
            flushMs: config.webhook_flush_ms,
            batchSize: config.webhook_batch_size,
          },
        }
      : {}),
    allowCorsOrigins: config.allow_cors_origins,
  };
}
