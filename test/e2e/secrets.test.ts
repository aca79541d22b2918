import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type EventBody,
  type ObservationEventBody,
  allEvents,
  api,
  ofKind,
  outline,
  recordedRequests,
  startConversation,
  startStack,
  textOf,
  waitForStatus,
  withoutStats,
} from './support.ts';

const TOKEN = 's3cr3t-value-123';
const OTHER = 'an0ther-s3cret-456';

describe('secrets', () => {
  it('gives the terminal the secrets but never shows their values in events, responses or LLM requests', async () => {
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [{ name: 'terminal', arguments: { command: 'echo $MY_TOKEN' } }] },
        { tool_calls: [{ name: 'terminal', arguments: { command: 'echo "other=$OTHER_TOKEN" | tr a-z A-Z' } }] },
        { tool_calls: [{ name: 'terminal', arguments: { command: 'printf %s "$MY_TOKEN" | sha256sum' } }] },
        { tool_calls: [{ name: 'finish', arguments: { message: 'Checked the tokens.' } }] },
      ],
    });
    const created = await startConversation(server, llm, {
      message: 'Print my token.',
      extra: { secrets: { MY_TOKEN: TOKEN, OTHER_TOKEN: { value: OTHER, description: 'another one' } } },
    });
    await waitForStatus(server, created.id, 'finished');

    const events = await allEvents(server, created.id);
    expect(outline(withoutStats(events))).toEqual([
      'SystemPromptEvent',
      'MessageEvent:user',
      'status:running',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:finish',
      'ObservationEvent:FinishObservation',
      'status:finished',
    ]);
    const [echo, upper, digest] = ofKind<ObservationEventBody>(events, 'ObservationEvent').map((o) =>
      textOf(o.observation.content),
    ) as [string, string, string];
    expect(echo).toMatch(/^<secret-hidden>\n/);
    // Only the exact value is masked: a transformed value is the agent's business (here, upper case).
    expect(upper).toContain(`OTHER=${OTHER.toUpperCase()}`);
    // The shell really had the value.
    expect(digest).toContain(createHash('sha256').update(TOKEN).digest('hex'));
    const [systemPrompt] = events as [EventBody];
    expect(JSON.stringify(systemPrompt.dynamic_context)).toContain('MY_TOKEN, OTHER_TOKEN');

    // The conversation, as every endpoint shows it.
    const info = await api<{ secret_registry: unknown }>(server, 'GET', `/api/conversations/${created.id}`);
    expect(info.body.secret_registry).toEqual({
      secret_sources: {
        MY_TOKEN: { kind: 'StaticSecret', value: '**********' },
        OTHER_TOKEN: { kind: 'StaticSecret', value: '**********' },
      },
    });
    await api(server, 'GET', '/api/conversations/search');
    await api(server, 'GET', `/api/conversations?ids=${created.id}`);
    for (const event of events) await api(server, 'GET', `/api/conversations/${created.id}/events/${event.id}`);

    const everything = [JSON.stringify(events), ...server.bodies];
    expect(server.bodies.length).toBeGreaterThan(events.length);
    for (const text of everything) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OTHER);
    }
    // The LLM read the masked output too.
    const sent = JSON.stringify(await recordedRequests(llm));
    expect(sent).not.toContain(TOKEN);
    expect(sent).not.toContain(OTHER);
    expect(sent).toContain('<secret-hidden>');
  });
});
