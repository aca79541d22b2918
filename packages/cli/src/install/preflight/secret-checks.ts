import type { V1Secret } from '@kubernetes/client-node';
import type { Cluster } from '../cluster.ts';
import { type InstallValues, authUrl } from '../install-values.ts';
import { type RequiredSecret, isPlaceholder, requiredSecrets } from '../secret-table.ts';
import { type CheckResult, fail, pass } from './check.ts';

/** Each Secret of the chart's table exists with its keys and no placeholder left; the pairs that must agree do. */
export async function secretChecks(cluster: Cluster, values: InstallValues, namespace: string): Promise<CheckResult[]> {
  if ((await cluster.namespaceExists(namespace)) === false) {
    return [
      fail(
        `namespace ${namespace}`,
        'does not exist',
        `kubectl create namespace ${namespace}, then bosun install secrets -n ${namespace} --apply`,
      ),
    ];
  }
  const required = requiredSecrets(values);
  const found = await Promise.all(required.map((secret) => cluster.secret(namespace, secret.name)));
  const data = found.map((secret) => (secret ? decoded(secret) : undefined));
  const results = required.map((secret, i) => secretCheck(secret, data[i], namespace));
  const of = (ref: string) => data[required.findIndex((secret) => secret.ref === ref)];
  const names = values.secretNames;
  const app = of('sandboxApiKey')?.['sandbox-api-key'];
  const runtime = of('defaultApiKey')?.['default-api-key'];
  if (app !== undefined && runtime !== undefined && app !== runtime) {
    const check = `secrets ${names.sandboxApiKey} and ${names.defaultApiKey}`;
    results.push(
      fail(
        check,
        "differ: the app's key for the runtime API and the runtime API's key must be equal",
        'give both the same value (bosun install secrets makes them equal)',
      ),
    );
  }
  const serverUrl = of('keycloakRealm')?.['server-url'];
  if (serverUrl !== undefined && !isPlaceholder(serverUrl) && serverUrl.replace(/\/$/, '') !== authUrl(values)) {
    const detail = `server-url is ${serverUrl} but Keycloak is served at ${authUrl(values)}: the app's issuer would not match its tokens`;
    results.push(fail(`secret ${names.keycloakRealm}`, detail, `set its server-url to ${authUrl(values)}`));
  }
  return results;
}

function secretCheck(secret: RequiredSecret, data: Record<string, string> | undefined, namespace: string): CheckResult {
  const check = `secret ${secret.name}`;
  const keys = secret.keys.map(({ key }) => key);
  if (!data) {
    const detail = `missing in namespace ${namespace} (keys: ${keys.join(', ') || 'none yet'}; values key secrets.${secret.ref})`;
    return fail(
      check,
      detail,
      `bosun install secrets -n ${namespace} [-f VALUES.yaml]... --apply, or create it as the chart's README shows`,
    );
  }
  const absent = keys.filter((key) => !(key in data));
  if (absent.length) {
    return fail(
      check,
      `has no key ${absent.join(', ')}`,
      `add ${absent.join(', ')} to Secret ${secret.name} in namespace ${namespace}`,
    );
  }
  const unfilled = keys.filter((key) => isPlaceholder(data[key] ?? ''));
  if (unfilled.length) {
    const patch = JSON.stringify({ stringData: Object.fromEntries(unfilled.map((key) => [key, '...'])) });
    const detail = `${unfilled.join(', ')} still hold${unfilled.length === 1 ? 's' : ''} the placeholder of bosun install secrets`;
    return fail(check, detail, `kubectl -n ${namespace} patch secret ${secret.name} -p '${patch}'`);
  }
  return pass(check, keys.length ? `has ${keys.join(', ')}` : 'exists');
}

function decoded(secret: V1Secret): Record<string, string> {
  return Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]),
  );
}
