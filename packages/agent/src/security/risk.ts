import type { SecurityRisk } from '@bosun/protocol';

export type { SecurityRisk };

/**
 * How worrying a risk is when parts of one action are combined: HIGH > MEDIUM > UNKNOWN > LOW. An unknown part
 * could do anything, so it outranks a known LOW; a part known to be MEDIUM or HIGH outranks it.
 */
const SEVERITY: Record<SecurityRisk, number> = { LOW: 0, UNKNOWN: 1, MEDIUM: 2, HIGH: 3 };

/** The most worrying of `risks` (LOW when there are none). */
export function worstRisk(...risks: SecurityRisk[]): SecurityRisk {
  let worst: SecurityRisk = 'LOW';
  for (const risk of risks) if (SEVERITY[risk] > SEVERITY[worst]) worst = risk;
  return worst;
}

/** Whether a known risk reaches `threshold` (LOW < MEDIUM < HIGH). UNKNOWN reaches nothing: policies decide it. */
export function reaches(risk: SecurityRisk, threshold: 'LOW' | 'MEDIUM' | 'HIGH'): boolean {
  if (risk === 'UNKNOWN') return false;
  return SEVERITY[risk] >= SEVERITY[threshold];
}

export function isSecurityRisk(value: unknown): value is SecurityRisk {
  return typeof value === 'string' && value in SEVERITY;
}
