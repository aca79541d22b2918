/** The version the stand-in says it is, as `GET /version` answers. */
export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
}

export const DEFAULT_VERSION: ServerVersion = { major: '1', minor: '33', gitVersion: 'v1.33.0' };

/**
 * What the stand-in answers outside its kinds: `GET /version` and `GET /api/v1/namespaces/{name}` (its namespaces are
 * a set, not stored objects). Undefined: not one of these; null: such a namespace does not exist.
 */
export function clusterInfo(
  method: string,
  path: string,
  namespaces: ReadonlySet<string>,
  version: ServerVersion,
): object | null | undefined {
  if (method !== 'GET') return undefined;
  if (path === '/version' || path === '/version/') return { ...version, platform: 'linux/amd64' };
  const namespace = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(path)?.[1];
  if (namespace === undefined) return undefined;
  if (!namespaces.has(namespace)) return null;
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace }, status: { phase: 'Active' } };
}
