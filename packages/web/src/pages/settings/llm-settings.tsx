import type { LLMCheckRequest, SettingsUpdate } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { keys, useSettings } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { LlmCheck } from './llm-check.tsx';
import { LlmProfiles } from './llm-profiles.tsx';
import { ModelPicker } from './model-picker.tsx';
import { Saved } from './saved.tsx';
import { type SettingsFormProps, useSaveSettings } from './use-save-settings.ts';
import { type KeyChange, WriteOnlyKey } from './write-only-key.tsx';

const FIELDS = ['llm_model', 'llm_base_url', 'llm_api_key'];

/** The LLM tab: the model, its base URL and key, a test call, and the saved profiles. */
export function LlmSettings() {
  const settings = useSettings();
  // Kept here: the form is made again from the settings read back after a save.
  const [saved, setSaved] = useState(false);
  if (settings.isPending) return <Loading what="settings" />;
  if (settings.isError) return <ErrorNotice error={settings.error} onRetry={() => settings.refetch()} />;
  return (
    <>
      <LlmForm key={settings.dataUpdatedAt} settings={settings.data} saved={saved} setSaved={setSaved} />
      <LlmProfiles />
    </>
  );
}

function LlmForm({ settings, saved, setSaved }: SettingsFormProps) {
  const queryClient = useQueryClient();
  const initialModel = settings.llm_model ?? '';
  const initialBase = settings.llm_base_url ?? '';
  const [model, setModel] = useState(initialModel);
  const [provider, setProvider] = useState(initialModel.includes('/') ? (initialModel.split('/')[0] ?? '') : '');
  const [baseUrl, setBaseUrl] = useState(initialBase);
  const [key, setKey] = useState<KeyChange>({ kind: 'keep' });

  const update = (): SettingsUpdate => ({
    ...(model.trim() !== initialModel ? { llm_model: model.trim() || null } : {}),
    ...(baseUrl.trim() !== initialBase ? { llm_base_url: baseUrl.trim() || null } : {}),
    ...(key.kind === 'replace' ? { llm_api_key: key.value } : key.kind === 'remove' ? { llm_api_key: null } : {}),
  });
  const { save, errors, edited } = useSaveSettings(update, setSaved, async () => {
    await queryClient.invalidateQueries({ queryKey: keys.settings });
    await queryClient.invalidateQueries({ queryKey: keys.profiles });
    setSaved(true);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const checkRequest = (): LLMCheckRequest => ({
    ...(model.trim() ? { model: model.trim() } : {}),
    ...(baseUrl.trim() !== initialBase ? { base_url: baseUrl.trim() || null } : {}),
    ...(key.kind === 'replace' ? { api_key: key.value } : {}),
  });
  const choosingProvider = (next: string) => {
    edited();
    setProvider(next);
    if (next && model && !model.startsWith(`${next}/`)) setModel('');
  };

  return (
    <section aria-labelledby="llm-heading">
      <h2 id="llm-heading">Language model</h2>
      <p className="muted">
        The model every new conversation uses. {settings.llm_model ? '' : 'None is set yet: choose one to start.'}
      </p>
      <form onSubmit={submit} className="card settings-form">
        <ModelPicker
          provider={provider}
          model={model}
          onProvider={choosingProvider}
          onModel={(next) => {
            edited();
            setModel(next);
          }}
          modelError={errors.llm_model}
        />
        <Field
          label="Base URL"
          error={errors.llm_base_url}
          hint="Leave empty for the provider’s own API; set it for a proxy or a local server (e.g. http://localhost:11434/v1)."
        >
          <input
            className="input"
            type="url"
            inputMode="url"
            spellCheck={false}
            value={baseUrl}
            placeholder="https://api.example.com/v1"
            onChange={(event) => {
              edited();
              setBaseUrl(event.target.value);
            }}
          />
        </Field>
        <WriteOnlyKey
          label="API key"
          isSet={settings.llm_api_key_set}
          change={key}
          onChange={(next) => {
            edited();
            setKey(next);
          }}
          error={errors.llm_api_key}
        />
        {save.isError && !onlyFieldErrors(save.error, FIELDS) && <ErrorNotice error={save.error} />}
        <Saved shown={saved} what="Saved: new conversations use this model." />
        <div className="row form-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            Save
          </Button>
        </div>
        <LlmCheck request={checkRequest} />
      </form>
    </section>
  );
}
