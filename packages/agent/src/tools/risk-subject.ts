import type { SecurityRisk } from '@bosun/protocol';

/**
 * What the rule-based security analyzer rates in an action (`security/analyzer.ts`): a risk the tool knows, the
 * command line it runs, or the path it writes.
 */
export type RiskSubject =
  | { kind: 'known'; risk: SecurityRisk }
  | { kind: 'command'; command: string }
  | { kind: 'write'; path: string };

export const LOW_RISK: RiskSubject = { kind: 'known', risk: 'LOW' };
export const MEDIUM_RISK: RiskSubject = { kind: 'known', risk: 'MEDIUM' };
export const UNKNOWN_RISK: RiskSubject = { kind: 'known', risk: 'UNKNOWN' };
