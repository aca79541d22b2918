import type { Action, MessageContent, Observation } from '@bosun/protocol';
import { useId } from 'react';
import { Badge, Spinner } from '../../../ui/feedback.tsx';
import { Code } from '../render/code.tsx';
import { Markdown } from '../render/markdown.tsx';
import { type ActionEvent, type ActionResult, textOf } from '../timeline/model.ts';
import { BrowserResult } from './browser.tsx';
import { describeAction, notYet } from './describe.ts';
import { FileEditInput, FileEditResult, ReadFileResult } from './file.tsx';
import { ArgumentsView, GenericResult } from './generic.tsx';
import { Reasoning, Time, useFold } from './parts.tsx';
import { GlobResult, GrepResult, ListDirectoryResult } from './search.tsx';
import { TaskList } from './tasks.tsx';
import { TerminalResult } from './terminal.tsx';

export type ActionPhase = 'done' | 'running' | 'waiting' | 'stopped';

const RISK = {
  LOW: { tone: 'success', label: 'Low risk' },
  MEDIUM: { tone: 'warning', label: 'Medium risk' },
  HIGH: { tone: 'danger', label: 'High risk' },
} as const;

/**
 * An action of the agent: its thought, what it does (and its summary), its security risk, and folded under it
 * what answered it (its observation, its rejection, or an error).
 */
export function ActionRow({
  event,
  result,
  phase,
}: {
  event: ActionEvent;
  result: ActionResult | undefined;
  phase: ActionPhase;
}) {
  const action = event.action as Action | null | undefined;
  const kind = action?.kind;
  // Open by default: what a person reads without a click (the plan, a thought, the final answer, what waits).
  const openByDefault =
    phase === 'waiting' ||
    kind === 'TaskTrackerAction' ||
    kind === 'ThinkAction' ||
    kind === 'FinishAction' ||
    result?.kind === 'AgentErrorEvent' ||
    result?.kind === 'UserRejectObservation';
  const [open, toggle] = useFold(event.id, openByDefault);
  const bodyId = useId();
  const described = describeAction(event);
  const line = result && result.kind !== 'UserRejectObservation' ? described : notYet(described);
  const thought = textOf(event.thought);
  const risk = event.security_risk !== 'UNKNOWN' ? RISK[event.security_risk] : undefined;
  const status = statusOf(result, phase);
  const inline = kind === 'ThinkAction' || kind === 'FinishAction';
  return (
    <article className={`action action-${phase}`} aria-label={`${line.verb}${line.target ? ` ${line.target}` : ''}`}>
      {thought && (
        <div className="action-thought">
          <Markdown text={thought} />
        </div>
      )}
      <Reasoning text={event.reasoning_content} blocks={event.thinking_blocks} />
      <div className="action-card">
        <button
          type="button"
          className="action-head"
          aria-expanded={open}
          aria-controls={open ? bodyId : undefined}
          onClick={toggle}
        >
          <span className="action-icon" aria-hidden="true">
            {line.icon}
          </span>
          <span className="action-line">
            <span className="action-verb">{line.verb}</span>
            {line.target && <code className="action-target">{line.target}</code>}
            {event.summary && <span className="action-summary muted">{event.summary}</span>}
          </span>
          <span className="action-badges">
            {risk && (
              <Badge tone={risk.tone} title="The risk the agent's security analysis gave this action">
                {risk.label}
              </Badge>
            )}
            {status}
            <Time at={event.timestamp} />
            <span className="chevron" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
          </span>
        </button>
        {open && (
          <div className="action-body" id={bodyId}>
            {!inline && <ActionInput event={event} hasResult={result?.kind === 'ObservationEvent'} phase={phase} />}
            {inline && kind === 'ThinkAction' && action?.kind === 'ThinkAction' && <Markdown text={action.thought} />}
            {inline && kind === 'FinishAction' && action?.kind === 'FinishAction' && <Markdown text={action.message} />}
            <ResultView event={event} result={result} />
          </div>
        )}
      </div>
    </article>
  );
}

function statusOf(result: ActionResult | undefined, phase: ActionPhase) {
  if (!result) {
    if (phase === 'waiting') return <Badge tone="warning">Waiting for your approval</Badge>;
    if (phase === 'running')
      return (
        <Badge tone="info">
          <Spinner label="Running" /> Running
        </Badge>
      );
    return <Badge>Not run</Badge>;
  }
  if (result.kind === 'UserRejectObservation')
    return <Badge tone="warning">{result.rejection_source === 'hook' ? 'Blocked by a hook' : 'Rejected'}</Badge>;
  if (result.kind === 'AgentErrorEvent') return <Badge tone="danger">Error</Badge>;
  const observation = result.observation as Observation;
  if (observation.kind === 'TerminalObservation') {
    if (observation.timeout) return <Badge tone="warning">Timed out</Badge>;
    const exit = observation.exit_code ?? observation.metadata.exit_code;
    if (exit === -1) return null;
    return <Badge tone={exit === 0 ? 'success' : 'danger'}>exit {exit}</Badge>;
  }
  if (observation.is_error) return <Badge tone="danger">Failed</Badge>;
  return null;
}

/** What the action was asked to do, when the title does not say it all. */
function ActionInput({ event, hasResult, phase }: { event: ActionEvent; hasResult: boolean; phase: ActionPhase }) {
  const action = event.action as Action | null | undefined;
  if (!action) {
    return (
      <>
        <p className="muted small">The tool call's arguments, as the model wrote them:</p>
        <Code code={event.tool_call.arguments} language="json" label="Arguments" />
      </>
    );
  }
  switch (action.kind) {
    case 'TerminalAction':
      return phase === 'waiting' || action.command.includes('\n') || action.command.length > 160 ? (
        <Code code={action.command} language="bash" label="Command" />
      ) : null;
    case 'FileEditorAction':
    case 'PlanningFileEditorAction':
    case 'EditAction':
    case 'WriteFileAction':
      // The observation's diff shows the change once it ran; before, what it would do.
      return hasResult ? null : <FileEditInput action={action} />;
    case 'TaskTrackerAction':
      return hasResult || action.command !== 'plan' ? null : <TaskList tasks={action.task_list} />;
    case 'MCPToolAction':
      return <ArgumentsView value={action.data} />;
    case 'BrowserTypeAction':
      return <pre className="tool-text">{action.text}</pre>;
    case 'ReadFileAction':
    case 'ListDirectoryAction':
    case 'GlobAction':
    case 'GrepAction':
    case 'BrowserNavigateAction':
    case 'ThinkAction':
    case 'FinishAction':
      return null;
    default:
      return null;
  }
}

function ResultView({ event, result }: { event: ActionEvent; result: ActionResult | undefined }) {
  if (!result) return null;
  if (result.kind === 'UserRejectObservation') {
    return (
      <p className="rejection">
        {result.rejection_source === 'hook' ? 'A hook blocked it' : 'Rejected'}: {result.rejection_reason}
      </p>
    );
  }
  if (result.kind === 'AgentErrorEvent') {
    return <pre className="tool-text text-danger">{result.error}</pre>;
  }
  return <ObservationView observation={result.observation as Observation} path={pathOf(event)} />;
}

function pathOf(event: ActionEvent): string | undefined {
  const action = event.action as Record<string, unknown> | null | undefined;
  const path = action?.path ?? action?.file_path;
  return typeof path === 'string' ? path : undefined;
}

/** An observation, by its kind. */
export function ObservationView({ observation, path }: { observation: Observation; path?: string | undefined }) {
  switch (observation.kind) {
    case 'TerminalObservation':
      return <TerminalResult observation={observation} />;
    case 'FileEditorObservation':
    case 'PlanningFileEditorObservation':
    case 'EditObservation':
    case 'WriteFileObservation':
      return <FileEditResult observation={observation} path={path} />;
    case 'ReadFileObservation':
      return <ReadFileResult observation={observation} />;
    case 'GlobObservation':
      return <GlobResult observation={observation} />;
    case 'GrepObservation':
      return <GrepResult observation={observation} />;
    case 'ListDirectoryObservation':
      return <ListDirectoryResult observation={observation} />;
    case 'TaskTrackerObservation':
      return <TaskList tasks={observation.task_list} />;
    case 'BrowserObservation':
      return <BrowserResult observation={observation} />;
    case 'ThinkObservation':
    case 'FinishObservation':
      return null;
    default:
      return (
        <GenericResult
          content={(observation as { content: MessageContent[] }).content}
          isError={(observation as { is_error?: boolean }).is_error}
        />
      );
  }
}
