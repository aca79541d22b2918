import type { RawValues } from './chart.ts';

/** The chart values the install commands read, typed (the chart's values.schema.json has the full rules). */
export interface InstallValues {
  secretNames: Record<string, string>;
  ingress: { enabled: boolean; host: string; className: string; annotations: Record<string, string> };
  tls: { enabled: boolean; secretName: string };
  publicUrlScheme: string;
  githubEnabled: boolean;
  postgresql: { enabled: boolean; persistent: boolean; storageClass: string };
  externalDatabase: { host: string; port: number; user: string };
  redis: { enabled: boolean; externalHost: string };
  filestoreEphemeral: boolean;
  seaweedfs: { enabled: boolean; persistent: boolean; storageClass: string };
  keycloak: { enabled: boolean; ingressEnabled: boolean; hostname: string; tls: boolean };
  litellm: { enabled: boolean; envVars: string[] };
  runtimeApi: {
    enabled: boolean;
    sandboxNamespace: string;
    ingress: { enabled: boolean; host: string; tls: boolean };
    storageClass: string;
    sandboxTlsSecret: string;
    urlPattern: string;
  };
}

/** Reads the typed view; a value of the wrong type is an error naming its key. */
export function installValuesOf(values: RawValues): InstallValues {
  const at = reader(values);
  const models = at.list('litellm.proxy_config.model_list');
  const envVars = models.flatMap((model) => {
    const key = (model as { litellm_params?: { api_key?: unknown } })?.litellm_params?.api_key;
    return typeof key === 'string' && key.startsWith('os.environ/') ? [key.slice('os.environ/'.length)] : [];
  });
  const rt = 'runtime-api';
  return {
    secretNames: at.stringMap('secrets'),
    ingress: {
      enabled: at.bool('ingress.enabled'),
      host: at.string('ingress.host'),
      className: at.string('ingress.class'),
      annotations: at.stringMap('ingress.annotations'),
    },
    tls: { enabled: at.bool('tls.enabled'), secretName: at.string('tls.secretName') },
    publicUrlScheme: at.string('publicUrlScheme'),
    githubEnabled: at.bool('github.enabled'),
    postgresql: {
      enabled: at.bool('postgresql.enabled'),
      persistent: at.bool('postgresql.persistence.enabled'),
      storageClass: at.string('postgresql.persistence.storageClass'),
    },
    externalDatabase: {
      host: at.string('externalDatabase.host'),
      port: at.number('externalDatabase.port', 5432),
      user: at.string('externalDatabase.user'),
    },
    redis: { enabled: at.bool('redis.enabled'), externalHost: at.string('externalRedis.host') },
    filestoreEphemeral: at.bool('filestore.ephemeral'),
    seaweedfs: {
      enabled: at.bool('seaweedfs.enabled'),
      persistent: at.bool('seaweedfs.persistence.enabled'),
      storageClass: at.string('seaweedfs.persistence.storageClass'),
    },
    keycloak: {
      enabled: at.bool('keycloak.enabled'),
      ingressEnabled: at.bool('keycloak.ingress.enabled'),
      hostname: at.string('keycloak.ingress.hostname'),
      tls: at.bool('keycloak.ingress.tls'),
    },
    litellm: { enabled: at.bool('litellm.enabled'), envVars: [...new Set(envVars)] },
    runtimeApi: {
      enabled: at.bool(`${rt}.enabled`),
      sandboxNamespace: at.string(`${rt}.sandbox_namespace`),
      ingress: {
        enabled: at.bool(`${rt}.ingress.enabled`),
        host: at.string(`${rt}.ingress.host`),
        tls: at.bool(`${rt}.ingress.tls`),
      },
      storageClass: at.string(`${rt}.env.STORAGE_CLASS`),
      sandboxTlsSecret: at.string(`${rt}.sandboxTlsSecret`),
      urlPattern: at.string('env.RUNTIME_URL_PATTERN'),
    },
  };
}

/** Where browsers reach Keycloak (the chart's bosun.authUrl). */
export function authUrl(values: InstallValues): string {
  const https = values.keycloak.tls || values.tls.enabled || values.publicUrlScheme === 'https';
  return `${https ? 'https' : 'http'}://${authHost(values)}`;
}

export function authHost(values: InstallValues): string {
  return values.keycloak.hostname || `auth.${values.ingress.host}`;
}

/** The host of a sandbox named `id`, from env.RUNTIME_URL_PATTERN (undefined when it is not a URL). */
export function sandboxHost(values: InstallValues, id: string): string | undefined {
  try {
    return new URL(values.runtimeApi.urlPattern.replace('{runtime_id}', id)).hostname;
  } catch {
    return undefined;
  }
}

function reader(values: RawValues) {
  const get = (path: string): unknown =>
    path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], values);
  const wrong = (path: string, expected: string, value: unknown) =>
    new Error(`values: ${path} must be ${expected}, not ${JSON.stringify(value)}`);
  return {
    string(path: string): string {
      const value = get(path) ?? '';
      if (typeof value !== 'string') throw wrong(path, 'a string', value);
      return value;
    },
    bool(path: string): boolean {
      const value = get(path) ?? false;
      if (typeof value !== 'boolean') throw wrong(path, 'true or false', value);
      return value;
    },
    number(path: string, fallback: number): number {
      const value = get(path) ?? fallback;
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong(path, 'an integer', value);
      return value;
    },
    list(path: string): unknown[] {
      const value = get(path) ?? [];
      if (!Array.isArray(value)) throw wrong(path, 'a list', value);
      return value;
    },
    stringMap(path: string): Record<string, string> {
      const value = get(path) ?? {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(path, 'a map', value);
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
    },
  };
}
