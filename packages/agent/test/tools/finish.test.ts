import { describe, expect, it } from 'vitest';
import { createFinishTool } from '../../src/tools/finish/index.ts';
import { sandbox, valid } from './support.ts';

describe('finish', () => {
  it('returns the final message as the content, masked', async () => {
    const box = await sandbox({ mask: (text) => text.replaceAll('tok-123', '<secret-hidden>') });
    const observation = valid(
      await createFinishTool().execute(
        { kind: 'FinishAction', message: 'Done: the tests pass. Token tok-123 was rotated.' },
        box.context,
      ),
    );
    expect(observation).toEqual({
      kind: 'FinishObservation',
      content: [
        { type: 'text', text: 'Done: the tests pass. Token <secret-hidden> was rotated.', cache_prompt: false },
      ],
      is_error: false,
    });
  });
});
