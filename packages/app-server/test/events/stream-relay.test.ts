import { randomUUID } from 'node:crypto';
import { followConversationEvents, iterateConversationEvents } from '@bosun/client';
import type { StoredEvent, StreamFrame } from '@bosun/protocol';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { conversationRow, newUser, repositoriesOf } from '../support/server-users.ts';
import { serverWithReplay } from '../support/server-with-replay.ts';
import { until } from '../support/until.ts';

/**
 * The app's event socket with `?stream=true` relays the stream frames of the conversation's sandbox (a real
 * `bosun agent-server` child, its agent asking llm-replay for streamed answers), while its events still come from
 * the app's store only: each once, the same as on a socket without stream frames.
 */
const ANSWER =
  'Every piece of this answer leaves the scripted model as its own chunk, crosses the sandbox, and reaches the browser.';

const setup = serverWithReplay('bosun-stream-relay-', {
  turns: [{ content: ANSWER, stream_delay_ms: 3 }],
  repeat_last: true,
});

const isAgentMessage = (event: StoredEvent) => event.kind === 'MessageEvent' && event.source === 'agent';

it("relays the sandbox's stream frames to ?stream=true subscribers of the app's socket, events from the store only", async () => {
  const { id, user, agent } = await setup.conversation();
  const { app } = user;

  const abort = new AbortController();
  const frames: StreamFrame[] = [];
  const strayFrames: StreamFrame[] = [];
  const streamed: StoredEvent[] = [];
  const plain: StoredEvent[] = [];
  const follow = async (stream: boolean, into: StoredEvent[], framesInto: StreamFrame[]) => {
    const onStream = (frame: StreamFrame) => framesInto.push(frame);
    // From the start: both sockets see the same whole log, whenever each connected.
    const options = { fromStart: true, signal: abort.signal, stream, onStream };
    for await (const event of followConversationEvents(app, id, options)) into.push(event);
  };
  const following = Promise.all([follow(true, streamed, frames), follow(false, plain, strayFrames)]).catch(
    () => undefined,
  );

  // The relay connects to the sandbox once the first subscriber asks: a message is sent until one answer was
  // streamed whole to the app's subscriber (its first frame and its end), proving the relay without a timed wait.
  let whole: StreamFrame[] | undefined;
  for (let attempt = 0; attempt < 10 && !whole; attempt++) {
    const answered = streamed.filter(isAgentMessage).length;
    await agent.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: id },
      body: { content: [{ type: 'text', text: `Speak ${attempt}.` }], run: true },
    });
    await until(
      async () => streamed.filter(isAgentMessage).length,
      (count) => count > answered,
      'the answer on the app socket',
    );
    const message = streamed.filter(isAgentMessage).at(-1) as StoredEvent<'MessageEvent'>;
    const done = frames.find((frame) => frame.end === 'done' && frame.llm_response_id === message.llm_response_id);
    const ofStream = frames.filter((frame) => frame.stream_id === done?.stream_id);
    if (done && ofStream[0]?.seq === 0) whole = ofStream;
  }
  expect(whole, 'no answer was streamed whole through the app').toBeDefined();
  const ofStream = whole as StreamFrame[];
  expect(ofStream.map((frame) => frame.seq)).toEqual(ofStream.map((_, i) => i));
  expect(ofStream.length).toBeGreaterThan(1);
  expect(ofStream.map((frame) => frame.delta?.text ?? '').join('')).toBe(ANSWER);
  expect(ofStream.every((frame) => frame.type === 'stream' && frame.conversation_id === id)).toBe(true);

  // The same events on both sockets, each once, and the same as the store's: none came through the relay.
  await until(
    async () => plain.filter(isAgentMessage).length,
    (count) => count === streamed.filter(isAgentMessage).length,
    'the plain socket to catch up',
  );
  const ids = (events: StoredEvent[]) => events.map((event) => event.id);
  expect(new Set(ids(streamed)).size).toBe(streamed.length);
  const stored: string[] = [];
  for await (const event of iterateConversationEvents(app, id)) stored.push(event.id);
  expect(stored).toEqual(expect.arrayContaining(ids(streamed)));
  expect(ids(plain).slice(0, streamed.length)).toEqual(ids(streamed).slice(0, plain.length));
  expect(strayFrames).toEqual([]);
  abort.abort();
  await following;
});

it('closes a socket whose stream parameter is neither true nor false (4022)', async () => {
  const { running } = setup;
  const user = await newUser(running);
  const { key } = user;
  const id = randomUUID();
  await conversationRow(repositoriesOf(running), { id, userId: user.id, sandboxId: null });
  const socket = new WebSocket(
    `${running.url.replace(/^http/, 'ws')}/sockets/events/${id}?stream=maybe&api_key=${key}`,
  );
  const code = await new Promise<number>((resolve) => socket.on('close', (closed) => resolve(closed)));
  expect(code).toBe(4022);
});
