import { downloadAppConversation } from '@bosun/client';
import type { AppConversation } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { describeError } from '../../api/errors.ts';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { RenameDialog } from './rename-dialog.tsx';
import { StatusBadges } from './status-badges.tsx';

/** Saves the conversation's export (a zip of its events) under the name the server gives it. */
async function download(api: ReturnType<typeof useApi>, id: string) {
  const bytes = await downloadAppConversation(api, id);
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `conversation_${id.replace(/-/g, '')}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One conversation: its title (a link to it), statuses, repository, when it changed, and what can be done to it. */
export function ConversationRow({ conversation }: { conversation: AppConversation }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const title = conversation.title || 'Untitled conversation';
  const remove = async () => {
    await api.delete('/api/v1/app-conversations/{conversation_id}', { params: { conversation_id: conversation.id } });
    await queryClient.invalidateQueries({ queryKey: keys.conversations });
  };
  const save = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await download(api, conversation.id);
    } catch (error) {
      setDownloadError(describeError(error));
    } finally {
      setDownloading(false);
    }
  };
  const repository = conversation.selected_repository;
  return (
    <li className="conversation-row">
      <div className="conversation-main">
        <Link to={`/conversations/${conversation.id}`} className="conversation-title">
          {title}
        </Link>
        <div className="row conversation-meta">
          <StatusBadges conversation={conversation} />
          {repository && (
            <span className="muted conversation-repo" title="Repository">
              {repository}
              {conversation.selected_branch ? ` @ ${conversation.selected_branch}` : ''}
            </span>
          )}
          <span className="muted">
            Updated <time {...timeProps(conversation.updated_at)}>{relativeTime(conversation.updated_at)}</time>
          </span>
        </div>
        {downloadError && (
          <p className="error-text" role="alert">
            {downloadError}
          </p>
        )}
      </div>
      <div className="row conversation-actions">
        <Button small variant="ghost" aria-label={`Rename ${title}`} onClick={() => setRenaming(true)}>
          Rename
        </Button>
        <Button small variant="ghost" aria-label={`Download ${title}`} busy={downloading} onClick={save}>
          Download
        </Button>
        <Button small variant="ghost" aria-label={`Delete ${title}`} onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </div>
      {renaming && <RenameDialog conversation={conversation} open={renaming} onOpenChange={setRenaming} />}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this conversation?"
        confirm="Delete"
        onConfirm={remove}
      >
        “{title}” and its events are deleted, and its sandbox with them unless another conversation uses it. This cannot
        be undone.
      </ConfirmDialog>
    </li>
  );
}
