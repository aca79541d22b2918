import type { KubeObject } from './helm.ts';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: object) => Validatable;

/**
 * Validates an object against the Kubernetes schema of its kind with kubernetes-models (pinned in the root
 * package.json): the module is `kubernetes-models/<group>/<version>/<Kind>`, the core group being `v1`.
 */
export async function validateKubeObject(object: KubeObject): Promise<void> {
  const path = `kubernetes-models/${object.apiVersion}/${object.kind}`;
  const module = (await import(path)) as Record<string, ModelClass | undefined>;
  const Model = module[object.kind];
  if (!Model) throw new Error(`${path} has no ${object.kind}`);
  try {
    new Model(object).validate();
  } catch (error) {
    throw new Error(
      `${object.kind}/${object.metadata.name} is not a valid ${object.apiVersion} ${object.kind}: ${error}`,
    );
  }
}
