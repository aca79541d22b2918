import type { StreamFrame } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AnswerStream, answerStreamOf } from '../../src/conversations/answer-stream.ts';
import { eventually, sendMessage, socketUrl } from '../support/http.ts';
import { serverWithConversationPerFile } from '../support/shared-server.ts';

const shared = serverWithConversationPerFile();

describe('the answer stream', () => {
  it('gathers the pieces that come within a few milliseconds into one frame, and flushes at the end', async () => {
    const stream = new AnswerStream('c');
    const frames: StreamFrame[] = [];
    stream.listen((text) => frames.push(JSON.parse(text) as StreamFrame));
    for (const word of ['one ', 'two ', 'three']) stream.publish({ streamId: 's', delta: { text: word } });
    stream.publish({ streamId: 's', delta: { toolCall: { index: 0, id: 'call_1', name: 'finish' } } });
    stream.publish({ streamId: 's', delta: { toolCall: { index: 0, arguments: '{"mess' } } });
    stream.publish({ streamId: 's', delta: { toolCall: { index: 0, arguments: 'age":1}' } } });
    stream.publish({ streamId: 's', end: 'done', llmResponseId: 'resp_1' });
    stream.publish({ streamId: 't', delta: { reasoning: 'again' } });
    stream.publish({ streamId: 't', end: 'discarded' });
    expect(frames).toEqual([
      {
        type: 'stream',
        conversation_id: 'c',
        stream_id: 's',
        seq: 0,
        delta: {
          text: 'one two three',
          tool_calls: [{ index: 0, id: 'call_1', name: 'finish', arguments: '{"message":1}' }],
        },
        end: 'done',
        llm_response_id: 'resp_1',
      },
      { type: 'stream', conversation_id: 'c', stream_id: 't', seq: 0, delta: { reasoning: 'again' }, end: 'discarded' },
    ]);
  });

  it('drops stream frames for a subscriber that does not read, never its events', async () => {
    const { server, conversationId } = shared;
    const conversation = server.server.service.get(conversationId);
    if (!conversation) throw new Error('conversation not loaded');
    const received: { type?: string; kind?: string; seq?: number }[] = [];
    const socket = new WebSocket(socketUrl(server.url, conversationId, { stream: 'true' }));
    socket.on('message', (data) => received.push(JSON.parse(data.toString())));
    await eventually(() => received.length > 0); // the snapshot: the socket is live
    // The client stops reading: what the server sends queues up on its side.
    const raw = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const piece = 'x'.repeat(64 * 1024);
    const stream = answerStreamOf(conversation);
    for (let i = 0; i < 400; i++) {
      stream.publish({ streamId: 'big', delta: { text: piece } });
      await new Promise((resolve) => setTimeout(resolve, 12)); // one frame per piece
    }
    stream.publish({ streamId: 'big', end: 'done', llmResponseId: 'r' });
    await sendMessage(server.url, conversationId, 'an event while the reader is slow');
    raw.resume();
    await eventually(() => received.some((frame) => frame.kind === 'MessageEvent'), 20_000);
    const frames = received.filter((frame) => frame.type === 'stream');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThan(401);
    socket.close();
  });
});
