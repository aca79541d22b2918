import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'default' | 'primary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  small?: boolean;
  busy?: boolean;
}

/** A button of the design system; `busy` shows a spinner and disables it. */
export function Button({
  variant = 'default',
  small,
  busy,
  className,
  children,
  disabled,
  type,
  ...rest
}: ButtonProps) {
  const classes = ['btn', variant !== 'default' && `btn-${variant}`, small && 'btn-small', className].filter(Boolean);
  return (
    <button
      type={type ?? 'button'}
      className={classes.join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
