import type { SuggestedTask } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { Badge } from '../../ui/feedback.tsx';

const KIND: Record<SuggestedTask['task_type'], { label: string; ask: (where: string) => string }> = {
  MERGE_CONFLICTS: { label: 'Conflicts', ask: (where) => `Resolve the merge conflicts of ${where}.` },
  FAILING_CHECKS: { label: 'Failing checks', ask: (where) => `Fix the failing checks of ${where}.` },
  UNRESOLVED_COMMENTS: {
    label: 'Review comments',
    ask: (where) => `Address the unresolved review comments on ${where}.`,
  },
  OPEN_ISSUE: { label: 'Issue', ask: (where) => `Solve ${where}.` },
  OPEN_PR: { label: 'Pull request', ask: (where) => `Finish ${where}.` },
};

/** The message a suggested task starts a conversation with. */
export function taskMessage(task: SuggestedTask): string {
  const what = task.task_type === 'OPEN_ISSUE' ? 'issue' : 'pull request';
  return KIND[task.task_type].ask(`${what} #${task.issue_number} in ${task.repo} ("${task.title}")`);
}

interface SuggestedTasksProps {
  onUse(task: SuggestedTask): void;
  onStart(task: SuggestedTask): void;
  busy: boolean;
}

/** The caller's open pull requests and assigned issues: one click fills the message, or starts at once. */
export function SuggestedTasks({ onUse, onStart, busy }: SuggestedTasksProps) {
  const api = useApi();
  const tasks = useQuery({
    queryKey: ['suggested-tasks'],
    queryFn: () => api.get('/api/v1/git/suggested-tasks/search', { query: { limit: 6 } }),
    staleTime: 60_000,
    retry: false,
  });
  const items = tasks.data?.items ?? [];
  // Suggestions are a help, not the page: a provider that cannot answer leaves them out quietly.
  if (items.length === 0) return null;
  return (
    <section className="suggested" aria-labelledby="suggested-heading">
      <h2 id="suggested-heading">Suggested tasks</h2>
      <ul className="suggested-list">
        {items.map((task) => (
          <li
            key={`${task.git_provider}:${task.repo}#${task.issue_number}:${task.task_type}`}
            className="suggested-item"
          >
            <button type="button" className="suggested-use" onClick={() => onUse(task)}>
              <span className="row">
                <Badge tone="info">{KIND[task.task_type].label}</Badge>
                <span className="muted">
                  {task.repo} #{task.issue_number}
                </span>
              </span>
              <span className="suggested-title">{task.title}</span>
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={busy}
              aria-label={`Start now: ${task.title}`}
              onClick={() => onStart(task)}
            >
              Start now
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
