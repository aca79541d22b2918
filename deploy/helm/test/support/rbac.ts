import type { KubeObject } from './helm.ts';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** A request as RBAC judges it: namespace undefined for a cluster-scoped resource. */
export interface RbacRequest {
  apiGroup: string;
  resource: string;
  verb: string;
  namespace: string | undefined;
  name?: string | undefined;
}

interface Grant {
  /** Undefined: cluster-wide (a ClusterRole bound by a ClusterRoleBinding). */
  namespace: string | undefined;
  rules: Rule[];
}

/**
 * What the rendered RoleBindings and ClusterRoleBindings grant service account `name` of `namespace`: the rules of
 * the Roles and ClusterRoles they name, each in the binding's namespace (or cluster-wide).
 */
export function grantsOf(objects: readonly KubeObject[], namespace: string, name: string): Grant[] {
  const bindings = objects.filter((object) => object.kind === 'RoleBinding' || object.kind === 'ClusterRoleBinding');
  return bindings.flatMap((binding) => {
    const subjects = (binding.subjects ?? []) as { kind: string; name: string; namespace?: string }[];
    const bound = subjects.some((s) => s.kind === 'ServiceAccount' && s.name === name && s.namespace === namespace);
    if (!bound) return [];
    const ref = binding.roleRef as { kind: string; name: string };
    const where = binding.kind === 'RoleBinding' ? binding.metadata.namespace : undefined;
    const role = objects.find(
      (object) =>
        object.kind === ref.kind &&
        object.metadata.name === ref.name &&
        (ref.kind === 'ClusterRole' || object.metadata.namespace === where),
    );
    return role ? [{ namespace: where, rules: (role.rules ?? []) as Rule[] }] : [];
  });
}

/** Whether the grants allow the request (a namespaced one by a grant of its namespace or a cluster-wide one). */
export function allows(grants: readonly Grant[], request: RbacRequest): boolean {
  return grants.some(
    (grant) =>
      (grant.namespace === undefined || grant.namespace === request.namespace) &&
      grant.rules.some(
        (rule) =>
          rule.apiGroups.includes(request.apiGroup) &&
          rule.resources.includes(request.resource) &&
          rule.verbs.includes(request.verb) &&
          (!rule.resourceNames || (request.name !== undefined && rule.resourceNames.includes(request.name))),
      ),
  );
}
