/**
 * Whether a Kubernetes version (`v1.33.2`, `v1.30.4-eks-a737599`) meets a chart's kubeVersion: comparators
 * (`>=1.29.0-0`, `<1.35`) joined by spaces or commas, all of which must hold. A provider's suffix (`-eks-...`) is
 * ignored, as the chart's `-0` asks.
 */
export function meetsKubeVersion(version: string, constraint: string): boolean {
  const have = numbers(version);
  if (!have) throw new Error(`the Kubernetes version ${JSON.stringify(version)} is not major.minor.patch`);
  const terms = constraint.split(/[\s,]+/).filter(Boolean);
  return terms.every((term) => {
    const match = /^(>=|<=|>|<|=|==)?v?(.+)$/.exec(term);
    const want = match ? numbers(match[2] ?? '') : undefined;
    if (!match || !want) throw new Error(`the chart's kubeVersion term ${JSON.stringify(term)} is not understood`);
    const order = compare(have, want);
    switch (match[1]) {
      case '>=':
        return order >= 0;
      case '>':
        return order > 0;
      case '<=':
        return order <= 0;
      case '<':
        return order < 0;
      default:
        return order === 0;
    }
  });
}

function numbers(version: string): [number, number, number] | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(version.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
