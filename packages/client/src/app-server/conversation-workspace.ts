import type {
  AppConversationGitChangesQuery,
  AppConversationHooks,
  AppConversationSkills,
  GitChange,
  GitDiff,
} from '@bosun/protocol';
import { type CallOptions, pathOf } from '../http.ts';
import { AppServerConversations } from './conversations.ts';
import { APP_SERVER_OPERATIONS } from './operations/index.ts';

/**
 * A conversation's workspace through the app server: a file, the Git changes, the skills and hooks of its agent
 * (a `BosunApiError` 409 while its sandbox does not run, 410 once it is gone, 502 when its agent server fails),
 * and its export (a zip, also while the sandbox is paused or gone). `AppServerClient` has them all.
 */
export abstract class AppServerConversationWorkspace extends AppServerConversations {
  /** The file's text (relative: to the conversation's working directory); 404 when there is none. */
  readAppConversationFile(id: string, filePath: string, options?: CallOptions): Promise<string> {
    return this.call('readAppConversationFile', {
      ...options,
      params: { conversation_id: id },
      query: { file_path: filePath },
    });
  }
  /** The files that differ from `ref` (default HEAD) in the repository at `path` (default: the working directory). */
  appConversationGitChanges(
    id: string,
    query: AppConversationGitChangesQuery = {},
    options?: CallOptions,
  ): Promise<GitChange[]> {
    return this.call('appConversationGitChanges', { ...options, params: { conversation_id: id }, query: { ...query } });
  }
  /** The file at `path` as it is and at `ref` (default HEAD). */
  appConversationGitDiff(id: string, path: string, ref?: string, options?: CallOptions): Promise<GitDiff> {
    return this.call('appConversationGitDiff', { ...options, params: { conversation_id: id }, query: { path, ref } });
  }
  appConversationSkills(id: string, options?: CallOptions): Promise<AppConversationSkills> {
    return this.call('appConversationSkills', { ...options, params: { conversation_id: id } });
  }
  appConversationHooks(id: string, options?: CallOptions): Promise<AppConversationHooks> {
    return this.call('appConversationHooks', { ...options, params: { conversation_id: id } });
  }
  /** The conversation's export: a zip of `meta.json` and one JSON file per event. */
  async downloadAppConversation(id: string, options?: CallOptions): Promise<Uint8Array> {
    const { method, path } = APP_SERVER_OPERATIONS.downloadAppConversation;
    const answer = await this.http.bytes({ ...options, method, path: pathOf(path, { conversation_id: id }) });
    return answer.bytes;
  }
}
