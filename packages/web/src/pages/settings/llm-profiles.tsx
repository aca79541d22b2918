import type { ProfileInfo } from '@bosun/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog, DialogClose } from '../../ui/dialog.tsx';
import { Badge, ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { Saved } from './saved.tsx';

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const nameProblem = (name: string) =>
  name && !NAME_PATTERN.test(name)
    ? 'A letter or digit, then letters, digits, dots, dashes or underscores (at most 64).'
    : undefined;

/** The saved LLM configurations: save the current one, activate, rename, delete. */
export function LlmProfiles() {
  const api = useApi();
  const queryClient = useQueryClient();
  const profiles = useQuery({ queryKey: keys.profiles, queryFn: () => api.get('/api/v1/settings/profiles') });
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: keys.profiles });
    await queryClient.invalidateQueries({ queryKey: keys.settings });
  };
  const save = useMutation({
    mutationFn: (profile: string) =>
      api.post('/api/v1/settings/profiles/{name}', { params: { name: profile }, body: {} }),
    onSuccess: async (_, profile) => {
      setName('');
      setSaved(`Saved the current model as “${profile}”.`);
      await refresh();
    },
  });
  const activate = useMutation({
    mutationFn: (profile: string) =>
      api.post('/api/v1/settings/profiles/{name}/activate', { params: { name: profile } }),
    onSuccess: async (answer) => {
      setSaved(`“${answer.name}” is active: new conversations use ${answer.model ?? 'its model'}.`);
      await refresh();
    },
  });
  const problem = nameProblem(name.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && !problem) save.mutate(name.trim());
  };
  const list = profiles.data?.profiles ?? [];
  return (
    <section aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Profiles</h2>
      <p className="muted">Named copies of a model, its base URL and key, to switch between them in one click.</p>
      <div className="card stack">
        {profiles.isPending ? (
          <Loading what="profiles" />
        ) : profiles.isError ? (
          <ErrorNotice error={profiles.error} onRetry={() => profiles.refetch()} />
        ) : list.length === 0 ? (
          <p className="muted">No profile yet: save the model above as one.</p>
        ) : (
          <ul className="settings-list">
            {list.map((profile) => (
              <ProfileRow
                key={profile.name}
                profile={profile}
                active={profiles.data?.active_profile === profile.name}
                onActivate={() => activate.mutate(profile.name)}
                activating={activate.isPending && activate.variables === profile.name}
                onChanged={refresh}
              />
            ))}
          </ul>
        )}
        {activate.isError && <ErrorNotice error={activate.error} />}
        <Saved shown={saved !== null} what={saved ?? ''} />
        <form onSubmit={submit} className="row inline-form">
          <Field label="Profile name" error={problem ?? fieldErrors(save.error).name}>
            <input
              className="input"
              value={name}
              placeholder="fast, careful, local…"
              onChange={(event) => {
                setName(event.target.value);
                setSaved(null);
                save.reset();
              }}
            />
          </Field>
          <Button type="submit" busy={save.isPending} disabled={!name.trim() || Boolean(problem)}>
            Save current as profile
          </Button>
        </form>
        {save.isError && !onlyFieldErrors(save.error, ['name']) && <ErrorNotice error={save.error} />}
      </div>
    </section>
  );
}

interface ProfileRowProps {
  profile: ProfileInfo;
  active: boolean;
  activating: boolean;
  onActivate(): void;
  onChanged(): Promise<void>;
}

function ProfileRow({ profile, active, activating, onActivate, onChanged }: ProfileRowProps) {
  const api = useApi();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <li className="settings-item">
      <div className="settings-item-main">
        <div className="row">
          <strong>{profile.name}</strong>
          {active && <Badge tone="success">Active</Badge>}
          {!profile.api_key_set && <Badge>No key</Badge>}
        </div>
        <div className="muted small">
          {profile.model ?? 'no model'}
          {profile.base_url ? ` · ${profile.base_url}` : ''}
        </div>
      </div>
      <div className="row settings-item-actions">
        {!active && (
          <Button small busy={activating} onClick={onActivate} aria-label={`Activate ${profile.name}`}>
            Activate
          </Button>
        )}
        <Button small variant="ghost" onClick={() => setRenaming(true)} aria-label={`Rename ${profile.name}`}>
          Rename
        </Button>
        <Button small variant="ghost" onClick={() => setDeleting(true)} aria-label={`Delete ${profile.name}`}>
          Delete
        </Button>
      </div>
      {renaming && <RenameProfile name={profile.name} onClose={() => setRenaming(false)} onChanged={onChanged} />}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete the profile “${profile.name}”?`}
        confirm="Delete"
        onConfirm={async () => {
          await api.delete('/api/v1/settings/profiles/{name}', { params: { name: profile.name } });
          await onChanged();
        }}
      >
        Its model, base URL and key are forgotten. The settings keep the model they have now.
      </ConfirmDialog>
    </li>
  );
}

function RenameProfile({ name, onClose, onChanged }: { name: string; onClose(): void; onChanged(): Promise<void> }) {
  const api = useApi();
  const [next, setNext] = useState(name);
  const rename = useMutation({
    mutationFn: () =>
      api.post('/api/v1/settings/profiles/{name}/rename', { params: { name }, body: { new_name: next.trim() } }),
    onSuccess: async () => {
      await onChanged();
      onClose();
    },
  });
  const problem = nameProblem(next.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (next.trim() && !problem) rename.mutate();
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Rename the profile “${name}”`}>
      <form onSubmit={submit}>
        <Field label="New name" error={problem ?? fieldErrors(rename.error).new_name}>
          <input className="input" value={next} onChange={(event) => setNext(event.target.value)} />
        </Field>
        {rename.isError && !onlyFieldErrors(rename.error, ['new_name']) && <ErrorNotice error={rename.error} />}
        <div className="row" style={{ marginTop: '1rem' }}>
          <span className="spacer" />
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="primary" busy={rename.isPending} disabled={!next.trim() || Boolean(problem)}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
