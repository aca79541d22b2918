import { type ReactNode, useState } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNotice } from './feedback.tsx';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  children?: ReactNode;
  /** The confirming button's label ("Delete", "Revoke"). */
  confirm: string;
  /** Runs on confirmation; the dialog closes when it resolves, shows the error when it rejects. */
  onConfirm(): Promise<unknown>;
}

/** Asks before something that cannot be undone; the cancel button has the focus first. */
export function ConfirmDialog({ open, onOpenChange, title, children, confirm, onConfirm }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const change = (next: boolean) => {
    if (!next) setError(null);
    onOpenChange(next);
  };
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      change(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={change} title={title} description={children}>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="row" style={{ marginTop: '1rem' }}>
        <span className="spacer" />
        <Button autoFocus onClick={() => change(false)}>
          Cancel
        </Button>
        <Button variant="danger" busy={busy} onClick={run}>
          {confirm}
        </Button>
      </div>
    </Dialog>
  );
}
