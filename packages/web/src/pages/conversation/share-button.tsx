import type { AppConversation } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { ErrorNotice, Notice } from '../../ui/feedback.tsx';

/** The read-only page anyone with the link opens, signed out too (`/shared/conversations/:id`). */
export const sharedLink = (conversationId: string) =>
  `${window.location.origin}/shared/conversations/${encodeURIComponent(conversationId)}`;

/**
 * Share: makes the conversation public (anyone with its link reads it, never its secrets, sandbox or key) and gives
 * the link; Stop sharing makes it private again.
 */
export function ShareButton({ conversation }: { conversation: AppConversation }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [copied, setCopied] = useState(false);
  const shared = conversation.public === true;
  const link = sharedLink(conversation.id);

  const setPublic = async (value: boolean) => {
    setBusy(true);
    setError(undefined);
    setCopied(false);
    try {
      const updated = await api.patch('/api/v1/app-conversations/{conversation_id}', {
        params: { conversation_id: conversation.id },
        body: { public: value },
      });
      queryClient.setQueryData(keys.conversation(conversation.id), updated);
      if (!value) setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refusal): the link is selected for a manual copy.
      (document.getElementById(`shared-link-${conversation.id}`) as HTMLInputElement | null)?.select();
    }
  };

  return (
    <>
      <Button small onClick={() => setOpen(true)} aria-haspopup="dialog">
        {shared ? 'Shared' : 'Share'}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Share this conversation"
        description="Anyone with the link reads it, without signing in: its messages and what the agent did. Never its secrets, its sandbox or its keys."
      >
        <div className="stack">
          {error !== undefined && <ErrorNotice error={error} />}
          {shared ? (
            <>
              <label htmlFor={`shared-link-${conversation.id}`}>Link to the shared conversation</label>
              <input id={`shared-link-${conversation.id}`} className="input" readOnly value={link} />
              {copied && <Notice tone="success">Copied to the clipboard.</Notice>}
              <div className="row">
                <Button variant="primary" onClick={copy}>
                  Copy link
                </Button>
                <Button variant="danger" busy={busy} onClick={() => setPublic(false)}>
                  Stop sharing
                </Button>
              </div>
            </>
          ) : (
            <div className="row">
              <Button variant="primary" busy={busy} onClick={() => setPublic(true)}>
                Share with a link
              </Button>
              <Button onClick={() => setOpen(false)}>Cancel</Button>
            </div>
          )}
        </div>
      </Dialog>
    </>
  );
}
