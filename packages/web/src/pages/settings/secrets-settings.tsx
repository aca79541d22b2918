import { BosunApiError } from '@bosun/client';
import type { CustomSecretWithoutValue } from '@bosun/protocol';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog, DialogClose } from '../../ui/dialog.tsx';
import { ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { Saved } from './saved.tsx';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const nameProblem = (name: string) =>
  name && !NAME.test(name) ? 'A letter or _, then letters, digits or _ (like an environment variable).' : undefined;

/** The secrets given to the agent by name (as environment variables): values go in and are never shown again. */
export function SecretsSettings() {
  const api = useApi();
  const pages = useInfiniteQuery({
    queryKey: keys.secrets,
    queryFn: ({ pageParam }) =>
      api.get('/api/v1/secrets/search', { query: { limit: 50, ...(pageParam ? { page_id: pageParam } : {}) } }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.next_page_id ?? undefined,
  });
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <section aria-labelledby="secrets-heading">
        <h2 id="secrets-heading">Secrets</h2>
        <p className="muted">
          Each conversation’s agent can use them by name, as environment variables. A value is never shown again once
          saved; the agent’s output masks it.
        </p>
        <div className="card">
          {pages.isPending ? (
            <Loading what="secrets" />
          ) : pages.isError && items.length === 0 ? (
            <ErrorNotice error={pages.error} onRetry={() => pages.refetch()} />
          ) : items.length === 0 ? (
            <p className="muted">No secret yet. Add one below, for example an API token the agent needs.</p>
          ) : (
            <ul className="settings-list">
              {items.map((secret) => (
                <SecretRow key={secret.id} secret={secret} />
              ))}
            </ul>
          )}
          {pages.hasNextPage && (
            <Button busy={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()}>
              Load more
            </Button>
          )}
        </div>
      </section>
      <NewSecret />
    </>
  );
}

function NewSecret() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api.post('/api/v1/secrets', {
        body: {
          name: name.trim(),
          value,
          ...(description.trim() ? { description: description.trim() } : {}),
        },
      }),
    onSuccess: async (secret) => {
      setSaved(`Saved ${secret.name}.`);
      setName('');
      setValue('');
      setDescription('');
      await queryClient.invalidateQueries({ queryKey: keys.secrets });
    },
  });
  const taken =
    create.error instanceof BosunApiError && create.error.status === 409
      ? 'A secret of this name exists already: edit it in the list above, or choose another name.'
      : undefined;
  const errors = fieldErrors(create.error);
  const problem = nameProblem(name.trim());
  const edited = () => {
    setSaved(null);
    if (create.isError) create.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && value && !problem) create.mutate();
  };
  return (
    <section aria-labelledby="new-secret-heading">
      <h2 id="new-secret-heading">Add a secret</h2>
      <form className="card settings-form" onSubmit={submit}>
        <Field label="Name" error={problem ?? taken ?? errors.name} hint="For example GITHUB_TOKEN or OPENWEATHER_KEY.">
          <input
            className="input mono"
            value={name}
            spellCheck={false}
            autoComplete="off"
            required
            onChange={(event) => {
              edited();
              setName(event.target.value);
            }}
          />
        </Field>
        <Field label="Value" error={errors.value} hint="Stored encrypted; never shown again.">
          <input
            className="input"
            type="password"
            autoComplete="off"
            required
            value={value}
            onChange={(event) => {
              edited();
              setValue(event.target.value);
            }}
          />
        </Field>
        <Field label="Description" error={errors.description} hint="Optional: what it is for (the agent sees it).">
          <input
            className="input"
            value={description}
            maxLength={1000}
            onChange={(event) => {
              edited();
              setDescription(event.target.value);
            }}
          />
        </Field>
        {create.isError && !taken && !onlyFieldErrors(create.error, ['name', 'value', 'description']) && (
          <ErrorNotice error={create.error} />
        )}
        <Saved shown={saved !== null} what={saved ?? ''} />
        <div className="row form-actions">
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim() || !value}>
            Add secret
          </Button>
        </div>
      </form>
    </section>
  );
}

function SecretRow({ secret }: { secret: CustomSecretWithoutValue }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <li className="settings-item">
      <div className="settings-item-main">
        <strong className="mono">{secret.name}</strong>
        <div className="muted small">
          {secret.description ? `${secret.description} · ` : ''}
          updated <time {...timeProps(secret.updated_at)}>{relativeTime(secret.updated_at)}</time>
        </div>
      </div>
      <div className="row settings-item-actions">
        <Button small variant="ghost" onClick={() => setEditing(true)} aria-label={`Edit ${secret.name}`}>
          Edit
        </Button>
        <Button small variant="ghost" onClick={() => setDeleting(true)} aria-label={`Delete ${secret.name}`}>
          Delete
        </Button>
      </div>
      {editing && <EditSecret secret={secret} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete the secret ${secret.name}?`}
        confirm="Delete"
        onConfirm={async () => {
          await api.delete('/api/v1/secrets/{secret_id}', { params: { secret_id: secret.name } });
          await queryClient.invalidateQueries({ queryKey: keys.secrets });
        }}
      >
        New conversations no longer get it; its value cannot be read back.
      </ConfirmDialog>
    </li>
  );
}

function EditSecret({ secret, onClose }: { secret: CustomSecretWithoutValue; onClose(): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [description, setDescription] = useState(secret.description ?? '');
  const [value, setValue] = useState('');
  const update = useMutation({
    mutationFn: () =>
      api.put('/api/v1/secrets/{secret_id}', {
        params: { secret_id: secret.name },
        body: {
          description: description.trim() || null,
          ...(value ? { value } : {}),
        },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.secrets });
      onClose();
    },
  });
  const errors = fieldErrors(update.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Edit ${secret.name}`}>
      <form onSubmit={submit}>
        <Field label="New value" error={errors.value} hint="Leave empty to keep the stored value (never shown).">
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </Field>
        <Field label="Description" error={errors.description}>
          <input
            className="input"
            value={description}
            maxLength={1000}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        {update.isError && !onlyFieldErrors(update.error, ['value', 'description']) && (
          <ErrorNotice error={update.error} />
        )}
        <div className="row" style={{ marginTop: '1rem' }}>
          <span className="spacer" />
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="primary" busy={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
