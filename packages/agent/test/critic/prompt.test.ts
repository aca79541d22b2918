import { CONTEXT_EVENTS, CRITIC_PROMPT_START, criticPrompt } from '@bosun/agent';
import type { Event } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { assistant, call, condensation, system, user } from '../condenser/fixtures.ts';
import { actionDraft, messageDraft } from './support.ts';

const history: Event[] = [system(), user('Fix the failing test in src/app.ts.', 'u1'), ...call('c1')];

describe('criticPrompt', () => {
  it('an action: the task, the recent conversation, the call with its arguments, then the answer format', () => {
    const prompt = criticPrompt(
      { kind: 'actions', actions: [actionDraft('c2', 'terminal', { command: 'npm test' })] },
      history,
      null,
    );
    expect(prompt.startsWith(CRITIC_PROMPT_START)).toBe(true);
    expect(prompt).toContain('<TASK>\nuser: Fix the failing test in src/app.ts.\n</TASK>');
    expect(prompt).toContain('<EVENT kind=ActionEvent>\nassistant called think({"thought":"c1"})\n</EVENT>');
    expect(prompt).toContain('<EVENT kind=ObservationEvent>\nresult of think: result of c1\n</EVENT>');
    expect(prompt).toContain(
      '<AGENT ACTION>\nThe agent\'s latest step: a tool call:\n1. terminal({"command":"npm test"})\n</AGENT ACTION>',
    );
    // The system prompt is not context; the answer format comes last.
    expect(prompt).not.toContain('You are an agent.');
    expect(prompt.trimEnd().endsWith('0 that it is certainly wrong or harmful.')).toBe(true);
    expect(prompt).toContain('{"score": <number from 0 to 1>, "message": "<one or two sentences saying why>"}');
    expect(prompt).not.toContain('<INSTRUCTIONS>');
  });

  it('parallel calls: one step with the thought and every call in order, with invalid calls and risks noted', () => {
    const prompt = criticPrompt(
      {
        kind: 'actions',
        actions: [
          actionDraft(
            'c2',
            'terminal',
            { command: 'rm -rf build' },
            {
              thought: [{ type: 'text', text: 'Clean, then rebuild.', cache_prompt: false }],
              security_risk: 'MEDIUM',
            },
          ),
          actionDraft('c3', 'terminal', '{"command": ', { action: null }),
        ],
      },
      history,
      null,
    );
    expect(prompt).toContain(
      [
        '<AGENT ACTION>',
        'Thought: Clean, then rebuild.',
        "The agent's latest step: 2 tool calls of one response, run in this order:",
        '1. terminal({"command":"rm -rf build"}) [security risk MEDIUM]',
        '2. terminal({"command": ) [invalid call: it will not run]',
        '</AGENT ACTION>',
      ].join('\n'),
    );
  });

  it('a final answer, with the instructions before the answer format', () => {
    const prompt = criticPrompt(
      { kind: 'message', message: messageDraft('The test passes now.') },
      history,
      'Penalize answers that claim success without running the tests.',
    );
    expect(prompt).toContain('<AGENT FINAL ANSWER>\nThe test passes now.\n</AGENT FINAL ANSWER>');
    const instructions = prompt.indexOf(
      '<INSTRUCTIONS>\nPenalize answers that claim success without running the tests.\n</INSTRUCTIONS>',
    );
    expect(instructions).toBeGreaterThan(prompt.indexOf('<AGENT FINAL ANSWER>'));
    expect(prompt.indexOf('Answer with one JSON object')).toBeGreaterThan(instructions);
    expect(prompt).not.toContain('<AGENT ACTION>');
  });

  it(`reads only the last ${CONTEXT_EVENTS} events of the view, but always the task`, () => {
    const long: Event[] = [
      system(),
      user('The task.', 'u1'),
      ...Array.from({ length: 15 }, (_, i) => call(`k${i + 1}`)).flat(),
    ];
    const prompt = criticPrompt({ kind: 'message', message: messageDraft('Done.') }, long, null);
    expect(prompt).toContain('<TASK>\nuser: The task.\n</TASK>');
    expect(prompt).toContain(`(${31 - CONTEXT_EVENTS} earlier events not shown)`);
    expect(prompt.match(/<EVENT kind=/g)).toHaveLength(CONTEXT_EVENTS);
    expect(prompt).not.toContain('think({"thought":"k5"})');
    expect(prompt).toContain('think({"thought":"k6"})');
    expect(prompt).toContain('think({"thought":"k15"})');
  });

  it('reads the condensed view: forgotten events are replaced by their summary', () => {
    const condensed: Event[] = [
      ...history,
      ...call('c2'),
      condensation('cd1', ['c1-action', 'c1-obs'], 'SUMMARY: ran c1.', 2),
      assistant('Almost there.'),
    ];
    const prompt = criticPrompt({ kind: 'message', message: messageDraft('Done.') }, condensed, null);
    expect(prompt).not.toContain('"thought":"c1"');
    expect(prompt).toContain('summary of earlier events: SUMMARY: ran c1.');
    expect(prompt).toContain('think({"thought":"c2"})');
    expect(prompt).toContain('assistant: Almost there.');
  });

  it('elides very long arguments in the middle', () => {
    const prompt = criticPrompt(
      { kind: 'actions', actions: [actionDraft('c2', 'file_editor', { file_text: 'x'.repeat(20_000) })] },
      history,
      null,
    );
    expect(prompt).toMatch(/characters omitted/);
    expect(prompt.length).toBeLessThan(12_000);
  });
});
