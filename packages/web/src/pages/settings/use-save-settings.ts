import type { Settings, SettingsUpdate } from '@bosun/protocol';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';

/**
 * What a form of the settings is given: the settings it edits, and whether "Saved" shows (kept by its parent: the
 * form is made again from the settings read back after a save).
 */
export interface SettingsFormProps {
  settings: Settings;
  saved: boolean;
  setSaved(saved: boolean): void;
}

/**
 * A settings form's save: `save` stores `update()`, then runs `onSaved` (what the form refreshes, and its "Saved");
 * `errors` are the refused fields' messages, by field; `edited`, called on every change, hides "Saved" and the
 * last refusal.
 */
export function useSaveSettings(
  update: () => SettingsUpdate,
  setSaved: (saved: boolean) => void,
  onSaved: () => Promise<void>,
) {
  const api = useApi();
  const save = useMutation({
    mutationFn: () => api.post('/api/v1/settings', { body: update() }),
    onSuccess: () => onSaved(),
  });
  const errors = fieldErrors(save.error);
  const edited = () => {
    setSaved(false);
    if (save.isError) save.reset();
  };
  return { save, errors, edited };
}
