import { describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../src/catalog/models.ts';
import { modelOf, offeredModels, searchProviders } from '../../src/catalog/search.ts';

const SIZE = MODEL_CATALOG.reduce((count, provider) => count + provider.models.length, 0);

describe('the offered models', () => {
  it('adds the instance’s default model only when the catalog lacks it', () => {
    expect(offeredModels(undefined)).toHaveLength(SIZE);
    expect(offeredModels('anthropic/claude-sonnet-4-5')).toHaveLength(SIZE);
    expect(offeredModels('openai/responses/gpt-5.1')).toHaveLength(SIZE);
    expect(offeredModels('anthropic/claude-next').at(-1)).toEqual(modelOf('anthropic/claude-next', true));
    expect(offeredModels('gateway/x').at(-1)).toEqual(modelOf('gateway/x', false));
  });

  it('splits a model at its first slash; a bare name has no provider (and no provider entry)', () => {
    expect(modelOf('openrouter/openai/gpt-5', false)).toMatchObject({ provider: 'openrouter', name: 'openai/gpt-5' });
    expect(modelOf('bare-model', false)).toMatchObject({ provider: null, name: 'bare-model' });
    expect(modelOf('/odd', false)).toMatchObject({ provider: null, name: '/odd' });
    const providers = searchProviders(offeredModels('bare-model'), {}).map((provider) => provider.name);
    expect(providers).toEqual(MODEL_CATALOG.map((provider) => provider.name));
  });
});
