const SUFFIX: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};

/** A Kubernetes quantity (`3500m`, `16Gi`, `32879916Ki`, `1e3`) as a number of its base unit; undefined if not one. */
export function quantity(text: string | undefined): number | undefined {
  const match = /^([0-9.]+(?:[eE][-+]?\d+)?)(m|k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?$/.exec(text ?? '');
  if (!match) return undefined;
  const number = Number(match[1]);
  return Number.isFinite(number) ? number * (SUFFIX[match[2] ?? ''] ?? 1) : undefined;
}
