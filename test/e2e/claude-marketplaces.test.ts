import { join } from 'node:path';
import { startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TestRepository } from '../../packages/sources/test/git/support.ts';
import { OFFICIAL_MARKETPLACE, SKILLS_MARKETPLACE } from '../../packages/sources/test/marketplaces/fixtures.ts';
import {
  type ActionEventBody,
  type EventBody,
  actionsOf,
  hookRejection,
  ofKind,
  restartableServer,
} from './support.ts';
import { finish, terminal } from './turns.ts';

type Problem = { severity: string; message: string };

describe('marketplaces shaped like anthropics/skills and anthropics/claude-plugins-official', () => {
  it('load the listed skills only, an LSP-only plugin with a warning, and a hook that guards `git commit` only', async () => {
    const stack = await restartableServer();
    const root = stack.root;
    const remotes = join(root, 'remotes');
    const skills = await TestRepository.create(remotes, 'anthropics/skills');
    await skills.commit(SKILLS_MARKETPLACE);
    const official = await TestRepository.create(remotes, 'anthropics/claude-plugins-official');
    await official.commit(OFFICIAL_MARKETPLACE);
    const llm = await startLlmReplay({
      script: {
        turns: [terminal('echo listed > notes.txt'), terminal('git add . && git commit -m wip'), finish('Done.')],
      },
    });
    onTestFinished(() => llm.close());
    await stack.start();
    const { server } = stack;

    const created = await server.startConversation(llm, {
      message: 'Commit the notes.',
      tools: [{ name: 'terminal' }],
      agent: {
        agent_context: {
          load_project_skills: false,
          registered_marketplaces: [
            { name: 'anthropic-agent-skills', source: skills.url, auto_load: true },
            { name: 'claude-plugins-official', source: official.url, auto_load: true },
          ],
        },
      },
    });
    const resolved = created.resolved_plugins as { name: string; problems: Problem[] }[];
    expect(resolved.map((p) => [p.name, p.problems.map((x) => x.severity)])).toEqual([
      ['document-skills', []],
      ['example-skills', []],
      ['claude-api', []],
      ['typescript-lsp', ['warning']],
      ['commit-guard', []],
    ]);
    const id = created.id;
    await server.waitForStatus(id, 'finished');

    const events = await server.allEvents(id);
    expect(ofKind(events, 'ConversationErrorEvent')).toEqual([]);
    const state = ofKind<EventBody & { key: string; value: { skills: { name: string }[] } }>(
      events,
      'ConversationStateUpdateEvent',
    ).find((event) => event.key === 'skills');
    expect(state?.value.skills.map((s) => s.name).sort()).toEqual(
      [
        'claude-api:claude-api',
        'example-skills:mcp-builder',
        'document-skills:pdf',
        'example-skills:skill-creator',
        'example-skills:webapp-testing',
        'document-skills:xlsx',
      ].sort(),
    );
    // The commit guard ran for the commit only: the first command ran, the second was rejected by the hook.
    const actions = actionsOf(events);
    expect(ofKind(events, 'UserRejectObservation')).toEqual([
      hookRejection(actions[1], 'commit-guard: run the tests first'),
    ]);
    expect(ofKind(events, 'ObservationEvent').map((e) => (e as ActionEventBody).tool_name)).toEqual([
      'terminal',
      'finish',
    ]);
  });
});
