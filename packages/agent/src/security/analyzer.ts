import { homedir } from 'node:os';
import type { Action, SecurityAnalyzer } from '@bosun/protocol';
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
}

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
  const ruled = input.action ? actionRisk(input.action, context) : 'UNKNOWN';
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

/**
 * The rule-based risk of one action: terminal commands by their command, file operations by their path, browser
 * actions by what they can send to a site.
 */
export function actionRisk(action: Action, context: AnalyzerContext): SecurityRisk {
  const paths: PathContext = { workspace: context.workspace, home: context.home ?? homedir(), cwd: context.workspace };
  switch (action.kind) {
    case 'TerminalAction': {
      const command = action.command.trim();
      // Waiting for output, or a control key (C-c): nothing new runs.
      if (command === '' || /^C-[a-zA-Z]$/.test(command)) return 'LOW';
      return commandRisk(command, { ...paths, cwd: context.terminalCwd ?? context.workspace });
    }
    case 'FileEditorAction':
    case 'PlanningFileEditorAction':
      return action.command === 'view' ? 'LOW' : writeRisk(action.path, paths);
    case 'WriteFileAction':
    case 'EditAction':
      return writeRisk(action.file_path, paths);
    case 'FinishAction':
    case 'ThinkAction':
    case 'TaskTrackerAction':
    case 'ReadFileAction':
    case 'ListDirectoryAction':
    case 'GlobAction':
    case 'GrepAction':
      return 'LOW';
    case 'BrowserGetStateAction':
    case 'BrowserGetContentAction':
    case 'BrowserListTabsAction':
    case 'BrowserScrollAction':
    case 'BrowserGoBackAction':
    case 'BrowserSwitchTabAction':
    case 'BrowserCloseTabAction':
    case 'BrowserStartRecordingAction':
    case 'BrowserStopRecordingAction':
      return 'LOW';
    // Reaching a site, sending it what the agent clicks or types, and handling login cookies.
    case 'BrowserNavigateAction':
    case 'BrowserClickAction':
    case 'BrowserTypeAction':
    case 'BrowserGetStorageAction':
    case 'BrowserSetStorageAction':
      return 'MEDIUM';
    default:
      return 'UNKNOWN';
  }
}
