import { withoutPassword } from '@bosun/database';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { expectation, matches } from './check.ts';
import { readConfigFile } from './config-file.ts';
import { type SecretFileNames, readSecretFile, secretFileNames, secretFileRef } from './secret-files.ts';

/** Where a setting's value came from; a later one wins: flags over the environment over the file over defaults. */
export type Source = 'default' | 'file' | 'env' | 'flag';
export const SOURCE_RANK: Record<Source, number> = { default: 0, file: 1, env: 2, flag: 3 };

/** One key of a configuration schema, with the names it goes by. */
export interface Setting {
  key: string;
  schema: TSchema;
  /** The flag without its dashes; none for a secret (a command line is visible to every user of the machine). */
  flag: string | undefined;
  env: string;
  secret: boolean;
  /** A secret's file (`BOSUN_<KEY>_FILE`, `<key>_file`), unless the schema has a setting of that name. */
  file: SecretFileNames | undefined;
}

/** Flags and env vars named after the key unless the key's schema says otherwise (`flag`, `env`, `secret`). */
export function settingsOf(schema: TObject, envPrefix = 'BOSUN_'): Setting[] {
  const keys = new Set(Object.keys(schema.properties));
  return Object.entries(schema.properties).map(([key, property]) => {
    const secret = property.secret === true;
    const flag =
      property.flag === false || secret ? undefined : ((property.flag as string) ?? key.replaceAll('_', '-'));
    const env = (property.env as string) ?? `${envPrefix}${key.toUpperCase()}`;
    return { key, schema: property, flag, env, secret, file: secret ? secretFileNames(key, env, keys) : undefined };
  });
}

/** The settings are wrong: one line per problem, each naming the key and where its value came from. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export interface LoadedSettings<T> {
  values: T;
  sources: Record<keyof T, Source>;
  /** The configuration file read, if any (the app server hides it from its sandboxes). */
  file?: string;
}

export interface SettingsInput {
  /** Flag values by flag name (from `parseArgs`); `config` names the configuration file. */
  flags: Record<string, string | boolean | undefined>;
  env: Record<string, string | undefined>;
  /** The environment variable naming the configuration file when `--config` is not given. */
  configEnv?: string;
}

/**
 * The configuration `schema` describes, from flags, the environment and an optional file (`--config FILE`, JSON
 * or YAML), else the schema's defaults. Throws `SettingsError` listing every bad value.
 */
export async function loadSettings<T extends TObject>(
  schema: T,
  { flags, env, configEnv = 'BOSUN_CONFIG' }: SettingsInput,
): Promise<LoadedSettings<Static<T>>> {
  const settings = settingsOf(schema);
  const problems: string[] = [];
  const filePath = (flags.config as string | undefined) ?? nonEmpty(env[configEnv]);
  const keys = settings.flatMap((setting) => (setting.file ? [setting.key, setting.file.key] : [setting.key]));
  const file = filePath ? await readConfigFile(filePath, new Set(keys)) : undefined;
  const named = file && filePath ? { path: filePath, values: file.values } : undefined;
  if (file?.problems.length) throw new SettingsError(file.problems);

  const values: Record<string, unknown> = {};
  const sources: Record<string, Source> = {};
  for (const setting of settings) {
    const found = await givenValue(setting, { flags, env, file: named });
    if (found && 'problem' in found) {
      problems.push(found.problem);
      continue;
    }
    if (!found) continue;
    if (!matches(setting.schema, found.value)) {
      // Text from a flag or variable is quoted as typed; a file's value as JSON (so "8000" is seen to be a string).
      // A URL's password is never shown.
      const shown = withoutPassword(found.source === 'file' ? JSON.stringify(found.raw) : `'${found.raw}'`);
      const got = setting.secret ? '' : `, got ${shown}`;
      problems.push(`${found.where}: must be ${expectation(setting.schema)}${got}`);
      continue;
    }
    values[setting.key] = found.value;
    sources[setting.key] = found.source;
  }
  if (problems.length > 0) throw new SettingsError(problems);
  const sourcesOf = sources as Record<keyof Static<T>, Source>;
  return { values: values as Static<T>, sources: sourcesOf, ...(filePath ? { file: filePath } : {}) };
}

interface Found {
  source: Source;
  /** Where the value was given, for messages. */
  where: string;
  raw: unknown;
  value: unknown;
}

/** A setting's value from the strongest place that gives it (not checked yet), or why the places conflict. */
async function givenValue(
  setting: Setting,
  {
    flags,
    env,
    file,
  }: Omit<SettingsInput, 'configEnv'> & { file: { path: string; values: Record<string, unknown> } | undefined },
): Promise<Found | { problem: string } | undefined> {
  const flag = setting.flag === undefined ? undefined : (flags[setting.flag] ?? negated(flags, setting.flag));
  const fromEnv = nonEmpty(env[setting.env]);
  const inFile = file !== undefined && setting.key in file.values;
  const secretFile = setting.file && secretFileRef(setting.file, env, file);
  if (secretFile) {
    const valueWhere = fromEnv !== undefined ? setting.env : inFile ? `${file.path}: ${setting.key}` : undefined;
    if (valueWhere) return { problem: `${valueWhere}, ${secretFile.where}: give the value or its file, not both` };
    const read = await readSecretFile(setting.key, secretFile);
    if ('problem' in read) return read;
    const where = `${secretFile.where} (${secretFile.path})`;
    return { source: secretFile.source, where, raw: read.text, value: fromText(setting.schema, read.text) };
  }
  if (flag !== undefined) {
    return { source: 'flag', where: `--${setting.flag}`, raw: flag, value: fromText(setting.schema, flag) };
  }
  if (fromEnv !== undefined) {
    return { source: 'env', where: setting.env, raw: fromEnv, value: fromText(setting.schema, fromEnv) };
  }
  if (inFile) {
    const raw = file.values[setting.key];
    return { source: 'file', where: `${file.path}: ${setting.key}`, raw, value: raw };
  }
  if (setting.schema.default === undefined) return undefined;
  return { source: 'default', where: setting.key, raw: undefined, value: structuredClone(setting.schema.default) };
}

/** `--no-NAME` of a boolean setting: false. */
const negated = (flags: SettingsInput['flags'], name: string) => (flags[`no-${name}`] === true ? false : undefined);

const nonEmpty = (text: string | undefined) => (text?.trim() ? text.trim() : undefined);

/** A flag's or variable's text as the value the schema wants; what cannot be converted stays text (and fails). */
function fromText(schema: TSchema, text: string | boolean): unknown {
  if (typeof text === 'boolean') return text;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return /^[+-]?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
    case 'boolean':
      return /^(true|1|yes)$/i.test(text) ? true : /^(false|0|no)$/i.test(text) ? false : text;
    case 'array':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'object':
      // A whole object from a flag or variable is JSON; what does not parse is checked (and named) as text.
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    default:
      return text;
  }
}
