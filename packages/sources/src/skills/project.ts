import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { exists } from '../shared/exists.ts';
import { loadSkillDirectory } from './directory.ts';
import { firstWins } from './merge.ts';
import { instructionsSkill } from './parse.ts';
import type { LoadedSkills, Skill, SkillProblem, SkillSource } from './types.ts';

/** Always-on instruction files at the repository root and the names their skills get. */
export const INSTRUCTION_FILES: readonly (readonly [file: string, name: string])[] = [
  ['AGENTS.md', 'agents'],
  ['CLAUDE.md', 'claude'],
  ['GEMINI.md', 'gemini'],
];

/** Skills directories of a repository, first wins: the standard one, then those of migrating users. */
export const PROJECT_SKILL_DIRS = ['.agents/skills', '.claude/skills', '.openhands/skills'];

/**
 * The skills of the repository the workspace is in: the instruction files at its root (AGENTS.md, CLAUDE.md,
 * GEMINI.md; a file with the same content as one before it, such as a CLAUDE.md linked to AGENTS.md, is
 * loaded once) and the skills of its skills directories. The root is the Git work tree containing the
 * workspace, or the workspace itself.
 */
export async function loadProjectSkills(workspace: string): Promise<LoadedSkills & { root: string }> {
  const root = await repositoryRoot(resolve(workspace));
  const source: SkillSource = { scope: 'project', origin: root };
  const problems: SkillProblem[] = [];
  const instructions: Skill[] = [];
  const seen = new Set<string>();
  for (const [name, skillName] of INSTRUCTION_FILES) {
    const file = join(root, name);
    let text: string;
    try {
      // Opening a FIFO blocks until a writer comes, and a device may never end: only regular files are read.
      if (!(await stat(file)).isFile()) {
        problems.push({ file, field: null, severity: 'error', message: 'is not a regular file', skipped: true });
        continue;
      }
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        problems.push({ file, field: null, severity: 'error', message: `cannot be read (${code})`, skipped: true });
      }
      continue;
    }
    const key = text.trim();
    if (seen.has(key) || key === '') continue;
    seen.add(key);
    instructions.push(instructionsSkill(skillName, { file, text, source }));
  }
  const layers: LoadedSkills[] = [{ skills: instructions, problems: [] }];
  for (const dir of PROJECT_SKILL_DIRS) layers.push(await loadSkillDirectory(join(root, dir), source));
  const merged = firstWins(layers);
  return { skills: merged.skills, problems: [...problems, ...merged.problems], root };
}

/** The nearest directory from `dir` upwards that holds `.git` (a directory, or a file for worktrees), else `dir`. */
export async function repositoryRoot(dir: string): Promise<string> {
  const start = await realpath(dir).catch(() => dir);
  for (let current = start; ; current = dirname(current)) {
    if (await exists(join(current, '.git'))) return current;
    if (dirname(current) === current) return start;
  }
}
