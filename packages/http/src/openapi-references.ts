const PREFIX = '#/components/schemas/';

/** The components `root` refers to, and those they refer to, transitively: the rest would only be noise. */
export function referencedComponents(
  root: unknown,
  components: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const used: Record<string, unknown> = {};
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') visit(child);
        else if (key === 'mapping' && child && typeof child === 'object') Object.values(child).forEach(visit);
        else pending.push(child);
      }
    }
  }
  return used;

  function visit(ref: unknown) {
    if (typeof ref !== 'string' || !ref.startsWith(PREFIX)) return;
    const id = ref.slice(PREFIX.length);
    if (id in used || !(id in components)) return;
    used[id] = components[id];
    pending.push(components[id]);
  }
}
