import { type InstallValues, authUrl } from './install-values.ts';

/** Where the value of a secret's key comes from when `bosun install secrets` makes it. */
export type KeySource =
  /** Random hex of `bytes` bytes after `prefix`; keys with the same `shared` label get the same value. */
  | { kind: 'random'; bytes: number; prefix?: string; shared?: string }
  /** Known from the values. */
  | { kind: 'value'; value: string }
  /** Only the operator knows it: a placeholder saying what to put there. */
  | { kind: 'operator'; what: string }
  /** The GitHub App's private key: the PEM file given, else a placeholder. */
  | { kind: 'github-app-pem' };

export interface SecretKey {
  key: string;
  source: KeySource;
}

/** A Secret the chart reads: its name (from `secrets.<ref>`) and keys. */
export interface RequiredSecret {
  ref: string;
  name: string;
  keys: SecretKey[];
  /** What to know about it when it has no key yet. */
  emptyNote?: string;
}

const random = (bytes = 24, more: { prefix?: string; shared?: string } = {}): KeySource => ({
  kind: 'random',
  bytes,
  ...more,
});
const operator = (what: string): KeySource => ({ kind: 'operator', what });
const value = (text: string): KeySource => ({ kind: 'value', value: text });

/**
 * Every Secret the chart needs for these values, with its keys: the secrets table of the chart's README.md, and
 * what its `bosun.requiredSecrets` template asks at install (the chart's tests hold the two to each other).
 */
export function requiredSecrets(values: InstallValues): RequiredSecret[] {
  const secrets: RequiredSecret[] = [];
  const add = (ref: string, keys: Record<string, KeySource>, emptyNote?: string) => {
    const name = values.secretNames[ref];
    if (!name) throw new Error(`values: secrets.${ref} is empty: it names the Secret to read`);
    const list = Object.entries(keys).map(([key, source]) => ({ key, source }));
    secrets.push({ ref, name, keys: list, ...(list.length === 0 && emptyNote ? { emptyNote } : {}) });
  };
  add('jwt', { 'jwt-secret': random(32) });
  if (values.runtimeApi.enabled) {
    add('sandboxApiKey', { 'sandbox-api-key': random(24, { shared: 'runtime-api-key' }) });
    add('defaultApiKey', { 'default-api-key': random(24, { shared: 'runtime-api-key' }) });
  }
  if (values.postgresql.enabled) {
    add('postgres', { username: value('bosun'), password: random(), 'postgres-password': random() });
  } else {
    const { user, host } = values.externalDatabase;
    add('postgres', {
      password: operator(`the password of ${user || 'externalDatabase.user'} on ${host || 'externalDatabase.host'}`),
    });
  }
  if (values.redis.enabled) add('redis', { 'redis-password': random() });
  else if (values.redis.externalHost) {
    add('redis', { 'redis-password': operator(`the password of the Redis at ${values.redis.externalHost}`) });
  }
  if (values.litellm.enabled) {
    add('litellmApiKey', { 'litellm-api-key': random(24, { prefix: 'sk-' }) });
    const providerKeys = values.litellm.envVars.map((name) => [name, operator(`the provider API key ${name}`)]);
    const none =
      'No model names a provider key yet: add VAR for each api_key: os.environ/VAR of litellm.proxy_config.model_list.';
    add('litellmEnv', Object.fromEntries(providerKeys), none);
  }
  if (values.keycloak.enabled) {
    add('keycloakAdmin', { 'admin-password': random() });
    add('keycloakRealm', {
      'realm-name': value('bosun'),
      'server-url':
        values.ingress.host || values.keycloak.hostname
          ? value(authUrl(values))
          : operator('the URL browsers reach Keycloak at'),
      'client-id': value('bosun'),
      'client-secret': random(),
      'smtp-password': value(''),
    });
  }
  if (values.githubEnabled) {
    add('githubApp', {
      'app-id': operator("the GitHub App's App ID"),
      'app-slug': operator("the GitHub App's slug (its URL name)"),
      'client-id': operator("the GitHub App's Client ID"),
      'client-secret': operator("a client secret generated in the GitHub App's settings"),
      'private-key': { kind: 'github-app-pem' },
      'webhook-secret': random(),
    });
  }
  if (values.filestoreEphemeral) {
    add('objectStore', { 'access-key-id': random(10, { prefix: 'bosun' }), 'secret-access-key': random() });
  } else {
    add('objectStore', {
      'access-key-id': operator("the access key ID of the bucket's credentials"),
      'secret-access-key': operator("the secret access key of the bucket's credentials"),
    });
  }
  return secrets;
}

/** The mark of a placeholder `bosun install secrets` writes where only the operator knows the value. */
export const PLACEHOLDER = 'REPLACE-ME';

export function placeholder(what: string): string {
  return `${PLACEHOLDER}: ${what}`;
}

export function isPlaceholder(text: string): boolean {
  return text.startsWith(PLACEHOLDER);
}
