import type { PluginTrust } from '@bosun/protocol';
import { useId } from 'react';
import { Badge } from '../../ui/feedback.tsx';
import {
  type FieldValue,
  type ParameterField,
  type ReviewPlugin,
  fieldProblem,
  isCommit,
  parameterFields,
} from './start-plugins.ts';

interface ReviewItemProps {
  plugin: ReviewPlugin;
  trustRecord: PluginTrust | undefined;
  /** A confirmation of the same source at another commit (a branch may or may not still name it). */
  earlier: PluginTrust | undefined;
  values: Record<string, FieldValue>;
  onChange(name: string, value: FieldValue): void;
}
export function ReviewItem({ plugin, trustRecord, earlier, values, onChange }: ReviewItemProps) {
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
