import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { keys, useSettings } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Loading } from '../../ui/feedback.tsx';
import { onlyFieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { Saved } from './saved.tsx';
import { type SettingsFormProps, useSaveSettings } from './use-save-settings.ts';

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

function GeneralForm({ settings, saved, setSaved }: SettingsFormProps) {
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
  const { save, errors, edited } = useSaveSettings(
    () => ({
      confirmation_mode: confirmation,
      security_analyzer: analyzer || null,
      max_iterations: iterations,
      git_user_name: gitName.trim() || null,
      git_user_email: gitEmail.trim() || null,
      git_full_clone: fullClone,
    }),
    setSaved,
    async () => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: keys.settings });
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!iterationsProblem) save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <section aria-labelledby="agent-heading">
        <h2 id="agent-heading">The agent</h2>
        <div className="card settings-form">
          <CheckboxField
            label="Ask me before each action"
            hintId="confirmation-hint"
            hint="Confirmation mode: the agent waits for your go-ahead before it runs a command or edits a file."
            error={errors.confirmation_mode}
            checked={confirmation}
            onChange={(checked) => {
              edited();
              setConfirmation(checked);
            }}
          />
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
          <CheckboxField
            label="Clone the whole history"
            hintId="full-clone-hint"
            hint="Off: a shallow clone, faster for large repositories."
            checked={fullClone}
            onChange={(checked) => {
              edited();
              setFullClone(checked);
            }}
          />
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

/** A checkbox with its label, the hint that describes it, and its error. */
function CheckboxField({
  label,
  hint,
  hintId,
  error,
  checked,
  onChange,
}: {
  label: string;
  hint: ReactNode;
  hintId: string;
  error?: string | undefined;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{label}</span>
      </label>
      <span className="hint" id={hintId}>
        {hint}
      </span>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
