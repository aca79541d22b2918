import { describe, expect, it } from 'vitest';
import { createThinkTool } from '../../src/tools/think/index.ts';
import { sandbox, valid } from './support.ts';

describe('think', () => {
  it('logs the thought and changes nothing', async () => {
    const box = await sandbox();
    const observation = valid(
      await createThinkTool().execute({ kind: 'ThinkAction', thought: 'Maybe the cache is stale.' }, box.context),
    );
    expect(observation).toEqual({
      kind: 'ThinkObservation',
      content: [{ type: 'text', text: 'Your thought has been logged.', cache_prompt: false }],
      is_error: false,
    });
  });
});
