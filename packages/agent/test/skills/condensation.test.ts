import { SummarizingCondenser, buildMessages, condenserSettings, llmView } from '@bosun/agent';
import { type Event, parseEvent } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import {
  MemorySession,
  ScriptedProvider,
  agentWith,
  call,
  condensation,
  ids,
  system,
  user,
} from '../condenser/fixtures.ts';

/** An `invoke_skill` call and its result, as the run loop stores them. */
function invoke(callId: string, name: string, body = `Instructions of ${name}.`, isError = false): Event[] {
  const text = isError ? `There is no skill '${name}'.` : `<skill_content name="${name}">\n${body}\n</skill_content>`;
  return [
    parseEvent({
      kind: 'ActionEvent',
      id: `${callId}-action`,
      thought: [],
      action: { kind: 'MCPToolAction', data: { name } },
      tool_name: 'invoke_skill',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'invoke_skill', arguments: JSON.stringify({ name }), origin: 'completion' },
      llm_response_id: `resp-${callId}`,
    }),
    parseEvent({
      kind: 'ObservationEvent',
      id: `${callId}-obs`,
      tool_name: 'invoke_skill',
      tool_call_id: callId,
      action_id: `${callId}-action`,
      observation: {
        kind: 'MCPToolObservation',
        tool_name: 'invoke_skill',
        content: [{ type: 'text', text }],
        is_error: isError,
      },
    }),
  ];
}

/** A user message that triggered `name` (its `<EXTRA_INFO>`), plus hook context that is not skill content. */
function triggeredMessage(id: string, name: string): Event {
  return parseEvent({
    kind: 'MessageEvent',
    id,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: `Please use ${name}.` }] },
    activated_skills: [name],
    extended_content: [
      { type: 'text', text: 'Hook context: be careful.' },
      {
        type: 'text',
        text: `<EXTRA_INFO>\nkeyword match\n<skill_content name="${name}">\nTriggered ${name}.\n</skill_content>\n</EXTRA_INFO>`,
      },
    ],
  });
}

const summaryOf = (events: readonly Event[]) =>
  (llmView(events).events.find((e) => e.kind === 'CondensationSummaryEvent') as { summary: string } | undefined)
    ?.summary;

describe('skill content survives condensation', () => {
  it('an invoke_skill result that is forgotten is re-attached, in full, to the summary', () => {
    const log = [system(), user('Go.', 'u'), ...invoke('s1', 'pdf-tools'), ...call('c2'), ...call('c3')];
    const forgotten = ['s1-action', 's1-obs', 'c2-action', 'c2-obs'];
    const view = llmView([...log, condensation('k1', forgotten, 'Loaded pdf-tools, ran c2.', 2)]);
    expect(ids(view.events)).toEqual(['sys', 'u', 'k1-summary', 'c3-action', 'c3-obs']);
    expect(summaryOf([...log, condensation('k1', forgotten, 'Loaded pdf-tools, ran c2.', 2)])).toBe(
      [
        'Loaded pdf-tools, ran c2.',
        '',
        '<retained_skills>',
        'Skills loaded earlier in this conversation (kept in full through the condensation):',
        '<skill_content name="pdf-tools">\nInstructions of pdf-tools.\n</skill_content>',
        '</retained_skills>',
      ].join('\n'),
    );
  });

  it('is carried on when a later condensation forgets that summary; a skill loaded twice is kept once', () => {
    const log = [
      system(),
      user('Go.', 'u'),
      ...invoke('s1', 'pdf-tools', 'Old text.'),
      ...call('c2'),
      condensation('k1', ['s1-action', 's1-obs', 'c2-action', 'c2-obs'], 'First summary.', 2),
      ...invoke('s3', 'pdf-tools', 'New text.'),
      ...invoke('s4', 'review'),
      ...call('c5'),
      condensation('k2', ['k1-summary', 's3-action', 's3-obs', 's4-action', 's4-obs'], 'Second summary.', 2),
    ];
    const summary = summaryOf(log) as string;
    expect(summary.startsWith('Second summary.')).toBe(true);
    expect(summary).not.toContain('Old text.');
    expect(summary).toContain('<skill_content name="pdf-tools">\nNew text.');
    expect(summary).toContain('<skill_content name="review">');
    expect(summary.match(/<retained_skills>/g)).toHaveLength(1);
  });

  it("keeps a triggered skill of a forgotten user message (not the message's other context), and no failed invocation", () => {
    const log = [
      system(),
      user('Go.', 'u'),
      triggeredMessage('m1', 'kubernetes'),
      ...invoke('s2', 'nope', '', true),
      ...call('c3'),
    ];
    const summary = summaryOf([...log, condensation('k1', ['m1', 's2-action', 's2-obs'], 'S.', 2)]) as string;
    expect(summary).toContain('<EXTRA_INFO>\nkeyword match\n<skill_content name="kubernetes">');
    expect(summary).not.toContain('Hook context');
    expect(summary).not.toContain('nope');
  });

  it('adds a summary holding the skills when the condensation had none', () => {
    const log = [system(), user('Go.', 'u'), ...invoke('s1', 'pdf-tools'), ...call('c2')];
    const view = llmView([...log, condensation('k1', ['s1-action', 's1-obs'])]);
    expect(ids(view.events)).toEqual(['sys', 'k1-summary', 'u', 'c2-action', 'c2-obs']);
    expect(summaryOf([...log, condensation('k1', ['s1-action', 's1-obs'])])).toMatch(/^<retained_skills>/);
  });

  it('the LLM still reads a skill loaded before the SummarizingCondenser forgot it', async () => {
    const session = new MemorySession(agentWith({ kind: 'LLMSummarizingCondenser', max_size: 8, keep_first: 2 }), [
      system(),
      user('Build it.', 'u'),
      ...invoke('s1', 'pdf-tools', 'Use pdftotext -layout.'),
      ...call('c2'),
      ...call('c3'),
      ...call('c4'),
      ...call('c5'),
    ]);
    const settings = condenserSettings(session.agent);
    if (!settings) throw new Error('no condenser');
    const provider = new ScriptedProvider(['They loaded a skill and ran four calls.']);
    const history = await new SummarizingCondenser(settings, provider).condenseIfNeeded(session);
    const forgotten = (history.find((e) => e.kind === 'Condensation') as { forgotten_event_ids: string[] })
      .forgotten_event_ids;
    expect(forgotten).toContain('s1-obs');
    const text = JSON.stringify(buildMessages(history));
    expect(text).toContain('They loaded a skill and ran four calls.');
    expect(text).toContain('Use pdftotext -layout.');
  });
});
