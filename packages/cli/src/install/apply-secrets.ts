import type { Cluster } from './cluster.ts';
import type { MadeSecret } from './secret-manifests.ts';

export interface Applied {
  name: string;
  created: boolean;
  /** Keys created with a placeholder (none when the Secret existed). */
  placeholders: string[];
}

/**
 * Creates each Secret in `namespace`; one that exists is left as it is (never overwritten: its values may be in use).
 * Fails when the namespace does not exist, before creating anything.
 */
export async function applySecrets(
  cluster: Cluster,
  namespace: string,
  secrets: readonly MadeSecret[],
): Promise<Applied[]> {
  if ((await cluster.namespaceExists(namespace)) === false) {
    throw new Error(`namespace ${namespace} does not exist: create it first (kubectl create namespace ${namespace})`);
  }
  const applied: Applied[] = [];
  for (const { manifest, placeholders } of secrets) {
    const created = await cluster.createSecret(namespace, manifest);
    applied.push({ name: manifest.metadata.name, created, placeholders: created ? placeholders : [] });
  }
  return applied;
}

/** One line per Secret: created, or left as it was; and how to fill a placeholder in. */
export function appliedReport(namespace: string, applied: readonly Applied[]): string {
  const lines = applied.map(({ name, created, placeholders }) => {
    if (!created) return `exists   ${name} (left unchanged)`;
    if (placeholders.length === 0) return `created  ${name}`;
    const patch = JSON.stringify({ stringData: Object.fromEntries(placeholders.map((key) => [key, '...'])) });
    return `created  ${name} with placeholders in ${placeholders.join(', ')}: set them with\n         kubectl -n ${namespace} patch secret ${name} -p '${patch}'`;
  });
  const made = applied.filter((secret) => secret.created).length;
  return `${lines.join('\n')}\n${made} created, ${applied.length - made} already existed\n`;
}
