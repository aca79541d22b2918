import { type CallOptions, pathOf } from '../http.ts';
import type { PathWith } from '../operation-types.ts';
import type { AppServerApi } from './app-server-api.ts';
import type { AppServerClient } from './client.ts';

// Typed as a path of the generated API, so a renamed route fails to compile here too.
const DOWNLOAD: PathWith<AppServerApi, 'get'> = '/api/v1/app-conversations/{conversation_id}/download';

/**
 * The conversation's export: a zip of `meta.json` and one JSON file per event (also while its sandbox is paused or
 * gone); bytes, not JSON.
 */
export async function downloadAppConversation(
  client: Pick<AppServerClient, 'http'>,
  id: string,
  options?: CallOptions,
): Promise<Uint8Array> {
  const path = pathOf(DOWNLOAD, { conversation_id: id });
  return (await client.http.bytes({ ...options, method: 'GET', path })).bytes;
}
