import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import type { KubeStandIn } from '../../runtime/test/kubernetes/support/kube-stand-in.ts';

/** A Secret as `bosun install secrets` prints it. */
export interface PrintedSecret {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  type: string;
  stringData: Record<string, string>;
  [field: string]: unknown;
}

/** The `---` separated documents of the command's output. */
export function parseSecrets(yaml: string): PrintedSecret[] {
  return parseAllDocuments(yaml).map((document) => {
    if (document.errors.length) throw new Error(`not YAML: ${document.errors[0]?.message}`);
    return document.toJS() as PrintedSecret;
  });
}

export function byName(secrets: readonly PrintedSecret[]): Map<string, Record<string, string>> {
  return new Map(secrets.map((secret) => [secret.metadata.name, secret.stringData]));
}

/** A kubeconfig file naming the stand-in (its token), in `dir`. */
export async function kubeconfigFile(standIn: KubeStandIn, dir: string): Promise<string> {
  const file = join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}`);
  await writeFile(file, standIn.kubeConfig().exportConfig(), { mode: 0o600 });
  return file;
}

/** A values file of `values` in `dir`. */
export async function valuesFile(dir: string, name: string, values: object): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, stringify(values));
  return file;
}

/** A self-signed certificate (EC P-256) for `hosts`, valid `days`, by the openssl command: PEM texts. */
export async function certificate(dir: string, hosts: string[], days = 90): Promise<{ cert: string; key: string }> {
  const base = join(dir, `cert-${Math.random().toString(36).slice(2)}`);
  const names = hosts.map((host) => `DNS:${host}`).join(',');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
    ...['-keyout', `${base}.key`, '-out', `${base}.crt`, '-days', String(days)],
    ...['-subj', `/CN=${hosts[0]}`, '-addext', `subjectAltName=${names}`],
  ]);
  return { cert: await readFile(`${base}.crt`, 'utf8'), key: await readFile(`${base}.key`, 'utf8') };
}

/** A loopback port nothing listens on (it was bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Secret object to put into the stand-in, its data base64-encoded as the API stores it. */
export function secretObject(namespace: string, name: string, data: Record<string, string>, type = 'Opaque') {
  const encoded = Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  );
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type, data: encoded };
}
