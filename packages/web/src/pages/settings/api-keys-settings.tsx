import type { ApiKey, ApiKeyCreated } from '@bosun/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { dateTime, relativeTime, timeProps } from '../../ui/time.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** The end of the chosen day, in the reader's time zone, as the API wants it. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/** API keys for scripts and the CLI: made with a name and an optional expiry, shown once, revoked. */
export function ApiKeysSettings() {
  const api = useApi();
  const list = useQuery({ queryKey: keys.apiKeys, queryFn: () => api.get('/api/v1/keys') });
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  return (
    <>
      <section aria-labelledby="api-keys-heading">
        <h2 id="api-keys-heading">API keys</h2>
        <p className="muted">
          A key acts as you from scripts and the <code>bosun</code> command line (<code>Authorization: Bearer</code>).
        </p>
        {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
        <NewKey onCreated={setCreated} />
      </section>
      <section aria-labelledby="your-keys-heading">
        <h2 id="your-keys-heading">Your keys</h2>
        <div className="card">
          {list.isPending ? (
            <Loading what="API keys" />
          ) : list.isError ? (
            <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
          ) : list.data.length === 0 ? (
            <p className="muted">No API key yet. Create one above when a script needs to act as you.</p>
          ) : (
            <ul className="settings-list">
              {list.data.map((key) => (
                <KeyRow key={key.id} apiKey={key} />
              ))}
            </ul>
          )}
        </div>
      </section>
    </>
  );
}

function NewKey({ onCreated }: { onCreated(key: ApiKeyCreated): void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.post('/api/v1/keys', {
        body: {
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(expires ? { expires_at: endOfDay(expires) } : {}),
        },
      }),
    onSuccess: async (key) => {
      onCreated(key);
      setName('');
      setExpires('');
      await queryClient.invalidateQueries({ queryKey: keys.apiKeys });
    },
  });
  const errors = fieldErrors(create.error);
  const past = expires && expires <= today() ? 'Choose a day after today.' : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!past) create.mutate();
  };
  return (
    <form className="card settings-form" onSubmit={submit}>
      <Field label="Name" error={errors.name} hint="What uses it, to recognise it later.">
        <input
          className="input"
          value={name}
          maxLength={255}
          placeholder="CI deploy script"
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Field
        label="Expires on"
        error={past ?? errors.expires_at}
        hint="Optional: leave empty for a key that does not expire."
      >
        <input
          className="input input-date"
          type="date"
          min={today()}
          value={expires}
          onChange={(event) => setExpires(event.target.value)}
        />
      </Field>
      {create.isError && !onlyFieldErrors(create.error, ['name', 'expires_at']) && <ErrorNotice error={create.error} />}
      <div className="row form-actions">
        <Button type="submit" variant="primary" busy={create.isPending} disabled={Boolean(past)}>
          Create API key
        </Button>
      </div>
    </form>
  );
}

/** The new key, this once: copy it now. */
function CreatedKey({ created, onDone }: { created: ApiKeyCreated; onDone(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  // The key is what matters now: focused (and selected) as it appears.
  useEffect(() => field.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      // No clipboard (an insecure origin): the key is selected for the person to copy.
      field.current?.select();
      setCopied('no');
    }
  };
  return (
    <section className="card created-key" aria-label="Your new API key">
      <Notice tone="warning" title="Copy this key now.">
        You will not see it again: Bosun keeps only a digest of it.
      </Notice>
      <div className="row created-key-row">
        <label htmlFor="new-api-key" className="visually-hidden">
          New API key {created.name ?? ''}
        </label>
        <input
          id="new-api-key"
          ref={field}
          className="input mono"
          readOnly
          value={created.key}
          onFocus={(event) => event.target.select()}
        />
        <Button variant="primary" onClick={copy}>
          Copy
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
      <output className="muted small">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Selected: press Ctrl+C (⌘C) to copy.' : ''}
      </output>
    </section>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState(false);
  const name = apiKey.name ?? 'Unnamed key';
  const expired = apiKey.expires_at !== null && new Date(apiKey.expires_at).getTime() < Date.now();
  return (
    <li className="settings-item">
      <div className="settings-item-main">
        <div className="row">
          <strong>{name}</strong>
          <code className="muted">{apiKey.prefix}…</code>
          {expired && <Badge tone="danger">Expired</Badge>}
          {apiKey.org_id && <Badge tone="info">Organization</Badge>}
        </div>
        <div className="muted small">
          Created <time {...timeProps(apiKey.created_at)}>{relativeTime(apiKey.created_at)}</time>
          {' · '}
          {apiKey.expires_at ? (
            <>
              {expired ? 'expired' : 'expires'} <time dateTime={apiKey.expires_at}>{dateTime(apiKey.expires_at)}</time>
            </>
          ) : (
            'never expires'
          )}
          {' · '}
          {apiKey.last_used_at ? (
            <>
              last used <time {...timeProps(apiKey.last_used_at)}>{relativeTime(apiKey.last_used_at)}</time>
            </>
          ) : (
            'never used'
          )}
        </div>
      </div>
      <div className="row settings-item-actions">
        <Button small variant="danger" onClick={() => setRevoking(true)} aria-label={`Revoke ${name}`}>
          Revoke
        </Button>
      </div>
      <ConfirmDialog
        open={revoking}
        onOpenChange={setRevoking}
        title={`Revoke “${name}”?`}
        confirm="Revoke"
        onConfirm={async () => {
          await api.delete('/api/v1/keys/{key_id}', { params: { key_id: apiKey.id } });
          await queryClient.invalidateQueries({ queryKey: keys.apiKeys });
        }}
      >
        Whatever uses it is refused from now on. This cannot be undone.
      </ConfirmDialog>
    </li>
  );
}
