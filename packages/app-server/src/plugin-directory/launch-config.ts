import type { DirectoryPluginConfig, PluginExample, PluginParameter } from '@bosun/protocol';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const TYPES: Record<string, PluginParameter['type']> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
};

/**
 * A plugin's launch configuration, from its `plugin.json` (`manifest`), else its marketplace entry (`entry`):
 * `entry_command` (a command of the plugin), `parameters` (`{name: {type, description, required, default}}`) and
 * `examples` (`[{title, prompt}]`, or prompts alone). What does not fit is left out, with a problem saying so.
 */
export function launchConfigOf(pluginName: string, manifest: Json | null, entry: Json): DirectoryPluginConfig {
  const problems: string[] = [];
  const field = (key: string) => (manifest && manifest[key] !== undefined ? manifest[key] : entry[key]);
  const command = field('entry_command');
  if (command !== undefined && command !== null && typeof command !== 'string') {
    problems.push("'entry_command' must be a string; ignored");
  }
  const entryCommand = typeof command === 'string' && command ? `/${pluginName}:${command.replace(/^\//, '')}` : null;
  return {
    entry_command: entryCommand,
    parameters: parametersOf(field('parameters'), problems),
    examples: examplesOf(field('examples'), problems),
    problems,
  };
}

/** The defaults of the parameters that have one: what a launch link carries. */
export function parameterDefaults(config: DirectoryPluginConfig): Record<string, unknown> | null {
  const defaults = Object.entries(config.parameters).filter(([, parameter]) => parameter.default !== null);
  return defaults.length ? Object.fromEntries(defaults.map(([name, parameter]) => [name, parameter.default])) : null;
}

function parametersOf(value: unknown, problems: string[]): Record<string, PluginParameter> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    problems.push("'parameters' must be an object of parameters by name; ignored");
    return {};
  }
  const parameters: Record<string, PluginParameter> = {};
  for (const [name, spec] of Object.entries(value)) {
    if (!isObject(spec)) {
      problems.push(`parameters.${name}: must be an object {type, description, required, default}; ignored`);
      continue;
    }
    const given = spec.default ?? null;
    const inferred = given === null ? 'string' : typeof given;
    const type = TYPES[typeof spec.type === 'string' ? spec.type : inferred];
    if (!type) {
      problems.push(
        `parameters.${name}: type '${String(spec.type ?? inferred)}' is not string, number or boolean; ignored`,
      );
      continue;
    }
    const actual: string = typeof given;
    const fits = given === null || actual === type;
    if (!fits) problems.push(`parameters.${name}: its default is not a ${type}; no default`);
    parameters[name] = {
      type,
      description: typeof spec.description === 'string' ? spec.description : null,
      required: spec.required === true,
      default: fits ? (given as PluginParameter['default']) : null,
    };
  }
  return parameters;
}

function examplesOf(value: unknown, problems: string[]): PluginExample[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push("'examples' must be a list; ignored");
    return [];
  }
  return value.flatMap((item, index): PluginExample[] => {
    if (typeof item === 'string') return [{ title: item, prompt: item }];
    if (isObject(item) && typeof item.prompt === 'string') {
      return [{ title: typeof item.title === 'string' ? item.title : item.prompt, prompt: item.prompt }];
    }
    problems.push(`examples[${index}]: expected {title, prompt} or a prompt; ignored`);
    return [];
  });
}
