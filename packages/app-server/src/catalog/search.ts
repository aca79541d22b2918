import type { LLMModel, LLMProviderInfo } from '@bosun/protocol';
import { type CatalogProvider, MODEL_CATALOG } from './models.ts';

/** What the model search filters on (OpenHands' query parameters). */
export interface ModelFilters {
  /** Part of the name, or of `provider/name`, in any case. */
  query?: string | undefined;
  provider__eq?: string | undefined;
  verified__eq?: boolean | undefined;
}

/** `provider/name` split at its first slash; a name without one has no provider. */
export function modelOf(llmModel: string, verified: boolean): LLMModel {
  const slash = llmModel.indexOf('/');
  const [provider, name] = slash > 0 ? [llmModel.slice(0, slash), llmModel.slice(slash + 1)] : [null, llmModel];
  return { provider, name, verified, hidden: false, canonical: null };
}

const idOf = (model: LLMModel) => (model.provider ? `${model.provider}/${model.name}` : model.name);

/**
 * The models offered: the catalog's, then the instance's default model (`llm_model` of the configuration) when
 * the catalog lacks it. The default is verified when its provider is.
 */
export function offeredModels(defaultModel: string | undefined, catalog: readonly CatalogProvider[] = MODEL_CATALOG) {
  const models = catalog.flatMap((provider) =>
    provider.models.map((name) => modelOf(`${provider.name}/${name}`, provider.verified)),
  );
  if (!defaultModel || models.some((model) => idOf(model) === defaultModel)) return models;
  const extra = modelOf(defaultModel, false);
  const provider = catalog.find((known) => known.name === extra.provider);
  return [...models, { ...extra, verified: provider?.verified ?? false }];
}

/** The models matching every filter given, in the catalog's order. */
export function searchModels(models: readonly LLMModel[], filters: ModelFilters): LLMModel[] {
  const query = filters.query?.toLowerCase();
  return models.filter(
    (model) =>
      (query === undefined || idOf(model).toLowerCase().includes(query)) &&
      (filters.provider__eq === undefined || model.provider === filters.provider__eq) &&
      (filters.verified__eq === undefined || model.verified === filters.verified__eq),
  );
}

/** The providers of `models` (each once, in order; verified when one of its models is), filtered. */
export function searchProviders(
  models: readonly LLMModel[],
  filters: Omit<ModelFilters, 'provider__eq'>,
): LLMProviderInfo[] {
  const providers = new Map<string, boolean>();
  for (const { provider, verified } of models) {
    if (provider !== null) providers.set(provider, (providers.get(provider) ?? false) || verified);
  }
  const query = filters.query?.toLowerCase();
  return [...providers]
    .map(([name, verified]) => ({ name, verified }))
    .filter(
      (provider) =>
        (query === undefined || provider.name.toLowerCase().includes(query)) &&
        (filters.verified__eq === undefined || provider.verified === filters.verified__eq),
    );
}
