import type { LaunchPlugin } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Spinner } from '../../ui/feedback.tsx';
import { pluginKeys, usePluginTrust } from './queries.ts';
import { ReviewItem } from './review-item.tsx';
import {
  type FieldValue,
  type ReviewPlugin,
  fieldProblem,
  initialValues,
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
          ? `Confirm that you trust ${sources.length === 1 ? 'the plugin’s source' : 'the plugins’ sources'} first.`
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
                `You trusted ${sources.length === 1 ? 'this source at this commit' : 'these sources at these commits'} before, so this is ticked for you.`
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
