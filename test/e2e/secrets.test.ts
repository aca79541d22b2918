import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type EventBody,
  FINISHING,
  OPENING,
  observationsOf,
  outline,
  recordedRequests,
  startStack,
  textOf,
  withoutStats,
} from './support.ts';
import { finish, terminal } from './turns.ts';

const TOKEN = 's3cr3t-value-123';
const OTHER = 'an0ther-s3cret-456';
/** The token as an agent may print it encoded: base64 (alone, and inside a header), reversed, hex. */
const ENCODINGS = [
  'printf %s "$MY_TOKEN" | base64',
  `printf 'Authorization: Bearer %s' "$MY_TOKEN" | base64 -w0; echo`,
  'printf %s "$MY_TOKEN" | rev; echo',
  `printf %s "$MY_TOKEN" | od -An -tx1 | tr -d ' \\n'; echo`,
].join('; ');
const ENCODED = [
  Buffer.from(TOKEN).toString('base64'),
  Buffer.from(TOKEN).toString('hex'),
  [...TOKEN].reverse().join(''),
  Buffer.from(`Authorization: Bearer ${TOKEN}`).toString('base64').slice(30, 40),
];

describe('secrets', () => {
  it('gives the terminal the secrets but never shows their values in events, responses or LLM requests', async () => {
    const { server, llm } = await startStack({
      turns: [
        terminal('echo $MY_TOKEN'),
        terminal('echo "other=$OTHER_TOKEN" | tr a-z A-Z'),
        terminal('printf %s "$MY_TOKEN" | sha256sum'),
        { tool_calls: [{ name: 'terminal', arguments: { command: ENCODINGS } }] },
        finish('Checked the tokens.'),
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Print my token.',
      extra: { secrets: { MY_TOKEN: TOKEN, OTHER_TOKEN: { value: OTHER, description: 'another one' } } },
    });
    await server.waitForStatus(created.id, 'finished');

    const events = await server.allEvents(created.id);
    expect(outline(withoutStats(events))).toEqual([
      ...OPENING,
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      ...FINISHING,
    ]);
    const [echo, upper, digest, encoded] = observationsOf(events).map((o) => textOf(o.observation.content)) as [
      string,
      string,
      string,
      string,
    ];
    expect(echo).toMatch(/^<secret-hidden>\n/);
    // Common transformations of a value are masked too (here, upper case), not only the exact value.
    expect(upper).toContain('OTHER=<secret-hidden>');
    expect(encoded.split('\n').slice(0, 4)).toEqual([
      '<secret-hidden>',
      expect.stringMatching(/^[A-Za-z0-9+/]+<secret-hidden>[A-Za-z0-9+/=]*$/),
      '<secret-hidden>',
      '<secret-hidden>',
    ]);
    // The shell really had the value.
    expect(digest).toContain(createHash('sha256').update(TOKEN).digest('hex'));
    const [systemPrompt] = events as [EventBody];
    expect(JSON.stringify(systemPrompt.dynamic_context)).toContain('MY_TOKEN, OTHER_TOKEN');

    // The conversation, as every endpoint shows it.
    const info = await server.api<{ secret_registry: unknown }>('GET', `/api/conversations/${created.id}`);
    expect(info.body.secret_registry).toEqual({
      secret_sources: {
        MY_TOKEN: { kind: 'StaticSecret', value: '**********' },
        // A description is shown, as OpenHands' secret_registry shows it; the value never.
        OTHER_TOKEN: { kind: 'StaticSecret', value: '**********', description: 'another one' },
      },
    });
    await server.api('GET', '/api/conversations/search');
    await server.api('GET', `/api/conversations?ids=${created.id}`);
    for (const event of events) await server.api('GET', `/api/conversations/${created.id}/events/${event.id}`);

    const everything = [JSON.stringify(events), ...server.bodies];
    expect(server.bodies.length).toBeGreaterThan(events.length);
    for (const text of everything) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OTHER);
      expect(text.toLowerCase()).not.toContain(OTHER.toLowerCase());
      for (const form of ENCODED) expect(text).not.toContain(form);
    }
    // The LLM read the masked output too.
    const sent = JSON.stringify(await recordedRequests(llm));
    expect(sent).not.toContain(TOKEN);
    expect(sent).not.toContain(OTHER);
    for (const form of ENCODED) expect(sent).not.toContain(form);
    expect(sent).toContain('<secret-hidden>');
  });
});
