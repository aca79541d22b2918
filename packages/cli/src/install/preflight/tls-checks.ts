import { X509Certificate } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import type { Cluster } from '../cluster.ts';
import type { InstallValues } from '../install-values.ts';
import { type CheckResult, fail, pass, warn } from './check.ts';
import { type ServedHost, servedHosts } from './hosts.ts';

const SOON_MS = 14 * 24 * 3600 * 1000;

/** Where the certificate of a served host is expected: a kubernetes.io/tls Secret, by namespace and name. */
interface Expected {
  served: ServedHost;
  namespace: string;
  secret: string;
  keys: string;
  /** Whether a certificate issuer (cert-manager, from ingress.annotations) makes it at install. */
  issued: boolean;
}

function expectedCertificates(
  values: InstallValues,
  namespace: string,
): { expected: Expected[]; notes: CheckResult[] } {
  const issued = Object.keys(values.ingress.annotations).some((key) => key.startsWith('cert-manager.io/'));
  const expected: Expected[] = [];
  const notes: CheckResult[] = [];
  for (const served of servedHosts(values)) {
    const own = (keys: string, secret = `${served.host}-tls`) =>
      expected.push({ served, namespace, secret, keys, issued });
    if (served.role === 'app' && values.tls.enabled)
      own('tls.enabled, tls.secretName', values.tls.secretName || undefined);
    if (served.role === 'auth' && values.keycloak.tls) own('keycloak.ingress.tls');
    if (served.role === 'runtime API' && values.runtimeApi.ingress.tls) own('runtime-api.ingress.tls');
    if (served.role === 'sandbox' && values.runtimeApi.urlPattern.startsWith('https://')) {
      const secret = values.runtimeApi.sandboxTlsSecret;
      const ns = values.runtimeApi.sandboxNamespace;
      if (secret) expected.push({ served, namespace: ns, secret, keys: 'runtime-api.sandboxTlsSecret', issued: false });
      else {
        const detail = `https sandboxes at ${served.record} but runtime-api.sandboxTlsSecret is empty: their Ingresses name no certificate`;
        notes.push(
          warn(
            `TLS of the sandbox hosts ${served.record}`,
            detail,
            `set runtime-api.sandboxTlsSecret to a wildcard certificate Secret for ${served.record} in namespace ${ns}, unless the ingress controller's default certificate covers it`,
          ),
        );
      }
    }
  }
  return { expected, notes };
}

/** With TLS at the chart's Ingresses, each certificate Secret exists, is kubernetes.io/tls, and covers its host. */
export async function tlsChecks(cluster: Cluster, values: InstallValues, namespace: string): Promise<CheckResult[]> {
  const { expected, notes } = expectedCertificates(values, namespace);
  const results = await Promise.all(expected.map(async (want) => certificateCheck(cluster, want)));
  return [...results, ...notes];
}

async function certificateCheck(cluster: Cluster, want: Expected): Promise<CheckResult> {
  const { served, namespace, secret: name } = want;
  const check = `TLS of the ${served.role} host ${served.host}`;
  const secret = await cluster.secret(namespace, name);
  if (!secret) return missing(cluster, want, check);
  const where = `Secret ${name} in namespace ${namespace}`;
  if (secret.type !== 'kubernetes.io/tls') {
    return fail(
      check,
      `${where} is of type ${secret.type ?? 'Opaque'}, not kubernetes.io/tls`,
      `recreate it with kubectl -n ${namespace} create secret tls ${name} --cert=CERT --key=KEY`,
    );
  }
  const certificate = parsed(secret);
  if (!certificate)
    return fail(
      check,
      `${where} has no readable certificate in tls.crt`,
      `put the PEM certificate (chain) in tls.crt of ${name}`,
    );
  const names = certificate.subjectAltName ?? certificate.subject;
  if (certificate.checkHost(served.host) === undefined) {
    return fail(
      check,
      `the certificate of ${where} does not cover it (${names})`,
      `issue a certificate for ${served.record} into ${name}`,
    );
  }
  const expires = new Date(certificate.validTo);
  if (expires.getTime() < Date.now()) {
    return fail(
      check,
      `the certificate of ${where} expired on ${expires.toISOString()}`,
      `renew the certificate in ${name}`,
    );
  }
  if (expires.getTime() < Date.now() + SOON_MS) {
    return warn(
      check,
      `the certificate of ${where} expires on ${expires.toISOString()}`,
      `renew the certificate in ${name}`,
    );
  }
  return pass(check, `${where} covers it (${names}), valid until ${expires.toISOString()}`);
}

async function missing(cluster: Cluster, want: Expected, check: string): Promise<CheckResult> {
  const { namespace, secret, keys, served } = want;
  const where = `no Secret ${secret} in namespace ${namespace} (${keys})`;
  const create = `kubectl -n ${namespace} create secret tls ${secret} --cert=CERT --key=KEY with a certificate for ${served.record}`;
  if (want.issued)
    return warn(
      check,
      `${where} yet`,
      `none if the cert-manager issuer of ingress.annotations issues it at install; else ${create}`,
    );
  if ((await cluster.namespaceExists(namespace)) === false) {
    return warn(check, `${where}: the namespace does not exist yet`, `once the namespace exists, ${create}`);
  }
  return fail(check, where, create);
}

function parsed(secret: V1Secret): X509Certificate | undefined {
  const data = secret.data?.['tls.crt'];
  if (!data) return undefined;
  try {
    return new X509Certificate(Buffer.from(data, 'base64'));
  } catch {
    return undefined;
  }
}
