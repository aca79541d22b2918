import type { Settings, SettingsUpdate } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys, useSettings } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { fieldErrors, onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { Saved } from './saved.tsx';

const FIELDS = [
  'confirmation_mode',
  'security_analyzer',
  'max_iterations',
  'git_user_name',
  'git_user_email',
  'git_full_clone',
];

/** How the agent works: confirmation, the security analyzer, its step limit, and the author of its commits. */
export function GeneralSettings() {
  const settings = useSettings();
  const [saved, setSaved] = useState(false);
  if (settings.isPending) return <Loading what="settings" />;
  if (settings.isError) return <ErrorNotice error={settings.error} onRetry={() => settings.refetch()} />;
  return <GeneralForm key={settings.dataUpdatedAt} settings={settings.data} saved={saved} setSaved={setSaved} />;
}

interface GeneralFormProps {
  settings: Settings;
  saved: boolean;
  setSaved(saved: boolean): void;
}

function GeneralForm({ settings, saved, setSaved }: GeneralFormProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirmation, setConfirmation] = useState(settings.confirmation_mode);
  const [analyzer, setAnalyzer] = useState(settings.security_analyzer ?? '');
  const [maxIterations, setMaxIterations] = useState(settings.max_iterations?.toString() ?? '');
  const [gitName, setGitName] = useState(settings.git_user_name ?? '');
  const [gitEmail, setGitEmail] = useState(settings.git_user_email ?? '');
  const [fullClone, setFullClone] = useState(settings.git_full_clone);
  const iterations = maxIterations.trim() === '' ? null : Number(maxIterations);
  const iterationsProblem =
    iterations !== null && (!Number.isInteger(iterations) || iterations < 1) ? 'A whole number, 1 or more.' : undefined;
  const save = useMutation({
    mutationFn: () => {
      const update: SettingsUpdate = {
        confirmation_mode: confirmation,
        security_analyzer: analyzer || null,
        max_iterations: iterations,
        git_user_name: gitName.trim() || null,
        git_user_email: gitEmail.trim() || null,
        git_full_clone: fullClone,
      };
      return api.updateSettings(update);
    },
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: keys.settings });
    },
  });
  const errors = fieldErrors(save.error);
  const edited = () => {
    setSaved(false);
    if (save.isError) save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!iterationsProblem) save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <section aria-labelledby="agent-heading">
        <h2 id="agent-heading">The agent</h2>
        <div className="card settings-form">
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={confirmation}
                aria-describedby="confirmation-hint"
                onChange={(event) => {
                  edited();
                  setConfirmation(event.target.checked);
                }}
              />
              <span>Ask me before each action</span>
            </label>
            <span className="hint" id="confirmation-hint">
              Confirmation mode: the agent waits for your go-ahead before it runs a command or edits a file.
            </span>
            {errors.confirmation_mode && (
              <span className="error" role="alert">
                {errors.confirmation_mode}
              </span>
            )}
          </div>
          <Field
            label="Security analyzer"
            error={errors.security_analyzer}
            hint="Rates each action’s risk; with confirmation mode, risky ones wait for you."
          >
            <select
              className="select"
              value={analyzer}
              onChange={(event) => {
                edited();
                setAnalyzer(event.target.value);
              }}
            >
              <option value="">None</option>
              <option value="llm">The LLM rates each action</option>
              {analyzer && analyzer !== 'llm' && <option value={analyzer}>{analyzer}</option>}
            </select>
          </Field>
          <Field
            label="Most steps per run"
            error={iterationsProblem ?? errors.max_iterations}
            hint="Empty: the server’s default."
          >
            <input
              className="input input-number"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={maxIterations}
              onChange={(event) => {
                edited();
                setMaxIterations(event.target.value);
              }}
            />
          </Field>
        </div>
      </section>
      <section aria-labelledby="commits-heading">
        <h2 id="commits-heading">Git</h2>
        <div className="card settings-form">
          <Field label="Commit author name" error={errors.git_user_name} hint="Empty: the agent’s default.">
            <input
              className="input"
              autoComplete="name"
              value={gitName}
              onChange={(event) => {
                edited();
                setGitName(event.target.value);
              }}
            />
          </Field>
          <Field label="Commit author email" error={errors.git_user_email}>
            <input
              className="input"
              type="email"
              autoComplete="email"
              value={gitEmail}
              onChange={(event) => {
                edited();
                setGitEmail(event.target.value);
              }}
            />
          </Field>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={fullClone}
                aria-describedby="full-clone-hint"
                onChange={(event) => {
                  edited();
                  setFullClone(event.target.checked);
                }}
              />
              <span>Clone the whole history</span>
            </label>
            <span className="hint" id="full-clone-hint">
              Off: a shallow clone, faster for large repositories.
            </span>
          </div>
        </div>
      </section>
      {save.isError && !onlyFieldErrors(save.error, FIELDS) && <ErrorNotice error={save.error} />}
      <Saved shown={saved} />
      <div className="row form-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
