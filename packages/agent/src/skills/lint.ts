import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { skillFile } from './directory.ts';
import { parseAgentSkill } from './parse.ts';
import type { SkillProblem } from './types.ts';

export interface LintResult {
  /** Every SKILL.md checked. */
  files: string[];
  problems: SkillProblem[];
  /** Paths given that do not exist or cannot be read. */
  unreadable: { path: string; reason: string }[];
}

const SKIP_DIRS = new Set(['.git', 'node_modules']);
const MAX_DEPTH = 6;

/**
 * Checks skills against the Agent Skills specification. Each path is a SKILL.md, a skill directory, or any
 * directory, searched for SKILL.md files (a repository, a skills directory, `.agents/skills/`). A name defined
 * by two of the skills checked is an error naming both files (a current and a legacy repository given together).
 */
export async function lintSkills(paths: readonly string[]): Promise<LintResult> {
  const result: LintResult = { files: [], problems: [], unreadable: [] };
  for (const path of paths) {
    const absolute = resolve(path);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(absolute)).isDirectory();
    } catch (error) {
      result.unreadable.push({ path, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
      continue;
    }
    if (!isDirectory) {
      if (/^skill\.md$/i.test(basename(absolute))) result.files.push(absolute);
      else {
        result.problems.push({
          file: absolute,
          field: null,
          severity: 'error',
          message: 'is not a SKILL.md (give a SKILL.md, a skill directory or a directory of skills)',
        });
      }
      continue;
    }
    const found = await findSkillFiles(absolute);
    if (found.length === 0) {
      result.problems.push({ file: absolute, field: null, severity: 'error', message: 'holds no SKILL.md' });
    }
    result.files.push(...found);
  }
  result.files = [...new Set(result.files)];
  const byName = new Map<string, string>();
  for (const file of result.files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      result.problems.push({ file, field: null, severity: 'error', message: `cannot be read (${code})` });
      continue;
    }
    const dir = dirname(file);
    const parsed = parseAgentSkill({
      file,
      text,
      dir,
      directoryName: basename(dir),
      resources: null,
      source: { scope: 'project', origin: dir },
    });
    result.problems.push(...parsed.problems.map(({ skipped: _skipped, ...problem }) => problem));
    const name = parsed.skill?.name;
    if (!name) continue;
    const first = byName.get(name);
    if (first) {
      result.problems.push({
        file,
        field: 'name',
        severity: 'error',
        message: `skill '${name}' is also defined in ${first}; a name must be defined once`,
      });
    } else byName.set(name, file);
  }
  return result;
}

async function findSkillFiles(dir: string, depth = 0): Promise<string[]> {
  const own = await skillFile(dir);
  if (own) return [own];
  if (depth >= MAX_DEPTH) return [];
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && !SKIP_DIRS.has(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) found.push(...(await findSkillFiles(join(dir, name), depth + 1)));
  return found;
}
