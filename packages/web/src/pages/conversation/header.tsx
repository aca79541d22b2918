import { downloadAppConversation } from '@bosun/client';
import type { AppConversation } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { describeError } from '../../api/errors.ts';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { EXECUTION_STATUS, SANDBOX_STATUS } from '../../ui/conversation-status.ts';
import { Badge } from '../../ui/feedback.tsx';
import type { Connection } from './live/use-live-events.ts';
import { RepositoryBranch } from './repository-branch.tsx';
import { ShareButton } from './share-button.tsx';

/** The conversation's header: back home, its title (renamed in place), its statuses, where it works, its export. */
export function ConversationHeader({
  conversation,
  executionStatus,
  connection,
  connectionDetail,
  onReconnect,
  actions,
}: {
  conversation: AppConversation;
  executionStatus: string | undefined;
  connection: Connection;
  connectionDetail: string | undefined;
  onReconnect: () => void;
  actions?: ReactNode;
}) {
  const status = executionStatus ? EXECUTION_STATUS[executionStatus] : undefined;
  const sandbox = SANDBOX_STATUS[conversation.sandbox_status];
  return (
    <header className="conv-header">
      <div className="conv-header-top">
        <Link to="/" className="back-link">
          <span aria-hidden="true">←</span> Conversations
        </Link>
        <Title conversation={conversation} />
      </div>
      <div className="conv-header-meta">
        {status && (
          <Badge tone={status.tone} title="What the agent is doing">
            {status.label}
          </Badge>
        )}
        {sandbox && (
          <Badge tone={sandbox.tone} title={conversation.sandbox_status_detail ?? 'The sandbox the agent works in'}>
            {sandbox.label}
          </Badge>
        )}
        <RepositoryBranch repository={conversation.selected_repository} branch={conversation.selected_branch} />
        {conversation.llm_model && <span className="muted small model-name">{conversation.llm_model}</span>}
        <ConnectionIndicator connection={connection} detail={connectionDetail} onReconnect={onReconnect} />
        <span className="spacer" />
        {actions}
        <ShareButton conversation={conversation} />
        <DownloadButton conversationId={conversation.id} />
      </div>
    </header>
  );
}

function Title({ conversation }: { conversation: AppConversation }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const title = conversation.title?.trim() || 'Untitled conversation';
  const start = () => {
    setValue(conversation.title ?? '');
    setError(undefined);
    setEditing(true);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const next = value.trim();
    if (!next || next === conversation.title) {
      setEditing(false);
      return;
    }
    setBusy(true);
    try {
      const updated = await api.patch('/api/v1/app-conversations/{conversation_id}', {
        params: { conversation_id: conversation.id },
        body: { title: next },
      });
      queryClient.setQueryData(keys.conversation(conversation.id), updated);
      queryClient.invalidateQueries({ queryKey: keys.conversations });
      setEditing(false);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  if (editing) {
    return (
      <form className="title-form" onSubmit={save}>
        <label htmlFor="conversation-title" className="visually-hidden">
          Title
        </label>
        <input
          id="conversation-title"
          className="input title-input"
          value={value}
          maxLength={200}
          // biome-ignore lint/a11y/noAutofocus: the person just asked to rename
          autoFocus
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setEditing(false);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'title-error' : undefined}
        />
        <Button small variant="primary" type="submit" busy={busy}>
          Save
        </Button>
        <Button small onClick={() => setEditing(false)}>
          Cancel
        </Button>
        {error && (
          <span id="title-error" className="text-danger small" role="alert">
            {error}
          </span>
        )}
      </form>
    );
  }
  return (
    <div className="title-row">
      <h1 className="conv-title" title={title}>
        {title}
      </h1>
      <Button small variant="ghost" onClick={start} aria-label="Rename">
        <span aria-hidden="true">✎</span>
      </Button>
    </div>
  );
}

const CONNECTION = {
  connecting: { label: 'Connecting', className: 'conn-connecting' },
  live: { label: 'Live', className: 'conn-live' },
  reconnecting: { label: 'Reconnecting', className: 'conn-reconnecting' },
  offline: { label: 'Offline', className: 'conn-offline' },
} as const;

function ConnectionIndicator({
  connection,
  detail,
  onReconnect,
}: {
  connection: Connection;
  detail: string | undefined;
  onReconnect: () => void;
}) {
  const { label, className } = CONNECTION[connection];
  return (
    <span className={`connection ${className}`} title={detail ?? 'Events arrive as they happen'}>
      <output aria-label={`Live updates: ${label}${detail ? `. ${detail}` : ''}`}>
        <span className="conn-dot" aria-hidden="true" /> {label}
      </output>
      {connection === 'offline' && (
        <Button small onClick={onReconnect}>
          Reconnect
        </Button>
      )}
    </span>
  );
}

function DownloadButton({ conversationId }: { conversationId: string }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const bytes = await downloadAppConversation(api, conversationId);
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `conversation_${conversationId}.zip`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button small busy={busy} onClick={download} title="A zip of the conversation and its events">
        Download
      </Button>
      {error && (
        <span className="text-danger small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
