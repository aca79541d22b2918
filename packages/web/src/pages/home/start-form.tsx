import type { AppConversationStartRequest, ProviderType, Settings, SuggestedTask } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice } from '../../ui/feedback.tsx';
import { connectedProviders } from './git-providers.ts';
import { type RepoChoice, RepoPicker } from './repo-picker.tsx';
import { START_TASKS_KEY } from './start-tasks.tsx';
import { SuggestedTasks, taskMessage } from './suggested-tasks.tsx';

interface StartInput {
  text: string;
  repo: RepoChoice | null;
}

/** The request of a start: the message, and the repository and branch when one is chosen. */
function startRequest({ text, repo }: StartInput): AppConversationStartRequest {
  const firstLine = text.split('\n', 1)[0]?.trim() ?? '';
  return {
    // The list shows it: the message's first line, cut at a word near 80 characters.
    title: firstLine.length > 80 ? `${firstLine.slice(0, 80).replace(/\s+\S*$/, '')}…` : firstLine,
    initial_message: { role: 'user', content: [{ type: 'text', text }], run: true },
    ...(repo?.repository
      ? {
          selected_repository: repo.repository,
          git_provider: repo.provider,
          ...(repo.branch ? { selected_branch: repo.branch } : {}),
        }
      : {}),
  } as AppConversationStartRequest;
}

/** The message box that starts a conversation (Enter starts, Shift+Enter is a new line), with its repository. */
export function StartForm({ settings }: { settings: Settings | undefined }) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const providers = connectedProviders(settings);
  const [text, setText] = useState('');
  const [repo, setRepo] = useState<RepoChoice>({ provider: 'github', repository: '', branch: '' });
  const box = useRef<HTMLTextAreaElement>(null);
  // Bumped when a suggested task fills the pickers: they take its repository as their text.
  const [filled, setFilled] = useState(0);
  const first = providers[0];
  useEffect(() => {
    if (first && !providers.includes(repo.provider)) setRepo({ provider: first, repository: '', branch: '' });
  }, [first, providers, repo.provider]);

  const start = useMutation({
    mutationFn: (input: StartInput) => api.post('/api/v1/app-conversations', { body: startRequest(input) }),
    onSuccess: (task) => {
      queryClient.invalidateQueries({ queryKey: START_TASKS_KEY });
      queryClient.invalidateQueries({ queryKey: keys.conversations });
      navigate(`/conversations/${task.id}`);
    },
  });
  const repoChoice = providers.length > 0 ? repo : null;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || start.isPending) return;
    start.mutate({ text: message, repo: repoChoice });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const useTask = (task: SuggestedTask) => {
    setText(taskMessage(task));
    setRepo({ provider: task.git_provider as ProviderType, repository: task.repo, branch: '' });
    setFilled((count) => count + 1);
    box.current?.focus();
  };
  const startTask = (task: SuggestedTask) =>
    start.mutate({
      text: taskMessage(task),
      repo: { provider: task.git_provider as ProviderType, repository: task.repo, branch: '' },
    });

  return (
    <section className="start card" aria-labelledby="start-heading">
      <form onSubmit={submit} className="start-grid">
        <div className="start-message">
          <h1 id="start-heading" className="start-heading">
            <label htmlFor="start-message">What should the agent do?</label>
          </h1>
          <textarea
            id="start-message"
            ref={box}
            className="textarea start-textarea"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Describe a task, for example: add a --json flag to the export command and test it"
            aria-describedby="start-hint"
            rows={5}
          />
          <div className="row start-actions">
            <span id="start-hint" className="muted start-hint">
              <kbd>Enter</kbd> starts, <kbd>Shift</kbd>+<kbd>Enter</kbd> adds a line.
            </span>
            <span className="spacer" />
            <Button type="submit" variant="primary" busy={start.isPending} disabled={!text.trim()}>
              Start
            </Button>
          </div>
          {start.isError && <ErrorNotice error={start.error} />}
        </div>
        <div className="start-repo">
          {providers.length > 0 ? (
            <RepoPicker key={filled} providers={providers} value={repo} onChange={setRepo} />
          ) : (
            <p className="muted no-provider">
              No Git provider is connected, so the agent starts in an empty workspace.{' '}
              <Link to="/settings/git">Connect GitHub, GitLab or Bitbucket</Link> in Settings › Git to work on a
              repository.
            </p>
          )}
        </div>
      </form>
      {providers.length > 0 && <SuggestedTasks onUse={useTask} onStart={startTask} busy={start.isPending} />}
    </section>
  );
}
