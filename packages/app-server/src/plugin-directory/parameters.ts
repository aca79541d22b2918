import type { AppConversationStartRequest } from '@bosun/protocol';

const HEADING = 'Plugin Configuration Parameters:';

/**
 * The request with its plugins' parameters in the first message, as OpenHands passes them (plugins have no other
 * way to receive them): `\n\nPlugin Configuration Parameters:\n- key: value` appended to the message's last text
 * (a text added when it has none; a message made when there is none). With several plugins that have parameters,
 * each one's are under its name (the last segment of its path in the repository, else of its source; plugins of one
 * marketplace share the source): `name:\n  - key: value`.
 */
export function withPluginParameters(request: AppConversationStartRequest): AppConversationStartRequest {
  const given = (request.plugins ?? []).filter((plugin) => plugin.parameters && Object.keys(plugin.parameters).length);
  if (given.length === 0) return request;
  const lines = (parameters: Record<string, unknown>, indent: string) =>
    Object.entries(parameters).map(([key, value]) => `${indent}- ${key}: ${valueText(value)}`);
  const body =
    given.length === 1
      ? lines(given[0]?.parameters ?? {}, '')
      : given.flatMap((plugin) => [
          `${displayName(plugin.repo_path || plugin.source)}:`,
          ...lines(plugin.parameters ?? {}, '  '),
        ]);
  const block = [HEADING, ...body].join('\n');
  const message = request.initial_message;
  if (!message) {
    return {
      ...request,
      initial_message: { role: 'user', content: [{ type: 'text', text: block, cache_prompt: false }], run: true },
    };
  }
  const content = [...message.content];
  const last = content.findLastIndex((item) => item.type === 'text');
  const item = content[last];
  if (item?.type === 'text') content[last] = { ...item, text: `${item.text}\n\n${block}` };
  else content.push({ type: 'text', text: block, cache_prompt: false });
  return { ...request, initial_message: { ...message, content } };
}

/** The name a plugin is shown by: the last segment of its path or source, without `.git`. */
function displayName(where: string): string {
  return (where.replace(/\/+$/, '').split(/[/:]/).at(-1) ?? where).replace(/\.git$/, '');
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
