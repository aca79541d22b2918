import type { AppConversation } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog, DialogClose } from '../../ui/dialog.tsx';
import { ErrorNotice } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';

interface RenameDialogProps {
  conversation: AppConversation;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** A conversation's new title (1 to 200 characters). */
export function RenameDialog({ conversation, open, onOpenChange }: RenameDialogProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(conversation.title ?? '');
  const rename = useMutation({
    mutationFn: (next: string) =>
      api.patch('/api/v1/app-conversations/{conversation_id}', {
        params: { conversation_id: conversation.id },
        body: { title: next },
      }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: keys.conversations });
      queryClient.invalidateQueries({ queryKey: keys.conversation(conversation.id) });
      onOpenChange(false);
    },
  });
  const trimmed = title.trim();
  const tooLong = trimmed.length > 200 ? 'At most 200 characters.' : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed && !tooLong) rename.mutate(trimmed);
  };
  const change = (next: boolean) => {
    if (next) setTitle(conversation.title ?? '');
    rename.reset();
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={change} title="Rename conversation">
      <form onSubmit={submit}>
        <Field label="Title" error={tooLong ?? fieldErrors(rename.error).title}>
          <input
            className="input"
            value={title}
            maxLength={400}
            onChange={(event) => setTitle(event.target.value)}
            required
          />
        </Field>
        {rename.isError && !onlyFieldErrors(rename.error, ['title']) && <ErrorNotice error={rename.error} />}
        <div className="row" style={{ marginTop: '1rem' }}>
          <span className="spacer" />
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="primary" busy={rename.isPending} disabled={!trimmed}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
