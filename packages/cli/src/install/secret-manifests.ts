import { createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Document } from 'yaml';
import { type RequiredSecret, type SecretKey, placeholder } from './secret-table.ts';

/** A generic Secret as `bosun install secrets` prints and creates it. */
export interface SecretManifest {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  type: 'Opaque';
  stringData: Record<string, string>;
}

export interface MadeSecret {
  manifest: SecretManifest;
  /** Keys holding a placeholder: what the operator must still fill in. */
  placeholders: string[];
  note?: string;
}

/** The Secrets with their values: random where the table says so, placeholders where only the operator knows. */
export function makeSecrets(
  required: readonly RequiredSecret[],
  namespace: string,
  githubAppPem: string | undefined,
): MadeSecret[] {
  const shared = new Map<string, string>();
  return required.map(({ name, keys, emptyNote }) => {
    const stringData: Record<string, string> = {};
    const placeholders: string[] = [];
    for (const key of keys) {
      const made = keyValue(key, shared, githubAppPem);
      stringData[key.key] = made.text;
      if (made.placeholder) placeholders.push(key.key);
    }
    const labels = { 'app.kubernetes.io/part-of': 'bosun', 'app.kubernetes.io/managed-by': 'bosun-install-secrets' };
    const manifest: SecretManifest = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace, labels },
      type: 'Opaque',
      stringData,
    };
    return { manifest, placeholders, ...(emptyNote ? { note: emptyNote } : {}) };
  });
}

function keyValue(
  { source }: SecretKey,
  shared: Map<string, string>,
  githubAppPem: string | undefined,
): { text: string; placeholder?: true } {
  switch (source.kind) {
    case 'value':
      return { text: source.value };
    case 'operator':
      return { text: placeholder(source.what), placeholder: true };
    case 'github-app-pem':
      if (githubAppPem !== undefined) return { text: githubAppPem };
      return {
        text: placeholder("the GitHub App's private key (PEM): give it with --github-app-pem FILE"),
        placeholder: true,
      };
    case 'random': {
      const made =
        shared.get(source.shared ?? '') ?? `${source.prefix ?? ''}${randomBytes(source.bytes).toString('hex')}`;
      if (source.shared) shared.set(source.shared, made);
      return { text: made };
    }
  }
}

/** The PEM text of a GitHub App's private key file, checked to be a private key. */
export function readGithubAppPem(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--github-app-pem ${file}: cannot read it: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    createPrivateKey(text);
  } catch {
    throw new Error(`--github-app-pem ${file}: not a PEM private key (the .pem file GitHub gives for the App)`);
  }
  return text;
}

/** The Secrets as YAML documents separated by `---`, each headed by what is still to fill in. */
export function secretsYaml(secrets: readonly MadeSecret[]): string {
  return secrets
    .map(({ manifest, placeholders, note }) => {
      const document = new Document(manifest);
      if (placeholders.length > 0) {
        document.commentBefore = ` Replace ${placeholders.join(', ')} (marked REPLACE-ME) before installing.`;
      }
      if (note) document.commentBefore = ` ${note}`;
      return document.toString({ lineWidth: 0 });
    })
    .join('---\n');
}
