import { createHash } from 'node:crypto';
import type { Script } from '@bosun/llm-replay';
import { describe, expect, it } from 'vitest';
import { observationsOf, outline, recordedRequests, startLoggedStack, textOf, withoutStats } from './support.ts';
import { finish, terminal } from './turns.ts';

const TOKEN = 'late-s3cr3t-7f2a9c';
const OTHER = 'other-s3cr3t-b41e07';

const loggedStack = (script: Script) => startLoggedStack(script, 'trace');

describe('POST /api/conversations/{id}/secrets', () => {
  it('adds secrets to a running shell, masks them, and never shows them in events, responses, LLM requests or logs', async () => {
    const { server, llm, logs } = await loggedStack({
      turns: [
        // The shell starts here, without the secret, and keeps a variable of its own.
        terminal('export KEPT=still-here; echo "before:[$LATE_TOKEN]"'),
        finish('First part done.'),
        terminal('echo "after:[$LATE_TOKEN] kept:[$KEPT]"'),
        terminal('printf %s "$LATE_TOKEN" | sha256sum; echo "other=$OTHER_TOKEN"'),
        finish('Used the token.'),
      ],
    });
    const created = await server.startConversation(llm, { message: 'Print the token.' });
    await server.waitForStatus(created.id, 'finished');

    const added = await server.api('POST', `/api/conversations/${created.id}/secrets`, {
      secrets: { LATE_TOKEN: TOKEN, OTHER_TOKEN: { value: OTHER, description: 'another one' } },
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toEqual({ success: true });
    const info = await server.conversation(created.id);
    expect(info.secret_registry).toEqual({
      secret_sources: {
        LATE_TOKEN: { kind: 'StaticSecret', value: '**********' },
        // A description is shown, as OpenHands' secret_registry shows it; the value never.
        OTHER_TOKEN: { kind: 'StaticSecret', value: '**********', description: 'another one' },
      },
    });

    await server.sendMessage(created.id, 'Now use it.');
    await server.waitForStatus(created.id, 'finished');

    const events = await server.allEvents(created.id);
    const outputs = observationsOf(events)
      .filter((o) => o.tool_name === 'terminal')
      .map((o) => textOf(o.observation.content));
    expect(outputs[0]).toContain('before:[]');
    // The same shell (its own variable survived), now with the secret, masked in what it printed.
    expect(outputs[1]).toContain('after:[<secret-hidden>] kept:[still-here]');
    expect(outputs[2]).toContain(createHash('sha256').update(TOKEN).digest('hex'));
    expect(outputs[2]).toContain('other=<secret-hidden>');

    // The change is in the log, by name only.
    const registry = withoutStats(events).find((e) => e.key === 'secret_registry');
    expect(registry?.value).toEqual(info.secret_registry);
    expect(outline(withoutStats(events))).toContain('state:secret_registry');

    // Replacing a secret: the new value is used and masked, the old one no longer is a secret.
    const replaced = await server.api('POST', `/api/conversations/${created.id}/secrets`, {
      secrets: { OTHER_TOKEN: 'replacement-v4lue-9' },
    });
    expect(replaced.status).toBe(200);
    const registryNow = (await server.conversation(created.id)).secret_registry as { secret_sources: object };
    expect(Object.keys(registryNow.secret_sources)).toEqual(['LATE_TOKEN', 'OTHER_TOKEN']);

    for (const event of events) await server.api('GET', `/api/conversations/${created.id}/events/${event.id}`);
    await server.api('GET', '/api/conversations/search');
    const everything = [JSON.stringify(events), ...server.bodies];
    for (const text of everything) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OTHER);
      expect(text).not.toContain('replacement-v4lue-9');
    }
    const requests = JSON.stringify(await recordedRequests(llm));
    expect(requests).not.toContain(TOKEN);
    expect(requests).not.toContain(OTHER);
    expect(requests).toContain('<secret-hidden>');
    // The server logged the requests (the secrets route included) but never a value.
    expect(logs.some((line) => line.includes('/secrets'))).toBe(true);
    for (const line of logs) {
      expect(line).not.toContain(TOKEN);
      expect(line).not.toContain(OTHER);
      expect(line).not.toContain('replacement-v4lue-9');
    }
  });

  it('answers 404 for an unknown conversation and 422 for bad bodies, never echoing a value', async () => {
    const { server, llm, logs } = await loggedStack({ turns: [{ content: 'Hi.' }] });
    const created = await server.startConversation(llm);
    const unknown = await server.api('POST', '/api/conversations/00000000-0000-4000-8000-000000000000/secrets', {
      secrets: { A: TOKEN },
    });
    expect(unknown.status).toBe(404);
    const bad: unknown[] = [
      {},
      { secrets: [] },
      { secrets: { A: 42 } },
      { secrets: { A: { value: TOKEN, extra: TOKEN } } },
      { secrets: { A: { description: TOKEN } } },
      { secrets: { '': TOKEN } },
      { secrets: { A: TOKEN }, more: 1 },
    ];
    for (const body of bad) {
      const reply = await server.api('POST', `/api/conversations/${created.id}/secrets`, body);
      expect(reply.status, `${JSON.stringify(body)}: ${reply.text}`).toBe(422);
      expect(reply.text).not.toContain(TOKEN);
    }
    expect((await server.conversation(created.id)).secret_registry).toEqual({ secret_sources: {} });
    for (const line of logs) expect(line).not.toContain(TOKEN);
  });
});
