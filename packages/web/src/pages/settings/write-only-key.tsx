import { useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Field } from '../../ui/field.tsx';

/** What becomes of a stored secret: kept, replaced with a new value, or removed. */
export type KeyChange = { kind: 'keep' } | { kind: 'replace'; value: string } | { kind: 'remove' };

interface WriteOnlyKeyProps {
  label: string;
  /** Whether a value is stored (it is never shown). */
  isSet: boolean;
  change: KeyChange;
  onChange(change: KeyChange): void;
  error?: string;
  hint?: string;
}

/** A write-only secret field: "set" with Replace and Remove when one is stored, else a field to type it in. */
export function WriteOnlyKey({ label, isSet, change, onChange, error, hint }: WriteOnlyKeyProps) {
  const [editing, setEditing] = useState(!isSet);
  const input = useRef<HTMLInputElement>(null);
  const replace = () => {
    setEditing(true);
    // The button goes away: the focus goes to the field that took its place.
    requestAnimationFrame(() => input.current?.focus());
  };
  if (isSet && !editing && change.kind !== 'replace') {
    return (
      <div className="field">
        <span className="field-label" id={`${label}-status`}>
          {label}
        </span>
        <div className="row">
          {change.kind === 'remove' ? (
            <span className="muted">Removed when you save.</span>
          ) : (
            <span className="key-set">
              <span aria-hidden="true">••••••••</span> set
            </span>
          )}
          <Button small onClick={replace} aria-label={`Replace ${label}`}>
            Replace
          </Button>
          {change.kind === 'remove' ? (
            <Button small onClick={() => onChange({ kind: 'keep' })} aria-label={`Keep ${label}`}>
              Keep
            </Button>
          ) : (
            <Button small variant="danger" onClick={() => onChange({ kind: 'remove' })} aria-label={`Remove ${label}`}>
              Remove
            </Button>
          )}
        </div>
        {error && (
          <span className="error" role="alert">
            {error}
          </span>
        )}
      </div>
    );
  }
  const field = (
    <Field
      label={label}
      error={error}
      hint={hint ?? (isSet ? 'The stored key is replaced when you save.' : 'Stored encrypted; never shown again.')}
    >
      <input
        ref={input}
        className="input"
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={change.kind === 'replace' ? change.value : ''}
        onChange={(event) =>
          onChange(event.target.value ? { kind: 'replace', value: event.target.value } : { kind: 'keep' })
        }
      />
    </Field>
  );
  if (!isSet) return field;
  return (
    <div className="stack key-replace">
      {field}
      <div>
        <Button
          small
          onClick={() => {
            setEditing(false);
            onChange({ kind: 'keep' });
          }}
        >
          Keep the stored key
        </Button>
      </div>
    </div>
  );
}
