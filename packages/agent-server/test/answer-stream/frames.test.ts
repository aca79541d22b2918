import { createServer } from 'node:net';
import { type LlmReplay, type Turn, startLlmReplay } from '@bosun/llm-replay';
import { StreamFrame, safeParse } from '@bosun/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_INVALID_REQUEST } from '../../src/index.ts';
import {
  type EventBody,
  SocketClient,
  allEvents,
  createConversation,
  isFullState,
  sendMessage,
  socketUrl,
  untilStatus,
} from '../support/http.ts';
import { tempDirPerFile, testServerPerFile } from '../support/shared-server.ts';

const workspace = tempDirPerFile('bosun-answer-stream-ws-');
const server = testServerPerFile({ runner: undefined, workspaceRoot: workspace });
let replay: LlmReplay | undefined;
const sockets: SocketClient[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  await replay?.close();
  replay = undefined;
});

const ANSWER = 'The workspace holds three files, and each of them is a small shell script that prints a greeting.';

type Frame = EventBody & Partial<StreamFrame>;
const streamFrames = (frames: Frame[]) => frames.filter((frame) => frame.type === 'stream') as StreamFrame[];
const logFrames = (frames: Frame[]) => frames.filter((frame) => frame.type !== 'stream' && !isFullState(frame));
const agentMessages = (frames: Frame[]) => frames.filter((f) => f.kind === 'MessageEvent' && f.source === 'agent');
const messageText = (event: EventBody) =>
  (event as unknown as { llm_message: { content: { text: string }[] } }).llm_message.content[0]?.text;

/** A conversation whose LLM is `llm` (a base URL), with an open `?stream=true` socket and a plain one. */
async function conversationWithSockets(baseUrl: string, llmExtra: Record<string, unknown> = {}) {
  const info = await createConversation(server.url, {
    agent: { llm: { model: 'openai/replay', base_url: baseUrl, api_key: 'k', ...llmExtra }, tools: [] },
    workspace: { working_dir: workspace },
  });
  const streaming = new SocketClient(socketUrl(server.url, info.id, { stream: 'true' }));
  const plain = new SocketClient(socketUrl(server.url, info.id));
  sockets.push(streaming, plain);
  await Promise.all([streaming.until((f) => f.some(isFullState)), plain.until((f) => f.some(isFullState))]);
  return { id: info.id, streaming, plain };
}

async function replayOf(turns: Turn[]): Promise<string> {
  replay = await startLlmReplay({ script: { turns } });
  return replay.baseUrl;
}

/** The frames of one stream, checked: valid frames numbered 0, 1, ... and one `end`, last. */
function checkedStream(frames: StreamFrame[], conversationId: string): StreamFrame[] {
  for (const frame of frames) expect(safeParse(StreamFrame, frame).ok, JSON.stringify(frame)).toBe(true);
  expect(frames.map((frame) => frame.seq)).toEqual(frames.map((_, i) => i));
  expect(frames.every((frame) => frame.conversation_id === conversationId)).toBe(true);
  expect(frames.filter((frame) => frame.end).map((frame) => frame === frames.at(-1))).toEqual([true]);
  return frames;
}

const textOf = (frames: StreamFrame[]) => frames.map((frame) => frame.delta?.text ?? '').join('');
/** The frames of each stream, in the order the streams began. */
function byStream(frames: StreamFrame[]): StreamFrame[][] {
  const streams = new Map<string, StreamFrame[]>();
  for (const frame of frames) streams.set(frame.stream_id, [...(streams.get(frame.stream_id) ?? []), frame]);
  return [...streams.values()];
}

describe('stream frames on the event socket', () => {
  it('reach a ?stream=true subscriber in order, add up to the answer, and are never stored nor sent to others', async () => {
    const base = await replayOf([{ content: ANSWER, reasoning: 'Counting the files first.', stream_delay_ms: 2 }]);
    const { id, streaming, plain } = await conversationWithSockets(base);
    await sendMessage(server.url, id, 'What is in the workspace?', { run: true });
    await untilStatus(server.url, id, 'finished');
    await streaming.until((frames) => agentMessages(frames).length === 1);
    await plain.until((frames) => agentMessages(frames).length === 1);

    const frames = checkedStream(streamFrames(streaming.frames), id);
    expect(new Set(frames.map((frame) => frame.stream_id)).size).toBe(1);
    expect(frames.length).toBeGreaterThan(1);
    expect(textOf(frames)).toBe(ANSWER);
    expect(frames.map((frame) => frame.delta?.reasoning ?? '').join('')).toBe('Counting the files first.');
    const [message] = agentMessages(streaming.frames);
    expect(messageText(message as EventBody)).toBe(ANSWER);
    const done = frames.at(-1);
    expect(done).toMatchObject({
      end: 'done',
      llm_response_id: (message as { llm_response_id: string }).llm_response_id,
    });
    // The end of the stream comes before the answer's event.
    expect(streaming.frames.indexOf(done as Frame)).toBeLessThan(streaming.frames.indexOf(message as Frame));

    expect(streamFrames(plain.frames)).toEqual([]);
    const stored = await allEvents(server.url, id);
    expect(stored.some((event) => (event as Frame).type === 'stream')).toBe(false);
    // Both sockets got the same events, the log's.
    expect(logFrames(streaming.frames).map((e) => e.id)).toEqual(logFrames(plain.frames).map((e) => e.id));
    expect(stored.map((e) => e.id)).toEqual(expect.arrayContaining(logFrames(plain.frames).map((e) => e.id)));
  });

  it('streams tool calls too, and a stream that breaks off midway is discarded before the retry streams again', async () => {
    const call = { name: 'finish', arguments: { message: 'All done here.' } };
    const base = await replayOf([
      { content: 'Finishing now.', tool_calls: [call], stream_cut_after: 6, stream_delay_ms: 2 },
      { content: 'Finishing now.', tool_calls: [call] },
    ]);
    const { id, streaming } = await conversationWithSockets(base, { num_retries: 2, retry_min_wait: 0 });
    await sendMessage(server.url, id, 'Finish.', { run: true });
    await untilStatus(server.url, id, 'finished');
    await streaming.until((frames) => frames.some((f) => f.kind === 'ActionEvent'));

    const streams = byStream(streamFrames(streaming.frames)).map((s) => checkedStream(s, id));
    expect(streams.map((s) => s.at(-1)?.end)).toEqual(['discarded', 'done']);
    const retry = streams[1] as StreamFrame[];
    expect(textOf(retry)).toBe('Finishing now.');
    const args = retry.flatMap((f) => f.delta?.tool_calls ?? []).filter((piece) => piece.index === 0);
    expect(args[0]).toMatchObject({ name: 'finish' });
    expect(JSON.parse(args.map((piece) => piece.arguments ?? '').join(''))).toEqual({ message: 'All done here.' });
    const action = streaming.frames.find((f) => f.kind === 'ActionEvent') as unknown as { llm_response_id: string };
    expect(retry.at(-1)?.llm_response_id).toBe(action.llm_response_id);

    const retries = (await allEvents(server.url, id)).filter((e) => e.key === 'llm_retry').map((e) => e.value);
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, max_attempts: 3, delay_s: 0 }), null]);
  });

  it('publishes each retry of an unreachable LLM as it happens, then the error', async () => {
    const port = await closedPort();
    const { id, plain } = await conversationWithSockets(`http://127.0.0.1:${port}/v1`, {
      num_retries: 2,
      retry_min_wait: 0.05,
      retry_multiplier: 2,
      retry_max_wait: 1,
    });
    await sendMessage(server.url, id, 'Hello?', { run: true });
    await plain.until((frames) => frames.some((f) => f.key === 'execution_status' && f.value === 'error'), 15_000);

    const relevant = logFrames(plain.frames).filter(
      (f) => f.key === 'llm_retry' || f.kind === 'ConversationErrorEvent' || f.key === 'execution_status',
    );
    const outline = relevant.map((f) => (f.key === 'execution_status' ? `status:${f.value}` : (f.key ?? f.kind)));
    expect(outline).toEqual([
      'status:running',
      'llm_retry',
      'llm_retry',
      'llm_retry',
      'ConversationErrorEvent',
      'status:error',
    ]);
    const [first, second, cleared] = relevant.filter((f) => f.key === 'llm_retry').map((f) => f.value);
    expect(first).toMatchObject({
      attempt: 1,
      max_attempts: 3,
      delay_s: 0.05,
      error_type: 'LLMServiceUnavailableError',
    });
    expect(second).toMatchObject({ attempt: 2, max_attempts: 3, delay_s: 0.1 });
    expect((first as { error: string }).error).toContain(`127.0.0.1:${port}`);
    expect(Date.parse((first as { next_attempt_at: string }).next_attempt_at)).toBeGreaterThan(
      Date.parse((first as { at: string }).at),
    );
    expect(cleared).toBeNull();
  });

  it('refuses a stream parameter that is neither true nor false', async () => {
    const info = await createConversation(server.url, { workspace: { working_dir: workspace } });
    const socket = new SocketClient(socketUrl(server.url, info.id, { stream: 'yes' }));
    sockets.push(socket);
    expect(await socket.closed).toMatchObject({ code: CLOSE_INVALID_REQUEST });
  });
});

/** A port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
