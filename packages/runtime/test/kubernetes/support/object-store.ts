import { randomUUID } from 'node:crypto';
import type { Kind, KubeObject } from './kinds.ts';

export interface StoredEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: Kind;
  object: KubeObject;
  resourceVersion: number;
}

/**
 * The stand-in's etcd: objects by kind, namespace and name, one resourceVersion counter for all of them, every
 * change kept as an event (watches replay from a resourceVersion), and the garbage collector's cascade.
 */
export class ObjectStore {
  private readonly objects = new Map<string, KubeObject>();
  private version = 1;
  readonly events: StoredEvent[] = [];
  private readonly listeners = new Set<(event: StoredEvent) => void>();

  get resourceVersion(): string {
    return String(this.version);
  }

  get(kind: Kind, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.objects.get(keyOf(kind, namespace, name));
    return found && structuredClone(found);
  }

  list(kind: Kind, namespace: string | undefined): KubeObject[] {
    return [...this.objects.entries()]
      .filter(([key]) => key.startsWith(`${kind.resource}/${namespace ?? ''}/`))
      .map(([, object]) => structuredClone(object));
  }

  /** Every object, for checks over all of them. */
  all(): { kind: string; object: KubeObject }[] {
    return [...this.objects.values()].map((object) => ({ kind: object.kind, object: structuredClone(object) }));
  }

  /** Adds a new object: uid, resourceVersion and creationTimestamp are the server's. */
  add(kind: Kind, object: KubeObject): KubeObject {
    const stored: KubeObject = {
      ...structuredClone(object),
      metadata: {
        ...structuredClone(object.metadata),
        uid: randomUUID(),
        creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    };
    return this.write(kind, stored, 'ADDED');
  }

  /** Replaces it (the caller checked its resourceVersion). */
  update(kind: Kind, object: KubeObject): KubeObject {
    return this.write(kind, structuredClone(object), 'MODIFIED');
  }

  /** Deletes it, then (background propagation) every object it owns, recursively. */
  remove(kind: Kind, namespace: string | undefined, name: string, kinds: readonly Kind[]): KubeObject | undefined {
    const key = keyOf(kind, namespace, name);
    const found = this.objects.get(key);
    if (!found) return undefined;
    this.objects.delete(key);
    this.emit({ type: 'DELETED', kind, object: found, resourceVersion: this.bump(found) });
    for (const other of kinds) {
      for (const dependent of this.list(other, namespace)) {
        if (dependent.metadata.ownerReferences?.some(({ uid }) => uid === found.metadata.uid)) {
          this.remove(other, namespace, dependent.metadata.name, kinds);
        }
      }
    }
    return found;
  }

  subscribe(listener: (event: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write(kind: Kind, object: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject {
    this.bump(object);
    this.objects.set(keyOf(kind, object.metadata.namespace, object.metadata.name), object);
    this.emit({ type, kind, object, resourceVersion: Number(object.metadata.resourceVersion) });
    return structuredClone(object);
  }

  private bump(object: KubeObject): number {
    this.version += 1;
    object.metadata.resourceVersion = String(this.version);
    return this.version;
  }

  private emit(event: StoredEvent): void {
    const copy = { ...event, object: structuredClone(event.object) };
    this.events.push(copy);
    for (const listener of this.listeners) listener(copy);
  }
}

function keyOf(kind: Kind, namespace: string | undefined, name: string): string {
  return `${kind.resource}/${namespace ?? ''}/${name}`;
}
