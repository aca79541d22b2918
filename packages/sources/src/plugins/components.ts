import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { severityOf } from '../skills/findings.ts';
import { checkAgentSkill } from '../skills/parse.ts';
import { firstParagraphLine, parseFrontmatter, stringField } from './frontmatter.ts';
import { type PluginReading, insidePlugin, kindOf, relativeTo, sortedEntries } from './paths.ts';
import { problem, warning } from './problems.ts';

/** A skill directory of a plugin (`skills/<name>/SKILL.md`, or a root `SKILL.md`). */
export interface PluginSkill {
  name: string;
  description: string | null;
  /** Absolute directory of the skill (holding its `SKILL.md`). */
  dir: string;
  /** The `SKILL.md`, relative to the plugin. */
  path: string;
}

/** A command (`commands/<name>.md`): a skill the user triggers with `/<plugin>:<name>`. */
export interface PluginCommand {
  /** `<plugin>:<command>`. */
  name: string;
  /** The keywords that trigger it: `/<plugin>:<command>` (and `/<plugin>` for the entry command). */
  triggers: string[];
  description: string | null;
  argumentHint: string | null;
  /** The Markdown body: the instructions. */
  content: string;
  /** Absolute path of the file. */
  file: string;
  /** Relative to the plugin. */
  path: string;
}

/** A subagent definition (`agents/<name>.md`); listed, not run. */
export interface PluginAgent {
  name: string;
  description: string | null;
  file: string;
  path: string;
}

const SKILL_FILES = ['SKILL.md', 'skill.md'];

async function skillFile(dir: string): Promise<string | null> {
  for (const name of SKILL_FILES) if ((await kindOf(join(dir, name))) === 'file') return join(dir, name);
  return null;
}

/**
 * The skills of a plugin: each directory of `skills/` (and of the manifest's `skills` paths) holding a
 * `SKILL.md` that loads (one that does not is an error), or the plugin itself when its root has one. A path may name one skill or a directory of them.
 * The paths add to `skills/` (Claude Code's rule), unless `pathsOnly` (a marketplace entry at the marketplace's
 * root, where the list is the whole set).
 */
export async function findSkills(
  plugin: PluginReading,
  pluginName: string,
  extraPaths: string[] | null,
  pathsOnly = false,
): Promise<PluginSkill[]> {
  const { root, manifestPath, problems } = plugin;
  const skills: PluginSkill[] = [];
  const seen = new Set<string>();
  const add = async (dir: string) => {
    const file = await skillFile(dir);
    if (!file || seen.has(dir)) return false;
    seen.add(dir);
    const path = relativeTo(root, file);
    const atRoot = dir === root;
    // Checked as the agent loads it and as lint checks it: the same findings, with the same severities.
    const checked = checkAgentSkill({
      file,
      text: await readFile(file, 'utf8'),
      source: { scope: 'plugin', origin: pluginName },
      dir,
      directoryName: atRoot ? pluginName : basename(dir),
      resources: null,
    });
    for (const { finding, field, message } of checked.findings) {
      // A SKILL.md at the plugin's root has no directory of its own to be named after.
      if (atRoot && finding === 'name-directory-mismatch') continue;
      problems.push(problem(severityOf(finding), path, field ? `${field}: ${message}` : message));
    }
    if (checked.skill) skills.push({ name: checked.skill.name, description: checked.skill.description, dir, path });
    return true;
  };
  const scan = async (dir: string, where: string | null, explicit: boolean) => {
    if ((await kindOf(dir)) !== 'directory') {
      if (explicit) problems.push(warning(where, `skills path '${relativeTo(root, dir)}' is not a directory; ignored`));
      return;
    }
    if (await add(dir)) return;
    let found = 0;
    for (const entry of await sortedEntries(dir)) {
      const child = join(dir, entry);
      if (entry.startsWith('.') || (await kindOf(child)) !== 'directory') continue;
      if (await add(child)) found++;
      else problems.push(warning(relativeTo(root, child), 'has no SKILL.md; not a skill'));
    }
    if (explicit && found === 0) problems.push(warning(where, `no skill in '${relativeTo(root, dir)}'`));
  };
  if (!pathsOnly || extraPaths === null) await scan(join(root, 'skills'), null, false);
  for (const path of extraPaths ?? []) {
    const dir = await insidePlugin(plugin, path);
    if (dir) await scan(dir, manifestPath, true);
  }
  if (skills.length === 0) await add(root);
  return skills;
}

/** A Markdown file of the plugin: its path relative to the plugin and its frontmatter (a bad one is a warning). */
async function readMarkdown(plugin: PluginReading, file: string) {
  const path = relativeTo(plugin.root, file);
  const front = parseFrontmatter(await readFile(file, 'utf8'));
  if (front.error) plugin.problems.push(warning(path, front.error));
  return { path, front };
}

/** Markdown files named by `paths` (files, or directories of `.md` files), else those of `defaultDir`. */
async function markdownFiles(plugin: PluginReading, defaultDir: string, paths: string[] | null): Promise<string[]> {
  const { root, manifestPath, problems } = plugin;
  const files: string[] = [];
  const collect = async (path: string, explicit: boolean) => {
    const kind = await kindOf(path);
    if (kind === 'file') {
      if (path.endsWith('.md')) files.push(path);
      else problems.push(warning(manifestPath, `'${relativeTo(root, path)}' is not a Markdown file; ignored`));
    } else if (kind === 'directory') {
      for (const entry of await sortedEntries(path)) {
        if (entry.endsWith('.md') && (await kindOf(join(path, entry))) === 'file') files.push(join(path, entry));
      }
    } else if (explicit) {
      problems.push(warning(manifestPath, `'${relativeTo(root, path)}' does not exist; ignored`));
    }
  };
  if (paths === null) await collect(join(root, defaultDir), false);
  for (const path of paths ?? []) {
    const resolved = await insidePlugin(plugin, path);
    if (resolved) await collect(resolved, true);
  }
  return files;
}

/** The commands of plugin `pluginName`, as skills triggered by `/<plugin>:<command>`. */
export async function findCommands(
  plugin: PluginReading,
  pluginName: string,
  paths: string[] | null,
  entryCommand: string | null,
): Promise<PluginCommand[]> {
  const commands: PluginCommand[] = [];
  for (const file of await markdownFiles(plugin, 'commands', paths)) {
    const { path, front } = await readMarkdown(plugin, file);
    const command = basename(file, '.md');
    const name = `${pluginName}:${command}`;
    const triggers = [`/${name}`, ...(entryCommand === command ? [`/${pluginName}`] : [])];
    commands.push({
      name,
      triggers,
      description: stringField(front.data, 'description') ?? firstParagraphLine(front.body),
      argumentHint: stringField(front.data, 'argument-hint'),
      content: front.body.trim(),
      file,
      path,
    });
  }
  if (entryCommand && !commands.some((c) => c.name === `${pluginName}:${entryCommand}`)) {
    plugin.problems.push(warning(plugin.manifestPath, `entry_command '${entryCommand}' is not one of the commands`));
  }
  return commands;
}

/** The subagent definitions of a plugin. */
export async function findAgents(plugin: PluginReading, paths: string[] | null): Promise<PluginAgent[]> {
  const agents: PluginAgent[] = [];
  for (const file of await markdownFiles(plugin, 'agents', paths)) {
    const { path, front } = await readMarkdown(plugin, file);
    agents.push({
      name: stringField(front.data, 'name') ?? basename(file, '.md'),
      description: stringField(front.data, 'description') ?? firstParagraphLine(front.body),
      file,
      path,
    });
  }
  return agents;
}
