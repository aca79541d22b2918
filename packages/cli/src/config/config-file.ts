import { readFile } from 'node:fs/promises';

export interface ConfigFile {
  values: Record<string, unknown>;
  /** Why the file cannot be used: unreadable, not JSON or YAML, not a mapping, or keys that are not settings. */
  problems: string[];
}

/**
 * A configuration file: JSON when its name ends in `.json`, else YAML (which JSON is a subset of). Relative paths
 * in it are relative to the current directory, as in flags.
 */
export async function readConfigFile(path: string, keys: ReadonlySet<string>): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { values: {}, problems: [`--config: cannot read ${path} (${code})`] };
  }
  let parsed: unknown;
  try {
    // The YAML parser is loaded only by who needs it.
    parsed = path.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    return {
      values: {},
      problems: [`${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${firstLine(error)}`],
    };
  }
  if (parsed === null || parsed === undefined) return { values: {}, problems: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { values: {}, problems: [`${path}: must be a mapping of settings (key: value)`] };
  }
  const values = parsed as Record<string, unknown>;
  const unknown = Object.keys(values).filter((key) => !keys.has(key));
  return {
    values,
    problems: unknown.map((key) => `${path}: ${key}: not a setting (settings: ${[...keys].join(', ')})`),
  };
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];
