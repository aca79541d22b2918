import { join } from 'node:path';

/** The directory private to a conversation: its tools' state (full outputs, task list, browser recordings). */
export function conversationStateDir(dataDir: string, conversationId: string): string {
  return join(dataDir, 'conversations', conversationId);
}
