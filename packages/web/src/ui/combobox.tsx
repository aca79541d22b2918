import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import './combobox.css';

export interface ComboboxOption {
  value: string;
  label?: ReactNode;
  hint?: ReactNode;
}

interface ComboboxProps {
  /** Set by `Field` (the label's `for`), with the hint and error as the description. */
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** Without a `Field`: the accessible name. */
  'aria-label'?: string;
  value: string;
  /** Each keystroke: the text typed (free text is allowed). */
  onInput(text: string): void;
  /** An option chosen (Enter, click). */
  onSelect(value: string): void;
  options: readonly ComboboxOption[];
  loading?: boolean;
  /** What the list says when nothing matches. */
  emptyText?: string;
  placeholder?: string;
  disabled?: boolean;
  name?: string;
}

/**
 * A text field with a list of suggestions (WAI-ARIA combobox): typing filters, ArrowDown/ArrowUp move in the list,
 * Enter chooses, Escape closes; free text is kept as typed.
 */
export function Combobox(props: ComboboxProps) {
  const { value, onInput, onSelect, options, loading, emptyText = 'No match', ...input } = props;
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [highlighted, setActive] = useState(-1);
  const active = highlighted < options.length ? highlighted : -1;
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active < 0) return;
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (option: ComboboxOption) => {
    onSelect(option.value);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (options.length === 0 ? -1 : (current + step + options.length) % options.length));
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  const shown = open && !input.disabled;
  return (
    <div className="combobox">
      <input
        {...input}
        className="input"
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        value={value}
        onChange={(event) => {
          onInput(event.target.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div
        id={listId}
        ref={list}
        // biome-ignore lint/a11y/useSemanticElements: a listbox of suggestions, driven from the field (WAI-ARIA combobox)
        role="listbox"
        tabIndex={-1}
        className="combobox-list"
        hidden={!shown || options.length === 0}
      >
        {options.map((option, index) => (
          <div
            // biome-ignore lint/a11y/useSemanticElements: an option of that listbox
            role="option"
            key={option.value}
            id={`${listId}-${index}`}
            data-index={index}
            aria-selected={index === active}
            className="combobox-option"
            // Keeps the focus in the field: the blur would close the list before the click.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
            onKeyDown={() => undefined}
            tabIndex={-1}
          >
            <span>{option.label ?? option.value}</span>
            {option.hint ? <span className="muted combobox-hint">{option.hint}</span> : null}
          </div>
        ))}
      </div>
      {/* Outside the listbox: a listbox holds options only (what it says instead is a status). */}
      {shown && options.length === 0 && (
        <output className="combobox-list combobox-empty muted">{loading ? 'Searching…' : emptyText}</output>
      )}
    </div>
  );
}
