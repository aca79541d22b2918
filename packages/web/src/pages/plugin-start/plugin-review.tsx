import type { LaunchPlugin, PluginTrust } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, ErrorNotice, Notice, Spinner } from '../../ui/feedback.tsx';
import { pluginKeys, usePluginTrust } from './queries.ts';
import {
  type FieldValue,
  type ParameterField,
  type ReviewPlugin,
  fieldProblem,
  initialValues,
  isCommit,
  parameterFields,
  parameterValues,
  sourcesOf,
  startWithPlugins,
  trustedRecord,
} from './start-plugins.ts';
import './plugin-start.css';

export const MAX_MESSAGE = 5000;

interface PluginReviewProps {
  plugins: ReviewPlugin[];
  initialMessage: string | null;
  /** Said above the Start button when the plugins cannot be started as they are (a link with problems). */
  blocked?: ReactNode;
  /** Moves the focus to the step's heading when it appears (after "Create New Conversation"). */
  focusOnMount?: boolean;
  heading?: string;
}

/**
 * The step before a conversation with plugins starts: where each plugin comes from, its parameters (editable,
 * with their defaults), the starting message, and the person's trust in each source (Start waits for it).
 */
export function PluginReview({
  plugins,
  initialMessage,
  blocked,
  focusOnMount,
  heading = 'Review and start',
}: PluginReviewProps) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const trustRef = useRef<HTMLInputElement>(null);
  const trust = usePluginTrust();
  const [message, setMessage] = useState(initialMessage ?? '');
  const [values, setValues] = useState<Record<string, Record<string, FieldValue>>>(() =>
    Object.fromEntries(plugins.map((plugin) => [plugin.key, initialValues(plugin)])),
  );
  const [trusted, setTrusted] = useState(false);
  const sources = useMemo(() => sourcesOf(plugins), [plugins]);
  const usable = plugins.filter((plugin): plugin is ReviewPlugin & { spec: LaunchPlugin } => plugin.spec !== null);
  const records = trust.data?.items ?? [];
  const allTrusted = usable.length > 0 && usable.every((plugin) => trustedRecord(records, plugin.spec));

  // Trust confirmed before (each source at the very commit shown, or at any commit) is remembered: ticked.
  const remembered = useRef(false);
  useEffect(() => {
    if (!remembered.current && trust.data) {
      remembered.current = true;
      if (allTrusted) setTrusted(true);
    }
  }, [trust.data, allTrusted]);
  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus();
  }, [focusOnMount]);

  const problems = usable.flatMap((plugin) =>
    parameterFields(plugin).flatMap((field) => {
      const problem = fieldProblem(field, values[plugin.key]?.[field.name]);
      return problem ? [`${plugin.name}: ${field.name}`] : [];
    }),
  );
  const messageProblem =
    message.length > MAX_MESSAGE ? `Longer than ${MAX_MESSAGE} characters: shorten it (${message.length} now).` : null;
  const invalid = problems.length > 0 || messageProblem !== null;

  const start = useMutation({
    mutationFn: () =>
      startWithPlugins(
        api,
        usable.map((plugin) => ({ ...plugin.spec, parameters: parameterValues(plugin, values[plugin.key] ?? {}) })),
        message.trim(),
      ),
    onSuccess: (task) => {
      queryClient.invalidateQueries({ queryKey: ['start-tasks'] });
      queryClient.invalidateQueries({ queryKey: keys.conversations });
      queryClient.invalidateQueries({ queryKey: pluginKeys.trust });
      navigate(`/conversations/${task.id}`);
    },
  });

  const reason = blocked
    ? blocked
    : usable.length === 0
      ? 'There is no plugin to start.'
      : invalid
        ? 'Fix the fields marked above first.'
        : !trusted
          ? 'Confirm that you trust the plugins’ sources first.'
          : null;
  const canStart = reason === null && !start.isPending;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (blocked || usable.length === 0 || start.isPending) return;
    if (invalid) return;
    if (!trusted) {
      trustRef.current?.focus();
      return;
    }
    start.mutate();
  };
  const onMessageKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <section className="plugin-review card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="plugin-review-heading">
        {heading}
      </h2>
      <p className="muted">
        {plugins.length === 1 ? 'This plugin runs' : 'These plugins run'} inside the new conversation with the secrets
        of your account. Check where {plugins.length === 1 ? 'it comes' : 'they come'} from before you start.
      </p>
      <form onSubmit={submit} className="stack" noValidate>
        <ol className="review-plugins">
          {plugins.map((plugin) => (
            <li key={plugin.key}>
              <ReviewItem
                plugin={plugin}
                trustRecord={plugin.spec ? trustedRecord(records, plugin.spec) : undefined}
                earlier={plugin.spec ? records.find((record) => record.source === plugin.spec?.source) : undefined}
                values={values[plugin.key] ?? {}}
                onChange={(name, value) =>
                  setValues((all) => ({ ...all, [plugin.key]: { ...all[plugin.key], [name]: value } }))
                }
              />
            </li>
          ))}
        </ol>

        <div className="field">
          <label htmlFor={`${id}-message`}>Starting message</label>
          <textarea
            id={`${id}-message`}
            className="textarea"
            rows={3}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            onKeyDown={onMessageKey}
            aria-describedby={`${id}-message-hint${messageProblem ? ` ${id}-message-error` : ''}`}
            aria-invalid={messageProblem ? true : undefined}
            placeholder="What the agent does first, for example a command of the plugin"
          />
          <span className="hint" id={`${id}-message-hint`}>
            Sent to the agent as soon as the conversation is ready; leave it empty to write it there. <kbd>Enter</kbd>{' '}
            starts, <kbd>Shift</kbd>+<kbd>Enter</kbd> adds a line.
          </span>
          {messageProblem && (
            <span className="error" id={`${id}-message-error`} role="alert">
              {messageProblem}
            </span>
          )}
        </div>

        {usable.length > 0 && (
          <fieldset className="trust-box">
            <legend>Trust</legend>
            <label className="checkbox trust-label">
              <input
                ref={trustRef}
                type="checkbox"
                checked={trusted}
                onChange={(event) => setTrusted(event.target.checked)}
                aria-describedby={`${id}-trust-hint`}
              />
              <span>
                I trust <SourceList sources={sources} /> with the agent secrets defined in my account.
              </span>
            </label>
            <p className="hint muted" id={`${id}-trust-hint`}>
              {trust.isPending ? (
                <>
                  <Spinner label="Loading your trusted sources" /> Checking the sources you trusted before…
                </>
              ) : allTrusted ? (
                'You trusted these sources at these commits before, so this is ticked for you.'
              ) : (
                'A plugin can read the secrets of your account and act with them. Bosun remembers your answer for each source at its commit; a new commit asks again.'
              )}
            </p>
            {trust.error && <ErrorNotice error={trust.error} onRetry={() => trust.refetch()} />}
          </fieldset>
        )}

        {start.error && <ErrorNotice error={start.error} />}
        <div className="row review-actions">
          <Button
            type="submit"
            variant="primary"
            busy={start.isPending}
            disabled={!canStart}
            aria-describedby={reason ? `${id}-reason` : undefined}
          >
            Start Conversation
          </Button>
          {reason && (
            <span className="muted" id={`${id}-reason`}>
              {reason}
            </span>
          )}
          {start.isPending && <span className="muted">Starting…</span>}
        </div>
      </form>
    </section>
  );
}

function SourceList({ sources }: { sources: string[] }) {
  return (
    <>
      {sources.map((source, index) => (
        <span key={source}>
          {index > 0 && (index === sources.length - 1 ? ' and ' : ', ')}
          <code className="source-name">{source}</code>
        </span>
      ))}
    </>
  );
}

interface ReviewItemProps {
  plugin: ReviewPlugin;
  trustRecord: PluginTrust | undefined;
  /** A confirmation of the same source at another commit (a branch may or may not still name it). */
  earlier: PluginTrust | undefined;
  values: Record<string, FieldValue>;
  onChange(name: string, value: FieldValue): void;
}

function ReviewItem({ plugin, trustRecord, earlier, values, onChange }: ReviewItemProps) {
  const id = useId();
  const fields = parameterFields(plugin);
  const spec = plugin.spec;
  return (
    <article className={`review-plugin${spec ? '' : ' review-plugin-broken'}`} aria-labelledby={`${id}-name`}>
      <div className="row">
        <h3 id={`${id}-name`} className="review-plugin-name">
          {plugin.name}
        </h3>
        {!spec && <Badge tone="danger">Cannot be loaded</Badge>}
        {spec && trustRecord && (
          <Badge tone="success" title={`Confirmed ${new Date(trustRecord.confirmed_at).toLocaleString()}`}>
            Trusted before
          </Badge>
        )}
      </div>
      {plugin.description && <p className="muted review-plugin-description">{plugin.description}</p>}
      <dl className="review-where">
        <dt>Source</dt>
        <dd>
          <code>{spec?.source ?? plugin.rawSource ?? 'unknown'}</code>
        </dd>
        {spec && (
          <>
            <dt>Ref</dt>
            <dd>
              {spec.ref ? <code>{spec.ref}</code> : <span className="muted">the default branch</span>}
              {spec.ref && isCommit(spec.ref) && <span className="muted"> (a commit: exactly this version)</span>}
            </dd>
            <dt>Path</dt>
            <dd>
              {spec.repo_path ? <code>{spec.repo_path}</code> : <span className="muted">the repository root</span>}
            </dd>
          </>
        )}
      </dl>
      {spec && trustRecord && (
        <p className="muted review-trusted">
          You confirmed trust in this source{' '}
          {trustRecord.commit ? (
            <>
              at commit <code>{trustRecord.commit.slice(0, 12)}</code>
            </>
          ) : (
            'at any commit'
          )}{' '}
          on {new Date(trustRecord.confirmed_at).toLocaleDateString()}.
        </p>
      )}
      {spec && !trustRecord && earlier?.commit && (
        <p className="muted review-trusted">
          You trusted this source before at commit <code>{earlier.commit.slice(0, 12)}</code> (
          {new Date(earlier.confirmed_at).toLocaleDateString()}).{' '}
          {spec.ref ? (
            <>
              If <code>{spec.ref}</code> still names that commit, nothing new is asked; otherwise confirm again.
            </>
          ) : (
            'If the default branch moved since, confirm again.'
          )}
        </p>
      )}
      {plugin.problems.length > 0 && (
        <div className="notice notice-error review-problems">
          <strong>{spec ? 'Problems:' : 'This plugin cannot be loaded:'}</strong>
          <ul>
            {plugin.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {spec && fields.length > 0 && (
        <fieldset className="review-parameters">
          <legend>Parameters of {plugin.name}</legend>
          {fields.map((field) => (
            <ParameterInput
              key={field.name}
              field={field}
              value={values[field.name]}
              problem={fieldProblem(field, values[field.name])}
              onChange={(value) => onChange(field.name, value)}
            />
          ))}
        </fieldset>
      )}
    </article>
  );
}

function ParameterInput({
  field,
  value,
  problem,
  onChange,
}: {
  field: ParameterField;
  value: FieldValue | undefined;
  problem: string | null;
  onChange(value: FieldValue): void;
}) {
  const id = useId();
  const describedBy = [field.description ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  if (field.type === 'boolean') {
    return (
      <div className="field">
        <label className="checkbox parameter-checkbox">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            aria-describedby={describedBy || undefined}
          />
          <span>
            <code>{field.name}</code>
          </span>
        </label>
        {field.description && (
          <span className="hint" id={`${id}-hint`}>
            {field.description}
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        <code>{field.name}</code>
        {field.required && <span className="muted"> (required)</span>}
      </label>
      <input
        id={id}
        className="input"
        type={field.type === 'number' ? 'number' : 'text'}
        inputMode={field.type === 'number' ? 'decimal' : undefined}
        step={field.type === 'number' ? 'any' : undefined}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={describedBy || undefined}
        aria-invalid={problem ? true : undefined}
        aria-required={field.required || undefined}
      />
      {field.description && (
        <span className="hint" id={`${id}-hint`}>
          {field.description}
        </span>
      )}
      {problem && (
        <span className="error" id={`${id}-error`}>
          {problem}
        </span>
      )}
    </div>
  );
}
