import { stat } from 'node:fs/promises';

/** Whether anything (file, directory, ...) is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
