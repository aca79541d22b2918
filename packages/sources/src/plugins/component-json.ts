import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentSpec } from './manifest.ts';
import { type PluginReading, insidePlugin, kindOf, relativeTo } from './paths.ts';
import { error } from './problems.ts';

/**
 * The JSON of a component that has a file of its own and a manifest key naming more (hooks, MCP servers), in
 * order: `defaultFile` when the plugin has it, then each spec of the manifest, a file inside the plugin or an
 * inline object. `use` gets each value with where it stands. A file is read once; a named file that does not
 * exist, or a file that is not JSON, is an error and left out.
 */
export async function readComponentJson(
  plugin: PluginReading,
  defaultFile: string,
  specs: ComponentSpec[] | null,
  names: ComponentNames,
  use: (json: unknown, path: string | null) => void,
): Promise<void> {
  const { root, manifestPath, problems } = plugin;
  const read = new Set<string>();
  const fromFile = async (file: string, explicit: boolean) => {
    if (read.has(file)) return;
    read.add(file);
    const path = relativeTo(root, file);
    if ((await kindOf(file)) !== 'file') {
      if (explicit) problems.push(error(manifestPath, `${names.file} file '${path}' does not exist`));
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      problems.push(error(path, `not valid JSON: ${(e as Error).message}; its ${names.content} are not loaded`));
      return;
    }
    use(json, path);
  };
  await fromFile(join(root, defaultFile), false);
  for (const spec of specs ?? []) {
    if (typeof spec !== 'string') use(spec, manifestPath);
    else {
      const file = await insidePlugin(plugin, spec);
      if (file) await fromFile(file, true);
    }
  }
}

/** How problems name a component read from JSON: its files (`hooks file '...'`) and what they hold. */
export interface ComponentNames {
  file: string;
  content: string;
}
