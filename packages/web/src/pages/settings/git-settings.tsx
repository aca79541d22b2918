import type { ProviderType, Settings } from '@bosun/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys, useSettings } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Badge, ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { PROVIDER_NAMES } from '../home/git-providers.ts';
import { Saved } from './saved.tsx';

const PROVIDERS: { id: ProviderType; host: string; token: string }[] = [
  { id: 'github', host: 'github.com', token: 'A personal access token (classic or fine-grained) with repo access.' },
  { id: 'gitlab', host: 'gitlab.com', token: 'A personal access token with the api and write_repository scopes.' },
  { id: 'bitbucket', host: 'bitbucket.org', token: 'An API token, or username:app-password.' },
];

/** The Git providers: which are connected (and as whom), a token per provider, and removing them. */
export function GitSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [removing, setRemoving] = useState(false);
  const connected = settings.data?.provider_tokens_set ?? {};
  const any = Object.keys(connected).length > 0;
  const account = useQuery({
    queryKey: keys.gitInfo,
    queryFn: () => api.get('/api/v1/users/git-info'),
    enabled: any,
    retry: false,
  });
  if (settings.isPending) return <Loading what="settings" />;
  if (settings.isError) return <ErrorNotice error={settings.error} onRetry={() => settings.refetch()} />;
  return (
    <section aria-labelledby="git-heading">
      <h2 id="git-heading">Git providers</h2>
      <p className="muted">
        A token lets the agent clone and push your repositories and lets you pick them when you start a conversation.
        Tokens are stored encrypted and never shown again.
      </p>
      {account.data?.login && (
        <p>
          Signed in to {PROVIDER_NAMES[account.data.provider] ?? account.data.provider} as{' '}
          <strong>{account.data.login}</strong>
          {account.data.name ? ` (${account.data.name})` : ''}.
        </p>
      )}
      <div className="stack">
        {PROVIDERS.map((provider) => (
          <ProviderCard key={provider.id} provider={provider} settings={settings.data} />
        ))}
      </div>
      {any && (
        <div className="row form-actions">
          <Button variant="danger" onClick={() => setRemoving(true)}>
            Remove all tokens
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove every Git provider token?"
        confirm="Remove"
        onConfirm={async () => {
          await api.delete('/api/v1/secrets/git-providers');
          await queryClient.invalidateQueries({ queryKey: keys.settings });
          queryClient.removeQueries({ queryKey: keys.gitInfo });
        }}
      >
        Every provider’s token is removed (one cannot be removed alone: store a new token to replace one). New
        conversations can no longer clone private repositories.
      </ConfirmDialog>
    </section>
  );
}

function ProviderCard({ provider, settings }: { provider: (typeof PROVIDERS)[number]; settings: Settings }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const name = PROVIDER_NAMES[provider.id] ?? provider.id;
  const set = settings.provider_tokens_set as Record<string, string | null | undefined>;
  const isConnected = provider.id in set;
  const storedHost = set[provider.id] ?? '';
  const [token, setToken] = useState('');
  const [host, setHost] = useState(storedHost);
  const [saved, setSaved] = useState(false);
  const store = useMutation({
    mutationFn: () =>
      api.post('/api/v1/secrets/git-providers', {
        body: {
          provider_tokens: { [provider.id]: { token: token || null, host: host.trim() || null } },
        },
      }),
    onSuccess: async () => {
      setToken('');
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: keys.settings });
      await queryClient.invalidateQueries({ queryKey: keys.gitInfo });
    },
  });
  // A new token, or (with one stored) only a new host.
  const canSave = token !== '' || (isConnected && host.trim() !== storedHost);
  const errors = fieldErrors(store.error);
  const edited = () => {
    setSaved(false);
    if (store.isError) store.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSave) store.mutate();
  };
  return (
    <form className="card settings-form" onSubmit={submit} aria-labelledby={`${provider.id}-heading`}>
      <div className="row">
        <h3 id={`${provider.id}-heading`} className="provider-name">
          {name}
        </h3>
        {isConnected ? (
          <Badge tone="success">Connected{storedHost ? ` · ${storedHost}` : ''}</Badge>
        ) : (
          <Badge>Not connected</Badge>
        )}
      </div>
      <Field label={`${name} token`} error={errors.token} hint={provider.token}>
        <input
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          placeholder={isConnected ? 'A token is stored: type a new one to replace it' : ''}
          onChange={(event) => {
            edited();
            setToken(event.target.value);
          }}
        />
      </Field>
      <Field
        label={`${name} host`}
        error={errors.host}
        hint={`Only for a self-hosted ${name}; leave empty for ${provider.host}.`}
      >
        <input
          className="input"
          spellCheck={false}
          value={host}
          placeholder={provider.host}
          onChange={(event) => {
            edited();
            setHost(event.target.value);
          }}
        />
      </Field>
      {store.isError && !onlyFieldErrors(store.error, ['token', 'host']) && <ErrorNotice error={store.error} />}
      <Saved shown={saved} what={`Saved the ${name} token.`} />
      <div className="row form-actions">
        <Button
          type="submit"
          variant="primary"
          busy={store.isPending}
          disabled={!canSave}
          aria-label={`Save ${name} token`}
        >
          Save
        </Button>
      </div>
    </form>
  );
}
