import { logFormatSetting, logLevelSetting, serviceSettings, timeoutSettings } from '@bosun/http';
import { runtimeApiKeySetting, sandboxSettings } from '@bosun/runtime';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { url, optional } from './config/fields.ts';
import { GITHUB_APP_SETTINGS } from './config/github-app.ts';
import { GIT_APP_SETTINGS, OIDC_SETTINGS } from './config/sign-in.ts';

/**
 * The app server's settings, written once: each key is also a flag (`data_dir` -> `--data-dir`), an environment
 * variable (`BOSUN_DATA_DIR`) and a key of a `--config` file. `secret` keys have no flag (command lines are
 * visible to every user of the machine) and their values are never echoed, printed or logged.
 */
export const AppServerConfig = Type.Object({
  ...serviceSettings(3000, 'Where the embedded database (app.db), objects and the generated secrets key are kept.'),
  database_url: url(
    ['postgres', 'postgresql'],
    'PostgreSQL to keep the data in (its password is never printed); none: SQLite in the data directory.',
  ),
  create_databases: Type.Boolean({
    default: true,
    description: "Create the PostgreSQL database when it does not exist (--no-create-databases: don't).",
  }),
  migrate_on_start: Type.Boolean({
    default: true,
    description:
      "Bring the database schema up to date at start (--no-migrate-on-start: don't, and refuse a schema that is " +
      'behind; `bosun migrate` migrates, e.g. as a Job before replicas start).',
  }),
  redis_url: url(
    ['redis', 'rediss'],
    'Redis shared by app replicas (start tasks, rate limits, revoked sessions); none: in-process.',
  ),
  s3_bucket: optional({ minLength: 1, description: 'S3 bucket for event and workspace archives; none: on disk.' }),
  s3_endpoint: url(['http', 'https'], 'S3-protocol endpoint (MinIO, Ceph...; path-style); none: AWS S3.'),
  s3_region: optional({ minLength: 1, description: 'Region of the S3 bucket (default: us-east-1).' }),
  s3_access_key_id: optional({ minLength: 1, description: 'S3 access key id (none: the AWS SDK default chain).' }),
  s3_secret_access_key: optional({ minLength: 1, secret: true, description: 'S3 secret access key.' }),
  secrets_key: optional({
    secret: true,
    pattern: '^[A-Za-z0-9+/]{43}=$',
    expected: 'base64 of 32 bytes',
    description:
      'Key sealing secrets at rest (AES-256-GCM): base64 of 32 bytes (default: derived from jwt_secret, else ' +
      'generated into <data_dir>/secrets.key).',
  }),
  secrets_key_previous: Type.Array(Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }), {
    expected: 'a list (comma-separated in a variable) of base64 keys of 32 bytes',
    default: [],
    secret: true,
    description: 'Older keys: what they sealed is read, then sealed again with the current key (rotation).',
  }),
  jwt_secret: optional({
    minLength: 16,
    expected: 'at least 16 characters',
    secret: true,
    description: 'Secret of this install (sessions; the secrets key is derived from it when none is given).',
  }),
  jwt_secret_previous: Type.Array(Type.String({ minLength: 16 }), {
    default: [],
    secret: true,
    expected: 'a list (comma-separated in a variable) of secrets of at least 16 characters',
    description: 'Older JWT secrets: what keys derived from them sealed is read, then sealed again (rotation).',
  }),
  llm_model: optional({ description: "Users' default model until their settings name one." }),
  llm_base_url: optional({ description: 'Base URL of that model (any OpenAI-compatible server).' }),
  llm_api_key: optional({ secret: true, description: 'API key of that model.' }),
  public_url: url(
    ['http', 'https'],
    'URL people and sandboxes reach this server at (sign-in links); default: the address it listens on.',
  ),
  ...OIDC_SETTINGS,
  git_github_url: optional({
    minLength: 1,
    description:
      'Base URL repositories (`owner/repo`) and github: plugins are cloned from (default: https://github.com).',
  }),
  git_gitlab_url: optional({ minLength: 1, description: 'The same for GitLab (default: https://gitlab.com).' }),
  git_bitbucket_url: optional({
    minLength: 1,
    description: 'The same for Bitbucket (default: https://bitbucket.org).',
  }),
  ...GIT_APP_SETTINGS,
  ...GITHUB_APP_SETTINGS,
  plugin_directory_source: optional({
    minLength: 1,
    description:
      'The instance plugin marketplace the Plugin Directory lists: `github:owner/repo` (cloned from git_github_url) ' +
      'or a Git URL; none: the directory is empty.',
  }),
  plugin_directory_ref: optional({
    minLength: 1,
    description: 'Its branch, tag or commit (default: its default branch).',
  }),
  plugin_directory_path: optional({
    minLength: 1,
    description: 'Its directory in the repository (default: the root).',
  }),
  plugin_directory_refresh: Type.Number({
    minimum: 0,
    default: 300,
    description: 'Seconds the directory serves what it read before asking the marketplace’s ref again.',
  }),
  plugin_directory_featured: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    expected: 'a list (comma-separated in a variable) of plugin names',
    description: 'The plugins the directory features.',
  }),
  git_allow_private_hosts: Type.Boolean({
    default: false,
    description:
      'Let the server fetch marketplaces from Git providers, and ask a Git token’s own host, at loopback or private ' +
      'addresses (refused by default).',
  }),
  marketplace_ref_ttl: Type.Number({
    minimum: 0,
    maximum: 300,
    default: 5,
    description:
      'Seconds the commit an auto-loaded marketplace’s ref names, looked up for a start, answers the starts after it ' +
      'asking the same repository and ref with the same credentials (0: only starts asking at once share one lookup).',
  }),
  instance_marketplaces: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    expected: 'a list (comma-separated in a variable) of source#name#ref#repo_path#auto_load',
    description:
      'Marketplaces of every user (read-only in the API): `source#name#ref#repo_path#auto_load`, all but the ' +
      'source optional; the name defaults to the source’s, auto_load to true.',
  }),
  sandbox_command: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      expected: 'a command and its arguments (comma-separated in a variable)',
      description:
        'What starts a local sandbox, before `agent-server` and its flags (default: the Bosun this server runs).',
    }),
  ),
  max_running_sandboxes: Type.Integer({
    minimum: 0,
    default: 10,
    description: "Running sandboxes per user; one more pauses the user's least recently started (0: no cap).",
  }),
  sandbox_warm_pool_size: Type.Integer({
    minimum: 0,
    maximum: 16,
    default: 0,
    description:
      'Sandboxes kept started ahead in the embedded runtime, for new sandboxes of users on the LLM defaults (0: none).',
  }),
  sandbox_start_timeout: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description: "Seconds a sandbox's agent server may take to start before the sandbox is ERROR.",
  }),
  sandbox_isolation: Type.Union([Type.Literal('bubblewrap'), Type.Literal('unsafe-none')], {
    default: 'bubblewrap',
    description:
      'How local sandboxes are isolated: bubblewrap (needed installed, else the server does not start), or ' +
      'unsafe-none: plain processes that see everything this server sees (its data, its environment).',
  }),
  ...sandboxSettings(),
  sandbox_urls: Type.Union([Type.Literal('auto'), Type.Literal('direct'), Type.Literal('proxied')], {
    default: 'auto',
    description:
      'The agent server URL browsers are given (conversation_url, exposed_urls): proxied through this server at ' +
      "<public_url>/sandboxes/<id>/agent, direct (the sandbox's own address), or auto: proxied unless both this " +
      'server and public_url are on loopback.',
  }),
  runtime_api_url: url(
    ['http', 'https'],
    'A runtime service (`bosun runtime-api`) to run sandboxes in; none: a runtime embedded in this server.',
  ),
  runtime_api_key: runtimeApiKeySetting("The runtime service's API key (X-API-Key)."),
  event_sweep_interval: Type.Number({
    minimum: 0,
    default: 5,
    description:
      "Seconds between two sweeps of running sandboxes' conversations for events the app lacks (0: no sweep).",
  }),
  start_task_lease: Type.Number({
    minimum: 1,
    maximum: 3600,
    default: 60,
    description:
      'Seconds a start task its app server stopped touching waits before another replica takes it over ' +
      '(touched every quarter, swept every half of it; the same on every replica).',
  }),
  license: optional({
    secret: true,
    description:
      "The license: a signed license file's content (usually its path, BOSUN_LICENSE_FILE); none: community mode. " +
      'Verified offline at start; one that does not verify (or has expired) runs in community mode too, saying why in ' +
      'the log and in /server_info.',
  }),
  log_level: logLevelSetting(),
  log_format: logFormatSetting(),
  ...timeoutSettings(),
});
export type AppServerConfig = Static<typeof AppServerConfig>;

/** `values` with every key it leaves out set to its default (for tests and embedders). */
export function appServerConfig(values: Partial<AppServerConfig> = {}): AppServerConfig {
  const defaults: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(AppServerConfig.properties as Record<string, TSchema>)) {
    if (schema.default !== undefined) defaults[key] = structuredClone(schema.default);
  }
  return { ...defaults, ...values } as AppServerConfig;
}
