import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSkillDirectory } from './directory.ts';
import type { LoadedSkills } from './types.ts';

/**
 * The directory of the skills Bosun ships (`packages/sources/skills/`). Found next to this module, or through
 * the package when the code runs bundled (`npm start` runs one file under `packages/cli/dist/`).
 */
export function builtinSkillsDir(): string {
  const beside = fileURLToPath(new URL('../../skills', import.meta.url));
  if (existsSync(beside)) return beside;
  try {
    const entry = createRequire(import.meta.url).resolve('@bosun/sources');
    return join(dirname(dirname(entry)), 'skills');
  } catch {
    return beside;
  }
}

export function loadBuiltinSkills(dir = builtinSkillsDir()): Promise<LoadedSkills> {
  return loadSkillDirectory(dir, { scope: 'builtin', origin: 'bosun' });
}
