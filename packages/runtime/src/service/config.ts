import { logLevelSetting, serviceSettings } from '@bosun/http';
import { type Static, Type } from '@sinclair/typebox';
import { runtimeApiKeySetting, sandboxSettings } from '../settings.ts';

const text = (options: Parameters<typeof Type.String>[0]) => Type.Optional(Type.String(options));
const service = serviceSettings(
  5000,
  'Where the embedded database (runtime.db), the generated secrets key and sandboxes are kept.',
);
const seconds = (fallback: number, description: string) =>
  Type.Integer({ minimum: 0, maximum: 31_536_000, default: fallback, description });

/**
 * The runtime API service's settings (`bosun runtime-api`), written once: each key is also a flag
 * (`data_dir` -> `--data-dir`), an environment variable (`BOSUN_DATA_DIR`) and a key of a `--config` file.
 * `secret` keys have no flag (command lines are visible to every user of the machine) and are never echoed.
 */
export const RuntimeApiConfig = Type.Object({
  ...service,
  // Not the app's `.bosun`: the two must not share a data directory (nor its secrets key).
  data_dir: Type.String({ ...service.data_dir, default: '.bosun-runtime' }),
  sandbox_root: text({
    minLength: 1,
    description: "Where sandboxes' workspaces live (default: <data_dir>/sandboxes).",
  }),
  database_url: text({
    pattern: '^(postgres|postgresql)://',
    expected: 'a postgres:// or postgresql:// URL',
    description: "PostgreSQL to keep sandboxes' records in (may be the app's); none: SQLite in the data directory.",
  }),
  create_databases: Type.Boolean({
    default: true,
    description: "Create the PostgreSQL database when it does not exist (--no-create-databases: don't).",
  }),
  runtime_api_key: runtimeApiKeySetting(
    "The key callers give in X-API-Key (the app's runtime_api_key: one key, OpenHands' sandbox-api-key and " +
      'default-api-key pair).',
  ),
  runtime_api_key_file: text({ minLength: 1, description: 'A file holding that key (its first line).' }),
  runtime_api_key_previous: Type.Array(Type.String({ minLength: 16 }), {
    expected: 'a list (comma-separated in a variable) of keys of at least 16 characters',
    default: [],
    secret: true,
    description: 'Older keys still taken in X-API-Key while the apps move to the new one (a rotation).',
  }),
  secrets_key: text({
    secret: true,
    pattern: '^[A-Za-z0-9+/]{43}=$',
    expected: 'base64 of 32 bytes',
    description: "Key sealing sandboxes' specs at rest (default: generated into <data_dir>/secrets.key).",
  }),
  secrets_key_file: text({ minLength: 1, description: 'A file holding that key.' }),
  runtime_backend: Type.Union([Type.Literal('local'), Type.Literal('kubernetes')], {
    default: 'local',
    description: 'Where sandboxes run: local (bubblewrap on this machine) or kubernetes (pods; see `kubernetes`).',
  }),
  kubernetes: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      flag: false,
      expected: 'an object (JSON in BOSUN_KUBERNETES)',
      description:
        "The Kubernetes backend's settings (namespace, image, runtime_base_url, storage_class...: the runtime README), " +
        'checked at start.',
    }),
  ),
  unsafe_no_isolation: Type.Boolean({
    default: false,
    description: 'Without bubblewrap, run sandboxes as plain processes that see everything this one sees.',
  }),
  ...sandboxSettings(),
  idle_seconds: seconds(1200, 'A running sandbox idle this long is paused (0: never).'),
  dead_seconds: seconds(5_184_000, 'A paused or failed sandbox unchanged this long loses its workspace (0: never).'),
  warm_pool_size: Type.Integer({
    minimum: 0,
    maximum: 64,
    default: 0,
    description: 'Sandboxes kept started ahead of time, served to starts of the pool shape (0: no pool).',
  }),
  warm_pool_environment: Type.Array(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*=' }), {
    default: [],
    secret: true,
    expected: 'a list (comma-separated in a variable) of NAME=value',
    description: "The warm pool's environment (what the app sends every sandbox, e.g. its LLM settings).",
  }),
  warm_pool_working_dir: text({ pattern: '^/', expected: 'an absolute path', description: 'The pool shape.' }),
  log_level: logLevelSetting(),
});
export type RuntimeApiConfig = Static<typeof RuntimeApiConfig>;
