import type { GitChange } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../api/client.tsx';
import { Button } from '../../../ui/button.tsx';
import { Badge, ErrorNotice, Loading, type Tone } from '../../../ui/feedback.tsx';
import { Diff } from '../render/diff.tsx';

const STATUS: Record<GitChange['status'], { label: string; tone: Tone; letter: string }> = {
  ADDED: { label: 'Added', tone: 'success', letter: 'A' },
  UPDATED: { label: 'Changed', tone: 'info', letter: 'M' },
  DELETED: { label: 'Deleted', tone: 'danger', letter: 'D' },
  MOVED: { label: 'Moved', tone: 'warning', letter: 'R' },
};

/**
 * The workspace's changes (its repository against HEAD), file by file, each diff read when opened. `version`
 * changes when the agent may have changed files, to read the list again.
 */
export function ChangesPane({
  conversationId,
  version,
  running,
}: { conversationId: string; version: number; running: boolean }) {
  const api = useApi();
  const changes = useQuery({
    queryKey: ['conversation-git-changes', conversationId, version],
    queryFn: () =>
      api.get('/api/v1/app-conversations/{conversation_id}/git/changes', {
        params: { conversation_id: conversationId },
      }),
    enabled: running,
    placeholderData: (previous) => previous,
    retry: false,
  });
  if (!running) return <p className="muted">The sandbox does not run: resume it to see the workspace's changes.</p>;
  if (changes.isPending) return <Loading what="the changes" />;
  if (changes.isError) return <ErrorNotice error={changes.error} onRetry={() => changes.refetch()} />;
  const list = changes.data ?? [];
  return (
    <div className="stack pane-changes">
      <div className="row">
        <span className="muted small">
          {list.length === 0
            ? 'No change yet (or the working directory is not a Git repository).'
            : `${list.length} ${list.length === 1 ? 'file' : 'files'} changed`}
        </span>
        <span className="spacer" />
        <Button small busy={changes.isFetching} onClick={() => changes.refetch()}>
          Refresh
        </Button>
      </div>
      <ul className="change-list">
        {list.map((change) => (
          <ChangeItem key={change.path} conversationId={conversationId} change={change} version={version} />
        ))}
      </ul>
    </div>
  );
}

function ChangeItem({
  conversationId,
  change,
  version,
}: { conversationId: string; change: GitChange; version: number }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const diff = useQuery({
    queryKey: ['conversation-git-diff', conversationId, change.path, version],
    queryFn: () =>
      api.get('/api/v1/app-conversations/{conversation_id}/git/diff', {
        params: { conversation_id: conversationId },
        query: { path: change.path },
      }),
    enabled: open,
    retry: false,
  });
  const status = STATUS[change.status];
  return (
    <li className="change-item">
      <button type="button" className="change-head" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <Badge tone={status.tone} title={status.label}>
          <span aria-hidden="true">{status.letter}</span>
          <span className="visually-hidden">{status.label}</span>
        </Badge>
        <code className="change-path">{change.path}</code>
        <span className="chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
      </button>
      {open &&
        (diff.isPending ? (
          <Loading what="the diff" />
        ) : diff.isError ? (
          <ErrorNotice error={diff.error} onRetry={() => diff.refetch()} />
        ) : (
          <Diff oldText={diff.data.original ?? ''} newText={diff.data.modified ?? ''} path={change.path} />
        ))}
    </li>
  );
}
