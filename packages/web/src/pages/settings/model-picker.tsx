import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { Combobox } from '../../ui/combobox.tsx';
import { Field } from '../../ui/field.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';

interface ModelPickerProps {
  provider: string;
  model: string;
  onProvider(provider: string): void;
  onModel(model: string): void;
  modelError?: string;
}

/** The provider (narrows the models offered) and the model, each searched in the catalog; any text is allowed. */
export function ModelPicker({ provider, model, onProvider, onModel, modelError }: ModelPickerProps) {
  const api = useApi();
  const providerQuery = useDebounced(provider.trim());
  const modelQuery = useDebounced(model.trim());
  const providers = useQuery({
    queryKey: ['llm-providers', providerQuery],
    queryFn: () =>
      api.get('/api/v1/config/providers/search', {
        query: { limit: 50, ...(providerQuery ? { query: providerQuery } : {}) },
      }),
    staleTime: 300_000,
  });
  // The models of the chosen provider; the text typed narrows them (unless it is just the provider's prefix).
  const known = providers.data?.items.some((item) => item.name === providerQuery) ?? false;
  const narrowed = modelQuery.replace(/^[^/]*\//, '');
  const models = useQuery({
    queryKey: ['llm-models', known ? providerQuery : '', narrowed],
    queryFn: () =>
      api.get('/api/v1/config/models/search', {
        query: {
          limit: 50,
          ...(known ? { provider__eq: providerQuery } : {}),
          ...(narrowed ? { query: narrowed } : {}),
        },
      }),
    staleTime: 300_000,
  });
  return (
    <div className="model-picker">
      <Field label="Provider" hint="Narrows the models offered; the model’s prefix says which API is used.">
        <Combobox
          value={provider}
          placeholder="anthropic, openai, …"
          onInput={onProvider}
          onSelect={onProvider}
          loading={providers.isFetching}
          options={(providers.data?.items ?? []).map((item) => ({
            value: item.name,
            hint: item.verified ? 'verified' : undefined,
          }))}
        />
      </Field>
      <Field
        label="Model"
        error={modelError}
        hint="Choose one or type any model your provider serves, as provider/model."
      >
        <Combobox
          value={model}
          placeholder="anthropic/claude-sonnet-4-5"
          onInput={onModel}
          onSelect={onModel}
          loading={models.isFetching}
          emptyText="No model in the catalog matches: the text typed is used as it is"
          options={(models.data?.items ?? []).map((item) => ({
            value: item.provider ? `${item.provider}/${item.name}` : item.name,
            hint: item.verified ? 'verified' : undefined,
          }))}
        />
      </Field>
    </div>
  );
}
