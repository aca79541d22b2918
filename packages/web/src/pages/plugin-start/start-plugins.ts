import { type AppServerClient, BosunApiError } from '@bosun/client';
import type {
  AppConversationStartRequest,
  AppConversationStartTask,
  LaunchPlugin,
  PluginParameter,
  PluginTrust,
  PluginTrustSource,
} from '@bosun/protocol';

/** A plugin as the review step shows it: where it comes from, its parameters, and what is wrong with it. */
export interface ReviewPlugin {
  /** Stable within the list (its place in the link, or its directory id). */
  key: string;
  /** What a person calls it: the directory's name, else the last folder of its path, else its source. */
  name: string;
  /** null: the reference cannot be loaded (see `problems`); `source` may still be known for the display. */
  spec: LaunchPlugin | null;
  /** The source as far as it is known, for a plugin whose reference is unusable. */
  rawSource?: string | null;
  /** What the plugin declares about its parameters (the directory knows; a link has only values). */
  schema?: Record<string, PluginParameter>;
  description?: string | null;
  /** The Plugin Directory's id of the same plugin (same source and path), when it lists it. */
  directoryId?: string;
  problems: string[];
}

/** A parameter as a field: its type decides the control (checkbox, number input, text). */
export interface ParameterField {
  name: string;
  type: 'string' | 'number' | 'boolean';
  description: string | null;
  required: boolean;
}

/** The value a field holds while it is edited: a boolean for a checkbox, the typed text otherwise. */
export type FieldValue = string | boolean;

export const isCommit = (ref: string | null | undefined): ref is string => !!ref && /^[0-9a-f]{40}$/.test(ref);
export const shortCommit = (ref: string) => (isCommit(ref) ? ref.slice(0, 7) : ref);

/** `plugins/pr-review` → `pr-review`; `github:acme/tools` → `acme/tools`. */
export function displayName(source: string | null | undefined, repoPath: string | null | undefined): string {
  const folder = repoPath?.split('/').filter(Boolean).at(-1);
  if (folder) return folder;
  if (!source) return 'Unnamed plugin';
  return source
    .replace(/^(github|gitlab|bitbucket):/, '')
    .replace(/\.git$/, '')
    .replace(/^https?:\/\/[^/]+\//, '');
}

/** The fields of a plugin: those it declares, then any other value the link carries (typed by its value). */
export function parameterFields(plugin: ReviewPlugin): ParameterField[] {
  const fields: ParameterField[] = [];
  for (const [name, declared] of Object.entries(plugin.schema ?? {})) {
    fields.push({ name, type: declared.type, description: declared.description, required: declared.required });
  }
  for (const [name, value] of Object.entries(plugin.spec?.parameters ?? {})) {
    if (fields.some((field) => field.name === name)) continue;
    const type = typeof value === 'boolean' ? 'boolean' : typeof value === 'number' ? 'number' : 'string';
    fields.push({ name, type, description: null, required: false });
  }
  return fields;
}

/** The starting values of a plugin's fields: the link's values, else the declared defaults. */
export function initialValues(plugin: ReviewPlugin): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of parameterFields(plugin)) {
    const given = plugin.spec?.parameters?.[field.name];
    const value = given !== undefined ? given : (plugin.schema?.[field.name]?.default ?? null);
    if (field.type === 'boolean') values[field.name] = value === true || value === 'true';
    else values[field.name] = value === null || value === undefined ? '' : String(value);
  }
  return values;
}

/** A field's problem, or null. */
export function fieldProblem(field: ParameterField, value: FieldValue | undefined): string | null {
  if (field.type === 'boolean') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return field.required ? 'Required: give it a value.' : null;
  if (field.type === 'number' && !Number.isFinite(Number(text))) return 'Expected a number, like 3 or 2.5.';
  return null;
}

/** The parameters to send: typed values; empty optional fields left out. */
export function parameterValues(
  plugin: ReviewPlugin,
  values: Record<string, FieldValue>,
): Record<string, string | number | boolean> | null {
  const out: Record<string, string | number | boolean> = {};
  for (const field of parameterFields(plugin)) {
    const value = values[field.name];
    if (field.type === 'boolean') out[field.name] = value === true;
    else if (typeof value === 'string' && value.trim() !== '') {
      out[field.name] = field.type === 'number' ? Number(value.trim()) : value;
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The distinct sources of the plugins, in order. */
export function sourcesOf(plugins: readonly ReviewPlugin[]): string[] {
  return [...new Set(plugins.flatMap((plugin) => (plugin.spec ? [plugin.spec.source] : [])))];
}

/** The confirmation on record for a plugin's source at the commit it names (or at any commit), if any. */
export function trustedRecord(trust: readonly PluginTrust[], spec: LaunchPlugin): PluginTrust | undefined {
  return trust.find(
    (record) =>
      record.source === spec.source && (record.commit === null || (isCommit(spec.ref) && record.commit === spec.ref)),
  );
}

/**
 * Starts the conversation. The person confirmed trust in every source shown: the sources at a commit the page
 * knows are confirmed with the request; when the server resolves a branch to a commit and asks (409), the sources
 * it names are confirmed and the start sent again, provided they are sources the person saw.
 */
export async function startWithPlugins(
  api: AppServerClient,
  plugins: LaunchPlugin[],
  message: string,
): Promise<AppConversationStartTask> {
  const known: PluginTrustSource[] = plugins
    .filter((plugin) => isCommit(plugin.ref))
    .map((plugin) => ({ source: plugin.source, commit: plugin.ref }));
  const firstLine = message.split('\n', 1)[0]?.trim() ?? '';
  const request: AppConversationStartRequest = {
    plugins: plugins.map((plugin) => ({
      source: plugin.source,
      ref: plugin.ref,
      repo_path: plugin.repo_path,
      parameters: plugin.parameters,
    })),
    title: firstLine
      ? firstLine.length > 80
        ? `${firstLine.slice(0, 80).replace(/\s+\S*$/, '')}…`
        : firstLine
      : `Plugins: ${plugins.map((plugin) => displayName(plugin.source, plugin.repo_path)).join(', ')}`,
    ...(message.trim()
      ? { initial_message: { role: 'user', content: [{ type: 'text', text: message }], run: true } }
      : {}),
  } as AppConversationStartRequest;
  const withConfirmed = (sources: PluginTrustSource[]) =>
    ({
      ...request,
      ...(sources.length > 0 ? { confirmed_plugin_sources: unique(sources) } : {}),
    }) as AppConversationStartRequest;
  try {
    return await api.post('/api/v1/app-conversations', { body: withConfirmed(known) });
  } catch (error) {
    const asked = trustAsked(error);
    if (!asked) throw error;
    const shown = new Set(plugins.map((plugin) => plugin.source));
    const unseen = asked.filter((item) => !shown.has(item.source));
    if (unseen.length > 0) {
      throw new Error(
        `The server asks for trust in ${unseen.map((item) => item.source).join(', ')}, which this page did not show. Reload the page and review the plugins again.`,
      );
    }
    return api.post('/api/v1/app-conversations', { body: withConfirmed([...known, ...asked]) });
  }
}

/** The sources a 409 of a start asks the caller to confirm, or null for any other error. */
function trustAsked(error: unknown): PluginTrustSource[] | null {
  if (!(error instanceof BosunApiError) || error.status !== 409) return null;
  const sources = (error.body as { sources?: unknown } | null)?.sources;
  if (!Array.isArray(sources)) return null;
  return sources.filter(
    (item): item is PluginTrustSource => !!item && typeof (item as PluginTrustSource).source === 'string',
  );
}

function unique(sources: PluginTrustSource[]): PluginTrustSource[] {
  const seen = new Set<string>();
  return sources.filter((item) => {
    const key = `${item.source}\n${item.commit ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
