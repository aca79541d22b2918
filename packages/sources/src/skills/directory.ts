import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { skipped } from './merge.ts';
import { parseAgentSkill, parseLegacySkill } from './parse.ts';
import type { LoadedSkills, Skill, SkillProblem, SkillResources, SkillSource } from './types.ts';

/** The specification's file name; `skill.md` is accepted as `skills-ref` does. */
const SKILL_FILES = ['SKILL.md', 'skill.md'];
const RESOURCE_DIRS = ['scripts', 'references', 'assets'] as const;
/** Files listed per resource directory at most (they are listed for the agent, never read ahead). */
const MAX_RESOURCES = 200;

/**
 * The skills of one skills directory: each `<name>/SKILL.md` (Agent Skills format, with its `scripts/`,
 * `references/` and `assets/` listed) and each loose `*.md` file but README.md (OpenHands' legacy format).
 * A directory that does not exist has no skills. Every skill left out is in `problems` with its reason; a
 * name found twice keeps the first (SKILL.md directories before loose files, each in name order).
 * `source` is recorded on every skill. This signature is kept stable for plugins (`skills/`, `commands/`).
 */
export async function loadSkillDirectory(dir: string, source: SkillSource): Promise<LoadedSkills> {
  const problems: SkillProblem[] = [];
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { skills: [], problems };
    problems.push({ file: dir, field: null, severity: 'error', message: `cannot be read (${code})`, skipped: true });
    return { skills: [], problems };
  }
  const directories: string[] = [];
  const files: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const kind = await entryKind(join(dir, name));
    if (kind === 'directory') directories.push(name);
    else if (kind === 'file' && extname(name).toLowerCase() === '.md' && name.toLowerCase() !== 'readme.md') {
      files.push(name);
    }
  }

  const skills: Skill[] = [];
  const byName = new Map<string, Skill>();
  const keep = (skill: Skill) => {
    const first = byName.get(skill.name);
    if (first) {
      problems.push(
        skipped(skill.file, 'error', `skill '${skill.name}' is also defined in ${first.file}, which is used`),
      );
      return;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  };

  for (const name of directories) {
    const skillDir = join(dir, name);
    const file = await skillFile(skillDir);
    if (!file) {
      problems.push({
        file: skillDir,
        field: null,
        severity: 'warning',
        message: 'has no SKILL.md, so it is not a skill',
        skipped: true,
      });
      continue;
    }
    const text = await readText(file, problems);
    if (text === null) continue;
    if (basename(file) !== 'SKILL.md') {
      problems.push({ file, field: null, severity: 'warning', message: 'should be named SKILL.md' });
    }
    const resources = await listResources(skillDir);
    const parsed = parseAgentSkill({ file, text, source, dir: skillDir, directoryName: name, resources });
    problems.push(...parsed.problems);
    if (parsed.skill) keep(parsed.skill);
  }
  for (const name of files) {
    const file = join(dir, name);
    const text = await readText(file, problems);
    if (text === null) continue;
    const parsed = parseLegacySkill({ file, text, source, stem: name.slice(0, -extname(name).length) });
    problems.push(...parsed.problems);
    if (parsed.skill) keep(parsed.skill);
  }
  return { skills, problems };
}

/** The SKILL.md of a skill directory, or null. */
export async function skillFile(skillDir: string): Promise<string | null> {
  for (const name of SKILL_FILES) {
    const file = join(skillDir, name);
    if ((await entryKind(file)) === 'file') return file;
  }
  return null;
}

/** Files under the skill's `scripts/`, `references/` and `assets/`, relative to the skill directory. */
export async function listResources(skillDir: string): Promise<SkillResources> {
  const resources: SkillResources = { scripts: [], references: [], assets: [] };
  for (const kind of RESOURCE_DIRS) {
    const found: string[] = [];
    await walk(join(skillDir, kind), async (file) => {
      if (found.length < MAX_RESOURCES) found.push(relative(skillDir, file));
    });
    resources[kind] = found.sort();
  }
  return resources;
}

async function walk(dir: string, visit: (file: string) => Promise<void>, depth = 0): Promise<void> {
  if (depth > 6) return;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    const kind = await entryKind(path);
    if (kind === 'file') await visit(path);
    else if (kind === 'directory') await walk(path, visit, depth + 1);
  }
}

async function readText(file: string, problems: SkillProblem[]): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    problems.push({ file, field: null, severity: 'error', message: `cannot be read (${code})`, skipped: true });
    return null;
  }
}

/** What a path is once symbolic links are followed (a linked skill directory is a skill directory). */
async function entryKind(path: string): Promise<'file' | 'directory' | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}
