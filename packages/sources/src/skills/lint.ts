import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { skillFile } from './directory.ts';
import { FINDINGS, type FindingId, severityOf } from './findings.ts';
import { checkAgentSkill } from './parse.ts';
import type { SkillProblem } from './types.ts';

/** A problem lint found: its finding (the rule of `FINDINGS`), with the severity the table gives it everywhere. */
export type LintProblem = Omit<SkillProblem, 'skipped'> & { finding: FindingId };

export interface LintResult {
  /** Every SKILL.md checked. */
  files: string[];
  problems: LintProblem[];
  /** Paths given that do not exist or cannot be read. */
  unreadable: { path: string; reason: string }[];
}

const SKIP_DIRS = new Set(['.git', 'node_modules']);
const MAX_DEPTH = 6;

/** Whether a finding breaks the Agent Skills specification (strict clients reject the skill). */
export const breaksSpecification = (problem: LintProblem): boolean => FINDINGS[problem.finding].specification;

const lintProblem = (file: string, finding: FindingId, field: string | null, message: string): LintProblem => ({
  file,
  field,
  severity: severityOf(finding),
  message,
  finding,
});

/**
 * Checks skills against the Agent Skills specification. Each path is a SKILL.md, a skill directory, or any
 * directory, searched for SKILL.md files (a repository, a skills directory, `.agents/skills/`). Each finding has
 * the severity `FINDINGS` gives it, as loading and inspection report it: an error is a skill that does not load.
 * A name defined by two of the skills checked is a warning naming both files (loading uses the first).
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
        result.problems.push(
          lintProblem(
            absolute,
            'not-a-skill',
            null,
            'is not a SKILL.md (give a SKILL.md, a skill directory or a directory of skills)',
          ),
        );
      }
      continue;
    }
    const found = await findSkillFiles(absolute);
    if (found.length === 0) {
      result.problems.push(lintProblem(absolute, 'not-a-skill', null, 'holds no SKILL.md'));
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
      result.problems.push(lintProblem(file, 'file-unreadable', null, `cannot be read (${code})`));
      continue;
    }
    const dir = dirname(file);
    const parsed = checkAgentSkill({
      file,
      text,
      dir,
      directoryName: basename(dir),
      resources: null,
      source: { scope: 'project', origin: dir },
    });
    result.problems.push(...parsed.findings.map((f) => lintProblem(file, f.finding, f.field, f.message)));
    const name = parsed.skill?.name;
    if (!name) continue;
    const first = byName.get(name);
    if (first) {
      result.problems.push(
        lintProblem(file, 'name-duplicate', 'name', `skill '${name}' is also defined in ${first}, which is used`),
      );
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
