import type { ProviderType } from '@bosun/protocol';
import { useQuery } from '@tanstack/react-query';
import { useApiContext } from '../../api/client.tsx';
import { Combobox } from '../../ui/combobox.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { PREFIX } from './marketplace-source.ts';

/** The repository: typed, or picked from the person's repositories at a connected provider. */
export function RepositoryCombobox({
  providers,
  value,
  onChange,
  ...field
}: {
  providers: ProviderType[];
  value: string;
  onChange(value: string): void;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const { api } = useApiContext();
  const typed = value.trim();
  // Text with a prefix or a URL is a source already: search with its last part.
  const query = useDebounced(typed.includes('://') ? '' : typed.replace(/^[a-z]+:/i, ''));
  const repositories = useQuery({
    queryKey: ['marketplaces', 'repositories', providers, query],
    queryFn: async () => {
      const pages = await Promise.all(
        providers.map((provider) =>
          api
            .get('/api/v1/git/repositories/search', { query: { provider, limit: 10, ...(query ? { query } : {}) } })
            .then((page) => page.items)
            .catch(() => []),
        ),
      );
      return pages.flat();
    },
    staleTime: 60_000,
    retry: false,
  });
  const options = (repositories.data ?? []).map((repository) => ({
    value: `${PREFIX[repository.git_provider] ?? repository.git_provider}:${repository.full_name}`,
    label: repository.full_name,
    hint: repository.git_provider,
  }));
  return (
    <Combobox
      {...field}
      value={value}
      onInput={onChange}
      onSelect={onChange}
      options={options}
      loading={repositories.isFetching}
      emptyText="None of your repositories matches: type the source instead."
      placeholder="github:owner/repo"
    />
  );
}
