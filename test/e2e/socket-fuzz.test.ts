import { SendMessageRequest, safeParse } from '@bosun/protocol';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Schema, mutated, oddValue, validValue } from './schema-arbitraries.ts';
import { startStack } from './support.ts';

/**
 * Frames generated from `SendMessageRequest` (valid, broken in one place, or not JSON at all) sent on a
 * conversation's socket against a real server whose runs talk to llm-replay: the socket stays open and every
 * refusal is a `ConversationErrorEvent` whose detail is the 422 list. `BOSUN_FUZZ_SEED` replays a run.
 */
const FRAMES = Number(process.env.BOSUN_FUZZ_FRAMES ?? 400);
const SEED = Number(process.env.BOSUN_FUZZ_SEED ?? Date.now() % 2 ** 31);
const RAW_FRAMES = ['', '{', 'null', '[]', '"x"', '{"type":"auth"}', `${'['.repeat(5000)}${']'.repeat(5000)}`];

type Frame = Record<string, unknown>;

function parseOrKeep(text: unknown): unknown {
  try {
    return JSON.parse(text as string);
  } catch {
    return text;
  }
}

/** What the server makes of a frame: an auth frame (ignored), a user message, or a refusal. */
function expectedOutcome(text: string): 'ignored' | 'message' | 'refused' {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return 'refused';
  }
  const object = frame && typeof frame === 'object' && !Array.isArray(frame) ? (frame as Frame) : undefined;
  if (object?.type === 'auth') return 'ignored';
  return safeParse(SendMessageRequest, object ? { run: true, ...object } : frame).ok ? 'message' : 'refused';
}

it(`answers ${FRAMES} generated WebSocket frames in the error shape, and the socket stays open`, async () => {
  const { server, llm } = await startStack({ turns: [{ content: 'Done.' }], repeat_last: true });
  const document = (await server.api<Frame>('GET', '/openapi.json')).body;
  const components = (document.components as { schemas: Record<string, Schema> }).schemas;
  const { id } = await server.startConversation(llm);

  const message = validValue(components.SendMessageRequest, components);
  const frames = fc.sample(
    fc.oneof(
      { weight: 2, arbitrary: message.map((value) => JSON.stringify(value)) },
      { weight: 4, arbitrary: message.chain(mutated).map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: oddValue().map((value) => JSON.stringify(value) ?? '') },
      { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...RAW_FRAMES), fc.string({ unit: 'binary', maxLength: 40 })) },
    ),
    { seed: SEED, numRuns: FRAMES },
  );

  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/sockets/events/${id}`);
  const received: Frame[] = [];
  let closed: string | undefined;
  let wake = () => {};
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()) as Frame);
    wake();
  });
  socket.on('close', (code, reason) => {
    closed = `${code} ${reason}`;
    wake();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  for (const frame of frames) socket.send(frame);
  // Every frame is answered: a refusal at once; a message by its event, or an error if it could not be added.
  const outcomes = frames.map(expectedOutcome);
  const messages = outcomes.filter((outcome) => outcome === 'message').length;
  const refusals = outcomes.filter((outcome) => outcome === 'refused').length;
  const count = (test: (frame: Frame) => boolean) => received.filter(test).length;
  const refused = (frame: Frame) => frame.kind === 'ConversationErrorEvent' && frame.code === 'ValidationError';
  const answered = (frame: Frame) =>
    (frame.kind === 'MessageEvent' && frame.source === 'user') ||
    (frame.kind === 'ConversationErrorEvent' && frame.code !== 'ValidationError');
  const deadline = Date.now() + 30_000;
  while ((count(refused) < refusals || count(answered) < messages) && closed === undefined) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  const closedEarly = closed;
  socket.close();

  const context = `replay with BOSUN_FUZZ_SEED=${SEED}`;
  expect(closedEarly, context).toBeUndefined();
  expect([count(refused), count(answered)], context).toEqual([refusals, messages]);
  expect(messages, `${context}: the generator reaches past validation`).toBeGreaterThan(FRAMES / 40);
  const errors = received.filter((frame) => frame.kind === 'ConversationErrorEvent');
  for (const error of errors.filter((frame) => frame.code === 'ValidationError')) {
    expect(parseOrKeep(error.detail), `${context}: ${JSON.stringify(error)}`).toEqual({
      detail: expect.arrayContaining([{ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) }]),
    });
  }
  // A frame refused for another reason (a run already going, say) names a known error, never a crash.
  const unexpected = errors.filter((frame) => !['ValidationError', 'ConflictError'].includes(frame.code as string));
  expect(unexpected, context).toEqual([]);
  expect((await server.api('GET', `/api/conversations/${id}`)).status).toBe(200);
}, 120_000);
