import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { IngressClass } from 'kubernetes-models/networking.k8s.io/v1/IngressClass';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { StorageClass } from 'kubernetes-models/storage.k8s.io/v1/StorageClass';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Node } from 'kubernetes-models/v1/Node';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';

/** A Kubernetes object as JSON (what the wire carries). */
export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string }[];
    creationTimestamp?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export interface Kind {
  groupVersion: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** Validates against the Kubernetes schema of the pinned kubernetes-models (throws what is wrong). */
  validate(object: KubeObject): void;
}

const model =
  (Model: new (data: never) => { validate(): void }) =>
  (object: KubeObject): void =>
    new Model(object as never).validate();

/** The kinds the stand-in serves (what the backend and `bosun preflight` use), each checked by its kubernetes-models class. */
export const KINDS: Kind[] = [
  { groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, validate: model(ConfigMap) },
  { groupVersion: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, validate: model(Secret) },
  { groupVersion: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, validate: model(Pod) },
  { groupVersion: 'v1', resource: 'services', kind: 'Service', namespaced: true, validate: model(Service) },
  {
    groupVersion: 'v1',
    resource: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    validate: model(PersistentVolumeClaim),
  },
  {
    groupVersion: 'networking.k8s.io/v1',
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    validate: model(Ingress),
  },
  {
    groupVersion: 'networking.k8s.io/v1',
    resource: 'networkpolicies',
    kind: 'NetworkPolicy',
    namespaced: true,
    validate: model(NetworkPolicy),
  },
  {
    groupVersion: 'networking.k8s.io/v1',
    resource: 'ingressclasses',
    kind: 'IngressClass',
    namespaced: false,
    validate: model(IngressClass),
  },
  { groupVersion: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, validate: model(Node) },
  {
    groupVersion: 'storage.k8s.io/v1',
    resource: 'storageclasses',
    kind: 'StorageClass',
    namespaced: false,
    validate: model(StorageClass),
  },
];

const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^(?=.{1,63}$)[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** What the API server checks beyond the schema: names (a Service's is a DNS label) and label syntax. */
export function metadataProblem(kind: Kind, object: KubeObject): string | undefined {
  const { name, labels = {} } = object.metadata;
  const nameRule = kind.kind === 'Service' ? DNS_LABEL : DNS_SUBDOMAIN;
  if (!nameRule.test(name ?? '')) return `metadata.name: Invalid value: ${JSON.stringify(name)}`;
  for (const [key, value] of Object.entries(labels)) {
    if (!LABEL_NAME.test(key) || key.split('/').at(-1)!.length > 63) return `metadata.labels: Invalid key: ${key}`;
    if (value.length > 63 || !LABEL_VALUE.test(value))
      return `metadata.labels: Invalid value: ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** A label selector (`a=b,c!=d,e`) as a test. */
export function matchesSelector(given: Record<string, string> | undefined, selector: string | null): boolean {
  if (!selector) return true;
  const labels = given ?? {};
  return selector.split(',').every((term) => {
    const unequal = /^([^!=]+)!=(.*)$/.exec(term);
    if (unequal) return labels[unequal[1]!] !== unequal[2];
    const equal = /^([^=]+)==?(.*)$/.exec(term);
    if (equal) return labels[equal[1]!] === equal[2];
    return term in labels;
  });
}
