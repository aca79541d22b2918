import type { ProviderType } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { describeError } from '../../api/errors.ts';
import { Combobox } from '../../ui/combobox.tsx';
import { Field } from '../../ui/field.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { PROVIDER_NAMES } from './git-providers.ts';

export interface RepoChoice {
  provider: ProviderType;
  repository: string;
  branch: string;
}

interface RepoPickerProps {
  providers: ProviderType[];
  value: RepoChoice;
  onChange(value: RepoChoice): void;
}

/** The provider (when several are connected), a repository of the caller's and one of its branches. */
export function RepoPicker({ providers, value, onChange }: RepoPickerProps) {
  const api = useApi();
  const [repoText, setRepoText] = useState(value.repository);
  const [branchText, setBranchText] = useState(value.branch);
  const repoQuery = useDebounced(repoText.trim());
  const branchQuery = useDebounced(branchText.trim());
  const { provider, repository } = value;

  const repositories = useQuery({
    queryKey: ['git-repositories', provider, repoQuery],
    queryFn: () =>
      api.get('/api/v1/git/repositories/search', {
        query: { provider, limit: 20, ...(repoQuery ? { query: repoQuery } : {}) },
      }),
    staleTime: 60_000,
    retry: false,
  });
  const branches = useQuery({
    queryKey: ['git-branches', provider, repository, branchQuery],
    queryFn: () =>
      api.get('/api/v1/git/branches/search', { query: { provider, repository, query: branchQuery, limit: 30 } }),
    enabled: repository !== '',
    staleTime: 60_000,
    retry: false,
  });

  const chooseRepository = (full: string) => {
    const main = repositories.data?.items.find((item) => item.full_name === full)?.main_branch ?? '';
    setRepoText(full);
    setBranchText(main);
    onChange({ provider, repository: full, branch: main });
  };

  return (
    <div className="repo-picker">
      {providers.length > 1 && (
        <Field label="Git provider">
          <select
            className="select"
            value={provider}
            onChange={(event) => {
              setRepoText('');
              setBranchText('');
              onChange({ provider: event.target.value as ProviderType, repository: '', branch: '' });
            }}
          >
            {providers.map((name) => (
              <option key={name} value={name}>
                {PROVIDER_NAMES[name] ?? name}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field
        label="Repository"
        hint={repositories.isError ? undefined : 'Optional: the agent works in a clone of it.'}
        error={repositories.isError ? describeError(repositories.error) : undefined}
      >
        <Combobox
          value={repoText}
          placeholder="owner/repository"
          onInput={(text) => {
            setRepoText(text);
            // Typed by hand: kept as typed (the start checks it), its branch unknown.
            onChange({ provider, repository: text.trim(), branch: '' });
            setBranchText('');
          }}
          onSelect={chooseRepository}
          loading={repositories.isFetching}
          emptyText={
            repositories.isError
              ? 'Your repositories could not be listed: type owner/repository'
              : repoQuery
                ? 'No repository matches: it is used as typed'
                : 'No repository found'
          }
          options={(repositories.data?.items ?? []).map((item) => ({
            value: item.full_name,
            hint: item.is_public ? undefined : 'private',
          }))}
        />
      </Field>
      <Field
        label="Branch"
        error={branches.isError ? describeError(branches.error) : undefined}
        hint={repository ? undefined : 'Choose a repository first.'}
      >
        <Combobox
          value={branchText}
          disabled={!repository}
          placeholder={repository ? 'default branch' : ''}
          onInput={(text) => {
            setBranchText(text);
            onChange({ ...value, branch: text.trim() });
          }}
          onSelect={(branch) => {
            setBranchText(branch);
            onChange({ ...value, branch });
          }}
          loading={branches.isFetching}
          emptyText={branches.isError ? 'The branches could not be listed: type one' : 'No branch matches'}
          options={(branches.data?.items ?? []).map((item) => ({
            value: item.name,
            hint: item.protected ? 'protected' : undefined,
          }))}
        />
      </Field>
    </div>
  );
}
