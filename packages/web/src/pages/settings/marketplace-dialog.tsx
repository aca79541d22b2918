import type { Marketplace, MarketplacePreview, MarketplaceUpdates } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useApiContext } from '../../api/client.tsx';
import { useSettings } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { ErrorNotice, Notice } from '../../ui/feedback.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { connectedProviders } from '../home/git-providers.ts';
import { MarketplaceOptions } from './marketplace-options.tsx';
import { MarketplacePreviewView } from './marketplace-preview.tsx';
import { NAME, PREFIX, nameOf, pathProblem } from './marketplace-source.ts';
import { RepositoryCombobox } from './repository-combobox.tsx';
import { orgWrite, skillsKeys } from './skills-keys.ts';

interface MarketplaceDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Editing it (its source and name stay); absent: adding one. */
  editing?: Marketplace | undefined;
  /** Whether the person may add to the organization they act in (owners and admins). */
  canWriteOrganization: boolean;
  organizationName?: string | undefined;
  /** The organization entries' version read (`org_version`), for writes of organization entries. */
  orgVersion: string | null;
}

/** Add Repository (or edit one): where the marketplace is, a preview of what it brings, then saved. */
export function MarketplaceDialog(props: MarketplaceDialogProps) {
  const { open, onOpenChange, editing } = props;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? `Edit marketplace ${editing.name}` : 'Add a marketplace repository'}
      description={
        editing
          ? 'Its repository and name stay; change which commit is read, where, and whether it loads by itself.'
          : 'A Git repository holding a marketplace.json: its plugins bring skills, commands, agents, hooks and MCP servers.'
      }
    >
      {/* Mounted while open: each opening starts from the entry (or empty). */}
      {open && <MarketplaceForm {...props} />}
    </Dialog>
  );
}

function MarketplaceForm({
  onOpenChange,
  editing,
  canWriteOrganization,
  organizationName,
  orgVersion,
}: MarketplaceDialogProps) {
  const { api, orgId } = useApiContext();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const providers = connectedProviders(settings.data).filter((provider) => PREFIX[provider]);
  const [source, setSource] = useState(editing?.source ?? '');
  const [ref, setRef] = useState(editing?.ref ?? '');
  const [repoPath, setRepoPath] = useState(editing?.repo_path ?? '');
  const [name, setName] = useState(editing?.name ?? '');
  const [nameTouched, setNameTouched] = useState(Boolean(editing));
  const [scope, setScope] = useState<'personal' | 'organization'>('personal');
  const [autoLoad, setAutoLoad] = useState(editing?.auto_load ?? false);
  const [updates, setUpdates] = useState<MarketplaceUpdates>(editing?.updates ?? 'follow');
  const [preview, setPreview] = useState<{ key: string; result: MarketplacePreview } | undefined>(undefined);
  const scopeName = useId();
  const updatesName = useId();

  const trimmed = { source: source.trim(), ref: ref.trim(), repoPath: repoPath.trim().replace(/\/+$/, '') };
  const shownName = nameTouched ? name : nameOf(source);
  const location = JSON.stringify([trimmed.source, trimmed.ref, trimmed.repoPath]);
  const previewed = preview?.key === location ? preview.result : undefined;

  const previewing = useMutation({
    // A preview request (not the older list of registrations) is answered a preview.
    mutationFn: async () =>
      (await api.post('/api/v1/skills/marketplace-skills', {
        body: { source: trimmed.source, ref: trimmed.ref || null, repo_path: trimmed.repoPath || null },
      })) as MarketplacePreview,
    onSuccess: (result, _vars) => setPreview({ key: location, result }),
  });
  const saving = useMutation({
    mutationFn: async () => {
      const change = {
        ref: trimmed.ref || null,
        repo_path: trimmed.repoPath || null,
        auto_load: autoLoad,
        updates,
      };
      if (editing) {
        const { expected_version, ...inOrg } = orgWrite(editing, orgVersion);
        return api.patch('/api/v1/marketplaces/{scope}/{name}', {
          params: { scope: editing.scope, name: editing.name },
          query: inOrg,
          body: { ...change, expected_version },
        });
      }
      return api.post('/api/v1/marketplaces', {
        body: {
          source: trimmed.source,
          name: shownName,
          ...change,
          scope,
          ...(scope === 'organization' && orgId ? { org_id: orgId } : {}),
          ...(scope === 'organization' && orgVersion ? { expected_version: orgVersion } : {}),
        },
      });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: skillsKeys.all });
      onOpenChange(false);
    },
  });

  // A refused preview or save: each 422 next to its field; anything else as a notice.
  const failed = saving.error ?? previewing.error;
  const errors = fieldErrors(failed);
  const fields = ['source', 'ref', 'repo_path', 'name', 'scope', 'auto_load', 'updates'];
  const otherErrors = Object.entries(errors).filter(([field]) => !fields.includes(field));
  const notice = failed && (Object.keys(errors).length === 0 || otherErrors.length > 0) ? failed : null;
  const pathError = pathProblem(trimmed.repoPath);
  const nameError =
    !editing && shownName && !NAME.test(shownName) ? 'A letter, then letters, digits, - or _.' : undefined;
  const ready = trimmed.source !== '' && !pathError && !nameError && (editing || shownName !== '');

  const edited = () => {
    if (previewing.isError) previewing.reset();
    if (saving.isError) saving.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    // Enter previews first; once the preview shows what it brings, it saves.
    if (previewed || editing) saving.mutate();
    else previewing.mutate();
  };

  return (
    <form className="marketplace-form" onSubmit={submit} noValidate>
      {editing ? (
        <p className="marketplace-fixed">
          <span className="field-label">Repository</span> <code>{editing.source}</code>
        </p>
      ) : (
        <Field
          label="Repository"
          hint={
            providers.length > 0
              ? 'Pick one of your repositories, or type github:owner/repo, gitlab:group/repo, bitbucket:owner/repo or a Git URL.'
              : 'github:owner/repo, gitlab:group/repo, bitbucket:owner/repo or a Git URL (https://…, no credentials).'
          }
          error={
            errors.source ? (
              <>
                {errors.source}
                {/provider|address|host|reach/i.test(errors.source) && (
                  <span className="source-hint muted">
                    The server fetches only from its configured Git providers: an administrator adds the host with
                    git_github_url, git_gitlab_url or git_bitbucket_url (a host on a private network also needs
                    git_allow_private_hosts).
                  </span>
                )}
              </>
            ) : undefined
          }
        >
          {providers.length > 0 ? (
            <RepositoryCombobox
              providers={providers}
              value={source}
              onChange={(value) => {
                setSource(value);
                edited();
              }}
            />
          ) : (
            <input
              className="input"
              value={source}
              autoComplete="off"
              spellCheck={false}
              placeholder="github:owner/repo"
              onChange={(event) => {
                setSource(event.target.value);
                edited();
              }}
            />
          )}
        </Field>
      )}
      <div className="row marketplace-form-row">
        <Field label="Branch, tag or commit" hint="Empty: the default branch." error={errors.ref}>
          <input
            className="input"
            value={ref}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              setRef(event.target.value);
              edited();
            }}
          />
        </Field>
        <Field
          label="Path in the repository"
          hint="Empty: the repository’s root."
          error={pathError ?? errors.repo_path}
        >
          <input
            className="input"
            value={repoPath}
            autoComplete="off"
            spellCheck={false}
            placeholder="plugins/"
            onChange={(event) => {
              setRepoPath(event.target.value);
              edited();
            }}
          />
        </Field>
      </div>
      {editing ? (
        <p className="marketplace-fixed">
          <span className="field-label">Name</span> <code>{editing.name}</code>
        </p>
      ) : (
        <Field
          label="Name"
          hint="Plugins are named plugin@name. Derived from the repository; change it if you like."
          error={nameError ?? errors.name}
        >
          <input
            className="input"
            value={shownName}
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            onChange={(event) => {
              setName(event.target.value);
              setNameTouched(true);
              edited();
            }}
          />
        </Field>
      )}
      <MarketplaceOptions
        chooseScope={!editing && canWriteOrganization}
        organizationName={organizationName}
        scope={scope}
        setScope={setScope}
        autoLoad={autoLoad}
        setAutoLoad={setAutoLoad}
        updates={updates}
        setUpdates={setUpdates}
        scopeName={scopeName}
        updatesName={updatesName}
      />
      {notice ? <ErrorNotice error={notice} /> : null}
      {previewed && <MarketplacePreviewView preview={previewed} />}
      {editing && !previewed && (
        <Button small onClick={() => previewing.mutate()} busy={previewing.isPending} disabled={!ready}>
          Preview what it brings
        </Button>
      )}
      {!editing && !previewed && trimmed.source && (
        <Notice tone="info">Preview it first: the server reads the repository and shows what it brings.</Notice>
      )}
      <div className="row form-actions">
        <span className="spacer" />
        <Button onClick={() => onOpenChange(false)}>Cancel</Button>
        {!editing && !previewed && previewing.isError && (
          <Button busy={saving.isPending} disabled={!ready} onClick={() => saving.mutate()}>
            Add without preview
          </Button>
        )}
        {editing || previewed ? (
          <Button type="submit" variant="primary" busy={saving.isPending} disabled={!ready}>
            {editing ? 'Save changes' : 'Add marketplace'}
          </Button>
        ) : (
          <Button type="submit" variant="primary" busy={previewing.isPending} disabled={!ready}>
            Preview
          </Button>
        )}
      </div>
    </form>
  );
}
