import { Notice } from '../../ui/feedback.tsx';

/** "Saved", after a form's change was stored (until the form changes again). */
export function Saved({ shown, what = 'Saved.' }: { shown: boolean; what?: string }) {
  if (!shown) return null;
  return <Notice tone="success">{what}</Notice>;
}
