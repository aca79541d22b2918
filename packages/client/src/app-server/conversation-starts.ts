import type { AppConversationStartTask } from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import type { AppServerClient } from './client.ts';

const FINISHED = new Set(['READY', 'ERROR']);

/** Reads the start task until it is READY or ERROR, every `intervalMs` (default 250). */
export async function waitForStartTask(
  client: AppServerClient,
  id: string,
  options: CallOptions & { intervalMs?: number } = {},
): Promise<AppConversationStartTask> {
  const { intervalMs = 250, ...call } = options;
  for (;;) {
    const [task] = await client.get('/api/v1/app-conversations/start-tasks', { ...call, query: { ids: [id] } });
    if (!task) throw new Error(`start task ${id} not found`);
    if (FINISHED.has(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
