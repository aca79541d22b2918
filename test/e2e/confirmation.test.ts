import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  type E2EServer,
  type EventBody,
  FINISHING,
  OPENING,
  actionsOf,
  ofKind,
  outline,
  recordedRequests,
  restartableServer,
  sleep,
  startStack,
  withoutStats,
} from './support.ts';
import { finish, terminal, terminalCall, think } from './turns.ts';

interface ChatBody {
  messages: { role: string; content: string | null; tool_call_id?: string }[];
}

const ALWAYS = { kind: 'AlwaysConfirm' };

function respond(server: E2EServer, id: string, body: unknown) {
  return server.api<{ success?: boolean; detail?: unknown }>(
    'POST',
    `/api/conversations/${id}/events/respond_to_confirmation`,
    body,
  );
}

/** Waits for exactly `status`, passing through any other (a deadline moves on from `waiting_for_confirmation`). */
function until(server: E2EServer, id: string, status: string) {
  return server.waitFor(id, (info) => info.execution_status === status);
}

/** The events from the last `waiting_for_confirmation` status on (the tail of the log after the wait). */
function labelsFrom(events: EventBody[], count: number): string[] {
  return outline(withoutStats(events)).slice(count);
}

describe('confirmation mode', () => {
  it('AlwaysConfirm: parallel actions wait as pending; accept runs them in order and the run goes on', async () => {
    const { server, llm } = await startStack({
      turns: [
        { content: 'Two files.', tool_calls: [terminalCall('echo one > one.txt'), terminalCall('echo two > two.txt')] },
        finish('Both written.'),
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Write two files.',
      extra: { confirmation_policy: ALWAYS },
    });
    expect(created.confirmation_policy).toEqual(ALWAYS);

    const waiting = await server.settledEvents(created.id, 'waiting_for_confirmation');
    expect(outline(waiting)).toEqual([
      ...OPENING,
      'ActionEvent:terminal',
      'ActionEvent:terminal',
      'status:waiting_for_confirmation',
    ]);
    // Pending: stored, not run. Without an analyzer every risk is UNKNOWN.
    expect(actionsOf(waiting).map((a) => a.security_risk)).toEqual(['UNKNOWN', 'UNKNOWN']);
    expect(existsSync(join(server.workspace, 'one.txt'))).toBe(false);
    expect(llm.requests()).toHaveLength(1);

    const accepted = await respond(server, created.id, { accept: true });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({ success: true });
    await server.waitForStatus(created.id, 'finished');

    const events = await server.allEvents(created.id);
    expect(labelsFrom(events, waiting.length)).toEqual([
      'status:running',
      'ObservationEvent:TerminalObservation',
      'ObservationEvent:TerminalObservation',
      ...FINISHING,
    ]);
    const [first, second] = actionsOf(events);
    const observations = ofKind(events, 'ObservationEvent');
    expect(observations[0]).toMatchObject({ action_id: first?.id });
    expect(observations[1]).toMatchObject({ action_id: second?.id });
    expect(existsSync(join(server.workspace, 'one.txt'))).toBe(true);
    expect(existsSync(join(server.workspace, 'two.txt'))).toBe(true);
    // The pending actions ran without a new LLM call; the next call saw both results.
    expect(await recordedRequests(llm)).toHaveLength(2);

    // Answering again: nothing waits any more.
    const again = await respond(server, created.id, { accept: true });
    expect(again.status).toBe(409);
  });

  it('reject: one UserRejectObservation per pending action (user, with the reason), then idle; the LLM reads them', async () => {
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [terminalCall('echo one > one.txt'), terminalCall('echo two > two.txt')] },
        finish('Understood, nothing written.'),
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Write two files.',
      extra: { confirmation_policy: ALWAYS },
    });
    const waiting = await server.settledEvents(created.id, 'waiting_for_confirmation');

    const rejected = await respond(server, created.id, { accept: false, reason: 'Not in this folder.' });
    expect(rejected.status, rejected.text).toBe(200);
    expect((await server.conversation(created.id)).execution_status).toBe('idle');

    const events = withoutStats(await server.allEvents(created.id));
    expect(labelsFrom(events, waiting.length)).toEqual([
      'UserRejectObservation',
      'UserRejectObservation',
      'status:idle',
    ]);
    const actions = actionsOf(events);
    const rejections = ofKind(events, 'UserRejectObservation');
    rejections.forEach((rejection, index) => {
      expect(rejection).toMatchObject({
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: actions[index]?.tool_call_id,
        action_id: actions[index]?.id,
        rejection_reason: 'Not in this folder.',
        rejection_source: 'user',
      });
    });
    expect(existsSync(join(server.workspace, 'one.txt'))).toBe(false);
    expect(existsSync(join(server.workspace, 'two.txt'))).toBe(false);
    expect(llm.requests()).toHaveLength(1);
    expect((await respond(server, created.id, { accept: false })).status).toBe(409);

    // The next run starts from the rejections: the LLM reads one tool result per call.
    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
    const second = (await recordedRequests(llm))[1]?.body as ChatBody;
    const results = second.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(actions.map((a) => a.tool_call_id));
    for (const result of results) expect(result.content).toBe('Action rejected: Not in this folder.');
    expect(existsSync(join(server.workspace, 'one.txt'))).toBe(false);
  });

  it('a user message sent while actions wait rejects them first (it is not an answer); the LLM reads both', async () => {
    const { server, llm } = await startStack({
      turns: [terminal('echo no > no.txt'), finish('Understood, I left it.')],
    });
    const created = await server.startConversation(llm, {
      message: 'Write no.txt.',
      extra: { confirmation_policy: ALWAYS },
    });
    const waiting = await server.settledEvents(created.id, 'waiting_for_confirmation');
    await server.sendMessage(created.id, 'Actually, leave it.');
    await server.waitForStatus(created.id, 'finished');
    expect(labelsFrom(await server.allEvents(created.id), waiting.length)).toEqual([
      'UserRejectObservation',
      'status:idle',
      'MessageEvent:user',
      'status:running',
      ...FINISHING,
    ]);
    expect(existsSync(join(server.workspace, 'no.txt'))).toBe(false);
    const second = (await recordedRequests(llm))[1]?.body as ChatBody;
    expect(second.messages.slice(-3).map((m) => [m.role, m.content])).toEqual([
      ['assistant', null],
      ['tool', expect.stringMatching(/^Action rejected: The user sent a new message instead of confirming/)],
      ['user', 'Actually, leave it.'],
    ]);
  });

  it('AlwaysConfirm: a single think or finish call never waits', async () => {
    const { server, llm } = await startStack({
      turns: [think('Plan first.'), finish('Done.')],
    });
    const created = await server.startConversation(llm, {
      message: 'Think, then finish.',
      extra: { confirmation_policy: ALWAYS },
    });
    await server.waitForStatus(created.id, 'finished');
    expect(outline(withoutStats(await server.allEvents(created.id)))).toEqual([
      ...OPENING,
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      ...FINISHING,
    ]);
  });

  it('ConfirmRisky with the rule-based analyzer: LOW and MEDIUM run, HIGH waits; a lower threshold waits for MEDIUM', async () => {
    const { server, llm } = await startStack({
      turns: [
        terminal('ls -la'),
        terminal('mkdir -p build && rm -rf build'),
        // HIGH, and harmless even if it ran: the workspace is not a git repository.
        terminal('git push --force origin main'),
        { tool_calls: [terminalCall('rm -rf build2')], when: { last_user_message_contains: 'Clean up' } },
        finish('Cleaned up.'),
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Look around.',
      extra: {
        confirmation_policy: { kind: 'ConfirmRisky' },
        security_analyzer: { kind: 'RuleBasedSecurityAnalyzer' },
      },
    });
    expect(created.confirmation_policy).toEqual({ kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true });
    expect(created.security_analyzer).toEqual({ kind: 'RuleBasedSecurityAnalyzer' });
    let events = await server.settledEvents(created.id, 'waiting_for_confirmation');
    expect(outline(events).slice(3)).toEqual([
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:terminal',
      'status:waiting_for_confirmation',
    ]);
    expect(actionsOf(events).map((a) => a.security_risk)).toEqual(['LOW', 'MEDIUM', 'HIGH']);
    // Rejected without a reason: the default one.
    expect((await respond(server, created.id, { accept: false })).status).toBe(200);
    events = withoutStats(await server.allEvents(created.id));
    expect(ofKind(events, 'UserRejectObservation')).toEqual([
      expect.objectContaining({ rejection_reason: 'User rejected the action', rejection_source: 'user' }),
    ]);

    // From MEDIUM on: the deletion waits now.
    const policy = await server.api('POST', `/api/conversations/${created.id}/confirmation_policy`, {
      policy: { kind: 'ConfirmRisky', threshold: 'MEDIUM' },
    });
    expect(policy.status, policy.text).toBe(200);
    await server.sendMessage(created.id, 'Clean up build2.');
    await server.waitForStatus(created.id, 'waiting_for_confirmation');
    const pending = actionsOf(await server.allEvents(created.id)).at(-1);
    expect(pending).toMatchObject({ security_risk: 'MEDIUM', action: { command: 'rm -rf build2' } });
    expect((await respond(server, created.id, { accept: true })).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
  });

  it('ConfirmRisky: an UNKNOWN risk waits when confirm_unknown is true and runs when it is false', async () => {
    const { server, llm } = await startStack({
      turns: [
        // No analyzer: the risk stays UNKNOWN, the LLM's own estimate stays in tool_call.arguments only.
        terminal('echo first', { security_risk: 'LOW' }),
        terminal('echo second', { security_risk: 'LOW' }),
        finish('Done.'),
      ],
    });
    const created = await server.startConversation(llm, {
      message: 'Echo twice.',
      extra: { confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true } },
    });
    await server.waitForStatus(created.id, 'waiting_for_confirmation');
    const [first] = actionsOf(await server.allEvents(created.id));
    expect(first?.security_risk).toBe('UNKNOWN');
    expect(JSON.parse(first?.tool_call.arguments ?? '{}')).toMatchObject({ security_risk: 'LOW' });
    expect(first?.action).not.toHaveProperty('security_risk');

    const changed = await server.api('POST', `/api/conversations/${created.id}/confirmation_policy`, {
      policy: { kind: 'ConfirmRisky', confirm_unknown: false },
    });
    expect(changed.status).toBe(200);
    expect((await server.conversation(created.id)).confirmation_policy).toEqual({
      kind: 'ConfirmRisky',
      threshold: 'HIGH',
      confirm_unknown: false,
    });
    // Accepting runs the pending action; the next UNKNOWN one no longer waits.
    expect((await respond(server, created.id, { accept: true })).status).toBe(200);
    const events = await server.settledEvents(created.id);
    expect(outline(events).filter((label) => label === 'status:waiting_for_confirmation')).toHaveLength(1);
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(3);
    expect(ofKind(events, 'ConversationStateUpdateEvent').map((e) => e.key)).toContain('confirmation_policy');
  });

  it('the LLM analyzer takes the risk the LLM gave: LOW runs, HIGH waits (analyzer set through the route)', async () => {
    const { server, llm } = await startStack({
      turns: [
        terminal('echo low', { security_risk: 'LOW' }),
        terminal('echo high', { security_risk: 'HIGH' }),
        finish('Done.'),
      ],
    });
    const created = await server.startConversation(llm, {
      extra: { confirmation_policy: { kind: 'ConfirmRisky' } },
    });
    const set = await server.api('POST', `/api/conversations/${created.id}/security_analyzer`, {
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    });
    expect(set.status, set.text).toBe(200);
    expect((await server.conversation(created.id)).security_analyzer).toEqual({ kind: 'LLMSecurityAnalyzer' });
    await server.sendMessage(created.id, 'Echo.');
    await server.waitForStatus(created.id, 'waiting_for_confirmation');
    const actions = actionsOf(await server.allEvents(created.id));
    expect(actions.map((a) => a.security_risk)).toEqual(['LOW', 'HIGH']);
    expect(ofKind(await server.allEvents(created.id), 'ObservationEvent')).toHaveLength(1);
    expect((await respond(server, created.id, { accept: true })).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');

    // Removing the analyzer: back to UNKNOWN.
    const removed = await server.api('POST', `/api/conversations/${created.id}/security_analyzer`, {
      security_analyzer: null,
    });
    expect(removed.status).toBe(200);
    expect((await server.conversation(created.id)).security_analyzer).toBeNull();
    const keys = ofKind(await server.allEvents(created.id), 'ConversationStateUpdateEvent').map((e) => e.key);
    expect(keys.filter((key) => key === 'security_analyzer')).toHaveLength(2);
  });

  it('a deadline with deny rejects the waiting actions, saying the deadline passed, and the agent goes on', async () => {
    const { server, llm } = await startStack({
      turns: [terminal('echo late > late.txt'), finish('No answer, so I stopped there.')],
    });
    const created = await server.startConversation(llm, {
      message: 'Write late.txt.',
      extra: { confirmation_policy: ALWAYS, confirmation_timeout_seconds: 0.5 },
    });
    expect(created).toMatchObject({ confirmation_timeout_seconds: 0.5, on_confirmation_timeout: 'deny' });
    await until(server, created.id, 'finished');

    const events = withoutStats(await server.allEvents(created.id));
    expect(outline(events).slice(3)).toEqual([
      'ActionEvent:terminal',
      'status:waiting_for_confirmation',
      'UserRejectObservation',
      'status:idle',
      'status:running',
      ...FINISHING,
    ]);
    const [rejection] = ofKind(events, 'UserRejectObservation');
    expect(rejection).toMatchObject({ rejection_source: 'user' });
    expect(String(rejection?.rejection_reason)).toMatch(/confirmation deadline \(0\.5 s\)/);
    const waitingAt = Date.parse(events[4]?.timestamp as string);
    expect(Date.parse(rejection?.timestamp as string) - waitingAt).toBeGreaterThanOrEqual(450);
    expect(existsSync(join(server.workspace, 'late.txt'))).toBe(false);
    const second = (await recordedRequests(llm))[1]?.body as ChatBody;
    expect(second.messages.at(-1)?.content).toMatch(/^Action rejected: No answer within the confirmation deadline/);
  });

  it('a deadline with pause pauses (PauseEvent); the next run asks again; accepting then runs the action', async () => {
    const { server, llm } = await startStack({
      turns: [terminal('echo later > later.txt'), finish('Written.')],
    });
    const created = await server.startConversation(llm, {
      message: 'Write later.txt.',
      extra: { confirmation_policy: ALWAYS, confirmation_timeout_seconds: 0.4, on_confirmation_timeout: 'pause' },
    });
    await until(server, created.id, 'paused');
    const paused = withoutStats(await server.allEvents(created.id));
    expect(outline(paused).slice(3)).toEqual([
      'ActionEvent:terminal',
      'status:waiting_for_confirmation',
      'PauseEvent',
      'status:paused',
    ]);
    expect(ofKind(paused, 'UserRejectObservation')).toHaveLength(0);

    // No deadline any more; a plain run from paused does not accept the pending action: it waits again.
    const policy = await server.api('POST', `/api/conversations/${created.id}/confirmation_policy`, {
      policy: ALWAYS,
      confirmation_timeout_seconds: null,
    });
    expect(policy.status, policy.text).toBe(200);
    expect(await server.conversation(created.id)).toMatchObject({ confirmation_timeout_seconds: null });
    expect((await server.api('POST', `/api/conversations/${created.id}/run`)).status).toBe(200);
    await server.waitForStatus(created.id, 'waiting_for_confirmation');
    expect(existsSync(join(server.workspace, 'later.txt'))).toBe(false);
    expect(llm.requests()).toHaveLength(1);

    expect((await respond(server, created.id, { accept: true })).status).toBe(200);
    await server.waitForStatus(created.id, 'finished');
    expect(existsSync(join(server.workspace, 'later.txt'))).toBe(true);
    expect(labelsFrom(await server.allEvents(created.id), paused.length)).toEqual([
      'state:confirmation_policy',
      'state:confirmation_timeout_seconds',
      'status:running',
      'status:waiting_for_confirmation',
      'status:running',
      'ObservationEvent:TerminalObservation',
      ...FINISHING,
    ]);
  });

  it('answers 409 when nothing waits, 404 for an unknown conversation, 422 for bad bodies', async () => {
    const { server, llm } = await startStack({ turns: [finish('Unused.')] });
    const created = await server.startConversation(llm);
    const idle = await respond(server, created.id, { accept: true });
    expect(idle.status).toBe(409);
    expect(idle.body.detail).toMatch(/not waiting for confirmation \(it is idle\)/);

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await respond(server, unknown, { accept: true })).status).toBe(404);
    for (const route of ['confirmation_policy', 'security_analyzer', 'secrets']) {
      const body =
        route === 'confirmation_policy'
          ? { policy: ALWAYS }
          : route === 'security_analyzer'
            ? { security_analyzer: null }
            : { secrets: {} };
      expect((await server.api('POST', `/api/conversations/${unknown}/${route}`, body)).status).toBe(404);
    }

    const bad: [string, unknown, (string | number)[]][] = [
      ['events/respond_to_confirmation', {}, ['body', 'accept']],
      ['events/respond_to_confirmation', { accept: 'yes' }, ['body', 'accept']],
      ['events/respond_to_confirmation', { accept: false, reason: '' }, ['body', 'reason']],
      ['events/respond_to_confirmation', { accept: true, extra: 1 }, ['body', 'extra']],
      ['confirmation_policy', {}, ['body', 'policy']],
      ['confirmation_policy', { policy: { kind: 'SometimesConfirm' } }, ['body', 'policy', 'kind']],
      [
        'confirmation_policy',
        { policy: { kind: 'ConfirmRisky', threshold: 'EXTREME' } },
        ['body', 'policy', 'threshold'],
      ],
      [
        'confirmation_policy',
        { policy: ALWAYS, confirmation_timeout_seconds: 0 },
        ['body', 'confirmation_timeout_seconds'],
      ],
      [
        'confirmation_policy',
        { policy: ALWAYS, on_confirmation_timeout: 'explode' },
        ['body', 'on_confirmation_timeout'],
      ],
      ['security_analyzer', {}, ['body', 'security_analyzer']],
      ['security_analyzer', { security_analyzer: { kind: 'GraySwanAnalyzer' } }, ['body', 'security_analyzer']],
    ];
    for (const [route, body, loc] of bad) {
      const reply = await server.api<{ detail: { loc: (string | number)[] }[] }>(
        'POST',
        `/api/conversations/${created.id}/${route}`,
        body,
      );
      expect(reply.status, `${route} ${JSON.stringify(body)}: ${reply.text}`).toBe(422);
      expect(
        reply.body.detail.map((d) => d.loc.slice(0, loc.length)),
        reply.text,
      ).toContainEqual(loc);
    }
    // A bad start request is a 422 too.
    const start = await server.api('POST', '/api/conversations', {
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: server.workspace },
      security_analyzer: { kind: 'InvariantAnalyzer' },
    });
    expect(start.status).toBe(422);
  });
});

describe('the confirmation deadline across a restart (re-armed from the logged time it started waiting)', () => {
  async function waitingConversation(seconds: number) {
    const llm = await startLlmReplay({
      script: { turns: [terminal('echo x > x.txt'), finish('Stopped.')] },
    });
    onTestFinished(() => llm.close());
    const stack = await restartableServer();
    await stack.start();
    const created = await stack.server.startConversation(llm, {
      message: 'Write x.txt.',
      tools: [{ name: 'terminal' }],
      extra: { confirmation_policy: ALWAYS, confirmation_timeout_seconds: seconds },
    });
    const info = await stack.server.waitForStatus(created.id, 'waiting_for_confirmation');
    const waitingAt = Date.parse(
      withoutStats(await stack.server.allEvents(info.id)).find((e) => e.value === 'waiting_for_confirmation')
        ?.timestamp as string,
    );
    await stack.stop();
    return { stack, id: info.id, waitingAt };
  }

  it('a deadline that passed while the server was down is applied at startup', async () => {
    const { stack, id, waitingAt } = await waitingConversation(0.6);
    await sleep(Math.max(0, waitingAt + 900 - Date.now()));
    await stack.start();
    const startedAt = Date.now();
    await until(stack.server, id, 'finished');
    const events = withoutStats(await stack.server.allEvents(id));
    const [rejection] = ofKind(events, 'UserRejectObservation');
    expect(String(rejection?.rejection_reason)).toMatch(/confirmation deadline/);
    expect(Date.parse(rejection?.timestamp as string)).toBeGreaterThanOrEqual(startedAt - 5);
    expect(existsSync(join(stack.server.workspace, 'x.txt'))).toBe(false);
  });

  it('a deadline still running at restart fires after the time that was left, not a full new period', async () => {
    const { stack, id, waitingAt } = await waitingConversation(2.5);
    await stack.start();
    expect((await stack.server.conversation(id)).execution_status).toBe('waiting_for_confirmation');
    await until(stack.server, id, 'finished');
    const [rejection] = ofKind(await stack.server.allEvents(id), 'UserRejectObservation');
    const waited = Date.parse(rejection?.timestamp as string) - waitingAt;
    expect(waited).toBeGreaterThanOrEqual(2450);
    expect(waited).toBeLessThan(4500);
  });
});
