import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestUser, describeApi } from '../api/harness.ts';
import { agentOfConversation, eventsUntil, readyStart } from '../conversations/support.ts';

const TASK = {
  git_provider: 'github',
  task_type: 'FAILING_CHECKS',
  repo: 'acme/widgets',
  issue_number: 12,
  title: 'CI',
};

let llm: LlmReplay;
beforeAll(async () => {
  llm = await startLlmReplay({ script: { turns: [{ content: 'On it.' }], repeat_last: true } });
});
afterAll(() => llm?.close());

/** The start fields of OpenHands' releases: each taken, or refused with a 422 saying it is not supported. */
describeApi('start request fields of OpenHands', (api) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await api().user({ llm_model: 'test-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-start-fields' });
  });

  it('refuses what Bosun does not do with a 422 that says so, before any start', async () => {
    const cases: [object, (string | number)[], RegExp][] = [
      [{ agent_type: 'plan' }, ['body', 'agent_type'], /not supported/],
      [{ agent_type: 'other' }, ['body', 'agent_type'], /./],
      [{ parent_conversation_id: crypto.randomUUID() }, ['body', 'parent_conversation_id'], /not supported/],
      [{ processors: [{ kind: 'GithubV1CallbackProcessor' }] }, ['body', 'processors', 0, 'kind'], /not supported/],
      [{ trigger: 'sometimes' }, ['body', 'trigger'], /./],
      [{ pr_number: [0] }, ['body', 'pr_number', 0], /./],
      [{ public: 'yes' }, ['body', 'public'], /./],
      [
        { suggested_task: { ...TASK, task_type: 'OPEN_PR' } },
        ['body', 'suggested_task', 'task_type'],
        /initial_message/,
      ],
      [
        { suggested_task: { ...TASK, git_provider: 'forgejo' } },
        ['body', 'suggested_task', 'git_provider'],
        /not supported/,
      ],
      [
        { suggested_task: TASK, initial_message: { content: [{ type: 'text', text: 'hi' }] } },
        ['body', 'suggested_task'],
        /initial_message/,
      ],
    ];
    for (const [body, loc, msg] of cases) {
      const answer = await api().call('/api/v1/app-conversations', { method: 'POST', as: user, body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.detail[0].loc, JSON.stringify(body)).toEqual(loc);
      expect(answer.body.detail[0].msg, JSON.stringify(body)).toMatch(msg);
    }
    expect(await api().repositories.startTasks.count(user.id, {})).toBe(0);
  });

  it('takes a suggested task as the first message, and records trigger, pull requests and sharing', async () => {
    const task = await readyStart(api(), user, {
      agent_type: 'default',
      suggested_task: TASK,
      trigger: 'suggested_task',
      pr_number: [12],
      public: true,
      processors: [{ kind: 'SetTitleCallbackProcessor' }],
    });
    const text = task.request.initial_message?.content[0];
    expect(text).toMatchObject({
      type: 'text',
      text: expect.stringContaining('pull request #12 in repository acme/widgets'),
    });
    expect(JSON.stringify(text)).toContain('GITHUB_TOKEN');
    expect(task.request).toMatchObject({
      trigger: 'suggested_task',
      pr_number: [12],
      public: true,
      suggested_task: TASK,
    });
    const id = task.app_conversation_id as string;
    const [conversation] = (await api().call(`/api/v1/app-conversations?ids=${id}`, { as: user })).body;
    expect(conversation).toMatchObject({ trigger: 'suggested_task', pr_number: [12], public: true });
    const legacy = await api().call(`/api/conversations/${id}`, { as: user });
    expect(legacy.body).toMatchObject({ trigger: 'suggested_task', pr_number: [12], public: true });
    const shared = await api().call(`/api/shared-conversations?ids=${id}`);
    expect(shared.body[0]).toMatchObject({ id });
    const agent = await agentOfConversation(api(), user, id);
    const events = await eventsUntil(agent, id, (event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(JSON.stringify(events.at(-1))).toContain('failing CI checks');
  });
});
