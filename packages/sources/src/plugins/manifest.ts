import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import { error, warning } from './problems.ts';

/** Where a plugin's `plugin.json` may be, in the order looked at (Claude Code, Codex, neutral). */
export const MANIFEST_DIRS = ['.claude-plugin', '.codex-plugin', '.plugin'] as const;

/** A path list or inline value of a component key (`hooks`, `mcpServers`) of `plugin.json`. */
export type ComponentSpec = string | Record<string, unknown>;

/** What Bosun uses of a `plugin.json` (or of a marketplace entry standing in for one). */
export interface PluginManifest {
  name: string | null;
  version: string | null;
  description: string | null;
  /** Extra skill directories (added to `skills/`). */
  skills: string[] | null;
  /** Command files or directories (replacing `commands/`). */
  commands: string[] | null;
  /** Agent files or directories (replacing `agents/`). */
  agents: string[] | null;
  /** Hook files or inline configurations (added to `hooks/hooks.json`). */
  hooks: ComponentSpec[] | null;
  /** MCP server files or inline maps (added to `.mcp.json`). */
  mcpServers: ComponentSpec[] | null;
  /** OpenHands' `entry_command`: the command that also answers to `/<plugin>`. */
  entryCommand: string | null;
  /** Components it declares that Bosun does not load (`lspServers`, `outputStyles`, ...). */
  unsupported: string[];
}

export const EMPTY_MANIFEST: PluginManifest = {
  name: null,
  version: null,
  description: null,
  skills: null,
  commands: null,
  agents: null,
  hooks: null,
  mcpServers: null,
  entryCommand: null,
  unsupported: [],
};

/** Keys of components Bosun reads. */
export const COMPONENT_KEYS = ['skills', 'commands', 'agents', 'hooks', 'mcpServers'] as const;
/** Metadata keys of Claude Code's schema (and OpenHands'), read or harmlessly ignored. */
const METADATA_KEYS = new Set([
  '$schema',
  'name',
  'displayName',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'metadata',
  'defaultEnabled',
  'entry_command',
  // the launch configuration the app's Plugin Directory reads
  'parameters',
  'examples',
  // marketplace entry keys, when an entry stands in for plugin.json
  'source',
  'category',
  'tags',
  'strict',
  'relevance',
]);
/** Components of Claude Code plugins that Bosun does not load (what they are): said, never silently dropped. */
const UNSUPPORTED_KEYS = new Map([
  ['outputStyles', 'output styles'],
  ['lspServers', 'LSP servers'],
  ['workflows', 'workflows'],
  ['experimental', 'themes and monitors'],
  ['userConfig', 'user configuration'],
  ['channels', 'channels'],
  ['dependencies', 'plugin dependencies'],
]);

/** The warning for a component Bosun does not load, declared in `path`. */
export function unsupportedWarning(path: string | null, key: string): PluginProblem {
  const what = UNSUPPORTED_KEYS.get(key);
  return warning(path, `'${key}' is not supported by Bosun${what ? ` (${what})` : ''}; ignored`);
}

export interface ManifestReading {
  manifest: PluginManifest;
  /** The file read, relative to the plugin; null: none. */
  path: string | null;
  problems: PluginProblem[];
}

/** Reads the first `plugin.json` of `MANIFEST_DIRS` in `dir`; a plugin without one is valid. */
export async function readPluginManifest(dir: string): Promise<ManifestReading> {
  const found: { path: string; text: string }[] = [];
  for (const manifestDir of MANIFEST_DIRS) {
    const path = `${manifestDir}/plugin.json`;
    const text = await readFile(join(dir, path), 'utf8').catch(() => null);
    if (text !== null) found.push({ path, text });
  }
  const [first, ...others] = found;
  if (!first) return { manifest: EMPTY_MANIFEST, path: null, problems: [] };
  const problems: PluginProblem[] = others
    .filter((other) => other.text !== first.text)
    .map((other) => warning(other.path, `differs from ${first.path}, which is the one read`));
  let json: unknown;
  try {
    json = JSON.parse(first.text);
  } catch (e) {
    return {
      manifest: EMPTY_MANIFEST,
      path: first.path,
      problems: [error(first.path, `not valid JSON: ${(e as Error).message}`)],
    };
  }
  const parsed = parseManifest(json, first.path);
  return { manifest: parsed.manifest, path: first.path, problems: [...problems, ...parsed.problems] };
}

/**
 * The fields Bosun uses of a `plugin.json` object (or a marketplace entry). A known key of the wrong type is an
 * error (that key is ignored); unknown keys and components Bosun does not load are warnings.
 */
export function parseManifest(
  json: unknown,
  path: string | null,
  options: { requireName?: boolean } = {},
): { manifest: PluginManifest; problems: PluginProblem[] } {
  const problems: PluginProblem[] = [];
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return { manifest: EMPTY_MANIFEST, problems: [error(path, 'must be a JSON object')] };
  }
  const data = json as Record<string, unknown>;
  const { text, paths, specs } = manifestFields(data, path, problems);
  const name = text('name');
  if (name === null && options.requireName !== false && data.name === undefined) {
    problems.push(warning(path, "has no 'name'; the directory name is used"));
  } else if (name !== null && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
    problems.push(warning(path, `name '${name}' is not kebab-case (lowercase letters, digits, '-')`));
  }
  const unsupported = Object.keys(data).filter((key) => UNSUPPORTED_KEYS.has(key));
  for (const key of Object.keys(data)) {
    if (UNSUPPORTED_KEYS.has(key)) problems.push(unsupportedWarning(path, key));
    else if (!METADATA_KEYS.has(key) && !(COMPONENT_KEYS as readonly string[]).includes(key)) {
      problems.push(warning(path, `unknown key '${key}'; ignored`));
    }
  }
  return {
    manifest: {
      name,
      version: text('version'),
      description: text('description'),
      skills: paths('skills'),
      commands: paths('commands'),
      agents: paths('agents'),
      hooks: specs('hooks'),
      mcpServers: specs('mcpServers'),
      entryCommand: text('entry_command'),
      unsupported,
    },
    problems,
  };
}

/** The readers of a manifest's fields by type: an absent (or null) field is null, a wrong one an error and null. */
function manifestFields(data: Record<string, unknown>, path: string | null, problems: PluginProblem[]) {
  const wrong = (key: string, expected: string) => problems.push(error(path, `'${key}' must be ${expected}`));
  const listed = (key: string) => {
    const value = data[key] ?? null;
    return value === null ? null : Array.isArray(value) ? value : [value];
  };
  return {
    text(key: string): string | null {
      const value = data[key] ?? null;
      if (value === null || typeof value === 'string') return value;
      wrong(key, 'a string');
      return null;
    },
    /** One path or a list of them. */
    paths(key: string): string[] | null {
      const items = listed(key);
      if (items === null || items.every((item) => typeof item === 'string')) return items;
      wrong(key, 'a path or a list of paths');
      return null;
    },
    /** Paths or inline objects, one or a list: the valid ones are kept. */
    specs(key: string): ComponentSpec[] | null {
      const items = listed(key);
      if (items === null) return null;
      const valid = items.filter(
        (item): item is ComponentSpec =>
          typeof item === 'string' || (!!item && typeof item === 'object' && !Array.isArray(item)),
      );
      if (valid.length !== items.length) wrong(key, 'a path, an object, or a list of them');
      return valid;
    },
  };
}
