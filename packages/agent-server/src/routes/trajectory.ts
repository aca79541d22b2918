import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Conversation } from '../conversations/conversation.ts';
import { conversationInfo } from '../conversations/info.ts';
import type { ConversationService } from '../conversations/service.ts';

const run = promisify(execFile);

/**
 * A conversation's trajectory as OpenHands lays it out, zipped with the system `zip`: `base_state.json` (its
 * info, secrets redacted) and `events/event-<index>-<id>.json`, one file per event in log order. The zip is
 * built in a temporary directory; `dispose` removes it once it has been sent.
 */
export async function zipTrajectory(
  service: ConversationService,
  conversation: Conversation,
): Promise<{ file: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-trajectory-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const root = join(dir, 'trajectory');
    await mkdir(join(root, 'events'), { recursive: true });
    await writeFile(join(root, 'base_state.json'), JSON.stringify(conversationInfo(conversation), null, 2));
    const events = service.events.page(conversation.id, { descending: false, limit: Number.MAX_SAFE_INTEGER });
    for (const [index, event] of events.entries()) {
      await writeFile(join(root, 'events', `event-${String(index).padStart(5, '0')}-${event.id}.json`), event.json);
    }
    const file = join(dir, 'trajectory.zip');
    await run('zip', ['-q', '-r', '-X', file, '.'], { cwd: root });
    return { file, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
