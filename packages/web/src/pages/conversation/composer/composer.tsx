import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Button } from '../../../ui/button.tsx';

/**
 * The message box: Enter sends, Shift+Enter is a new line. Disabled with the reason said when the conversation
 * cannot take a message now (`disabledReason`, with what to do in `actions`).
 */
export function Composer({
  onSend,
  disabledReason,
  actions,
  extra,
  placeholder = 'Message the agent',
}: {
  /** Resolves once sent; a rejection keeps the text in the box. */
  onSend: (text: string) => Promise<void> | void;
  disabledReason?: ReactNode;
  actions?: ReactNode;
  extra?: ReactNode;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const inputId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const disabled = Boolean(disabledReason);

  const send = async () => {
    const message = text.trim();
    if (!message || disabled || busy) return;
    setBusy(true);
    setText('');
    try {
      await onSend(message);
    } catch {
      setText(message);
    } finally {
      setBusy(false);
      box.current?.focus();
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  return (
    <form className="composer" onSubmit={onSubmit} aria-label="Send a message">
      {disabledReason && (
        <div className="composer-reason" id={reasonId}>
          <span>{disabledReason}</span>
          {actions}
        </div>
      )}
      <div className="composer-row">
        <label htmlFor={inputId} className="visually-hidden">
          Message to the agent
        </label>
        <textarea
          id={inputId}
          ref={box}
          className="textarea composer-input"
          value={text}
          rows={2}
          placeholder={disabled ? '' : `${placeholder} (Enter sends, Shift+Enter for a new line)`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          aria-describedby={disabledReason ? reasonId : undefined}
        />
        <div className="composer-buttons">
          {extra}
          <Button type="submit" variant="primary" busy={busy} disabled={disabled || !text.trim()}>
            Send
          </Button>
        </div>
      </div>
    </form>
  );
}
