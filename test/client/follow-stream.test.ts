import { startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent, StreamFrame } from '@bosun/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startAgentServer, userMessage } from './support.ts';

const ANSWER = 'Streaming reaches the client in pieces, and the pieces add up to the message.';

describe('followEvents with stream frames', () => {
  it('gives the stream frames to onStream (never as events) only when asked', async () => {
    const llm = await startLlmReplay({ script: { turns: [{ content: ANSWER, stream_delay_ms: 2 }] } });
    onTestFinished(() => llm.close());
    const stack = await startAgentServer();
    const info = await stack.client.post('/api/conversations', {
      body: {
        agent: { llm: { model: 'openai/replay', base_url: llm.baseUrl, api_key: 'k' }, tools: [] },
        workspace: { working_dir: stack.workspace },
      },
    });
    const streamed: StreamFrame[] = [];
    const ignored: StreamFrame[] = [];
    const follow = async (stream: boolean, frames: StreamFrame[]) => {
      const events: StoredEvent[] = [];
      for await (const event of stack.client.followEvents(info.id, { stream, onStream: (f) => frames.push(f) })) {
        events.push(event);
        if (event.kind === 'MessageEvent' && event.source === 'agent') return events;
      }
      return events;
    };
    const withStream = follow(true, streamed);
    const without = follow(false, ignored);
    // Both sockets are open (each has its snapshot) before the run starts: wait for the server to count them.
    const deadline = Date.now() + 5000;
    while (stack.server.app.websocketServer.clients.size < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await stack.client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: info.id },
      body: userMessage('Say it.', true),
    });
    const [events, plainEvents] = await Promise.all([withStream, without]);

    expect(events.every((event) => 'kind' in event)).toBe(true);
    expect(events.map((event) => event.id)).toEqual(plainEvents.map((event) => event.id));
    expect(streamed.map((frame) => frame.delta?.text ?? '').join('')).toBe(ANSWER);
    expect(streamed.at(-1)).toMatchObject({ type: 'stream', end: 'done' });
    const message = events.at(-1) as StoredEvent<'MessageEvent'>;
    expect(streamed.at(-1)?.llm_response_id).toBe(message.llm_response_id);
    expect(ignored).toEqual([]);
  });
});
