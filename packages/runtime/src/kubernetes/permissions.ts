/** A verb of Kubernetes RBAC the backend uses (no patch, no deletecollection). */
export type KubernetesVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'delete';

/** One rule of the Role the runtime's service account needs: RBAC's apiGroups, resources and verbs. */
export interface KubernetesPermission {
  /** The API group ('' for the core group). */
  apiGroup: string;
  /** The resource, plural, as RBAC names it. */
  resource: string;
  verbs: readonly KubernetesVerb[];
  /** `namespace`: a Role in the sandboxes' namespace; `cluster`: a ClusterRole (the resource has no namespace). */
  scope: 'namespace' | 'cluster';
  /** What the backend does with it (a chart may render it as a comment). */
  why: string;
}

/**
 * Every request the Kubernetes backend makes, as RBAC rules: what a chart grants the runtime's service account
 * (and renders its Role from). A test records every request of a whole lifecycle against the API stand-in and
 * fails on one not listed here. Discovery (`GET /api/v1`, `/apis/{group}/{version}`) is not listed: every
 * authenticated account may read it (the `system:discovery` ClusterRole).
 */
export const KUBERNETES_PERMISSIONS: readonly KubernetesPermission[] = [
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['get', 'list', 'create', 'update', 'delete'],
    scope: 'namespace',
    why: "a sandbox's root: its state and spec (update), listed at open and by the sweep, its deletion cascading",
  },
  {
    apiGroup: '',
    resource: 'pods',
    verbs: ['list', 'watch', 'create', 'delete'],
    scope: 'namespace',
    why: "a sandbox's agent server: watched while it starts, deleted to pause (and when it fails)",
  },
  {
    apiGroup: '',
    resource: 'secrets',
    verbs: ['get', 'list', 'create', 'update', 'delete'],
    scope: 'namespace',
    why: "a sandbox's session key and environment, replaced at each resume (a new key)",
  },
  {
    apiGroup: '',
    resource: 'persistentvolumeclaims',
    verbs: ['get', 'list', 'create', 'delete'],
    scope: 'namespace',
    why: "a sandbox's workspace: read while it binds, kept over pauses, deleted with the sandbox",
  },
  {
    apiGroup: '',
    resource: 'services',
    verbs: ['get', 'create', 'delete'],
    scope: 'namespace',
    why: "the address of a sandbox's agent server",
  },
  {
    apiGroup: 'networking.k8s.io',
    resource: 'ingresses',
    verbs: ['get', 'create', 'delete'],
    scope: 'namespace',
    why: "a sandbox's URL (host routing)",
  },
  {
    apiGroup: 'networking.k8s.io',
    resource: 'networkpolicies',
    verbs: ['get', 'create', 'update', 'delete'],
    scope: 'namespace',
    why: 'what a sandbox may reach and be reached from, replaced when a resume changes its network',
  },
  {
    apiGroup: 'storage.k8s.io',
    resource: 'storageclasses',
    verbs: ['get'],
    scope: 'cluster',
    why: 'that storage_class exists before a claim waits on it forever (only when storage_class is set)',
  },
];
