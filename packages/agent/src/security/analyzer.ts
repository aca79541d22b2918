import { homedir } from 'node:os';
import type { Action, SecurityAnalyzer } from '@bosun/protocol';
import { TOOL_RECORDS } from '../tools/list.ts';
import { type RiskSubject, UNKNOWN_RISK } from '../tools/risk-subject.ts';
import { commandRisk } from './command-risk.ts';
import { type PathContext, writeRisk } from './paths.ts';
import { type SecurityRisk, isSecurityRisk, worstRisk } from './risk.ts';

/** One action as an analyzer sees it. */
export interface AnalyzedAction {
  /** The parsed action (null for a call that could not be parsed: it never runs). */
  action: Action | null;
  /** The raw JSON arguments of the tool call, where the LLM put its own `security_risk`. */
  toolCallArguments: string;
  /** The tool never changes anything (it is offered no `security_risk` argument). */
  readOnly: boolean;
  /** The tool's own risk rule; without one, the rule of the action's kind. */
  rule?: RiskRule | undefined;
}

/** What the rule-based analyzer rates in an action (a tool's `riskSubject`). */
export type RiskRule = (action: Action) => RiskSubject;

export interface AnalyzerContext {
  workspace: string;
  /** Where the terminal is now (after the agent's `cd`s); the workspace by default. */
  terminalCwd?: string;
  /** The home directory (`~`); the server's by default. */
  home?: string;
}

/**
 * The risk of an action under `analyzer`:
 * - none: UNKNOWN (the LLM's prediction stays visible in `tool_call.arguments` only);
 * - `LLMSecurityAnalyzer`: the `security_risk` the LLM gave (UNKNOWN when it gave none);
 * - `RuleBasedSecurityAnalyzer`: the rules, and when the LLM gave a risk as well, the higher of the two
 *   (so neither can under-rate what the other sees).
 * Read-only tools (and `finish`, `think`) are LOW under any analyzer.
 */
export function analyzeAction(
  analyzer: SecurityAnalyzer | null | undefined,
  input: AnalyzedAction,
  context: AnalyzerContext,
): SecurityRisk {
  if (!analyzer) return 'UNKNOWN';
  if (input.readOnly) return 'LOW';
  const predicted = predictedRisk(input.toolCallArguments);
  if (analyzer.kind === 'LLMSecurityAnalyzer') return predicted ?? 'UNKNOWN';
  const ruled = input.action ? actionRisk(input.action, context, input.rule) : 'UNKNOWN';
  return predicted === undefined ? ruled : worstRisk(ruled, predicted);
}

/** The `security_risk` the LLM put in its arguments (UNKNOWN or anything invalid counts as none). */
export function predictedRisk(toolCallArguments: string): Exclude<SecurityRisk, 'UNKNOWN'> | undefined {
  try {
    const parsed = JSON.parse(toolCallArguments) as { security_risk?: unknown } | null;
    const risk = parsed?.security_risk;
    return isSecurityRisk(risk) && risk !== 'UNKNOWN' ? risk : undefined;
  } catch {
    return undefined;
  }
}

/** Each action kind's rule, from the tool records (MCPToolAction has none: see `tools/list.ts`). */
const RULES: ReadonlyMap<string, RiskRule> = new Map(
  TOOL_RECORDS.flatMap((record) => record.shapes.actions.map((shape) => [shape.$id, record.riskSubject as RiskRule])),
);

/**
 * The rule-based risk of one action: what its tool's rule says to rate (by default the rule of the record of its
 * kind), rated: a command line by its commands, a path written by where it is.
 */
export function actionRisk(action: Action, context: AnalyzerContext, rule?: RiskRule): SecurityRisk {
  const subject = (rule ?? RULES.get(action.kind))?.(action) ?? UNKNOWN_RISK;
  const paths: PathContext = { workspace: context.workspace, home: context.home ?? homedir(), cwd: context.workspace };
  switch (subject.kind) {
    case 'known':
      return subject.risk;
    case 'command':
      return commandRisk(subject.command, { ...paths, cwd: context.terminalCwd ?? context.workspace });
    case 'write':
      return writeRisk(subject.path, paths);
    default:
      return unrated(subject);
  }
}

function unrated(subject: never): never {
  throw new Error(`no rating for the risk subject ${JSON.stringify(subject)}`);
}
