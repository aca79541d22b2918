import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Script, ScriptValidationError, scriptErrors, startLlmReplay, validateScript } from '../src/index.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-llm-replay-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('script validation', () => {
  it('accepts a script using every field', () => {
    const script: Script = {
      model: 'm',
      repeat_last: true,
      comment: 'all fields',
      turns: [
        {
          content: 'x',
          tool_calls: [
            { name: 't', arguments: { a: 1 }, id: 'call_1' },
            { name: 'u', arguments: '{bad' },
          ],
          reasoning: 'r',
          reasoning_signature: 's',
          redacted_reasoning: 'd',
          when: { last_user_message_contains: 'a', last_tool_result_contains: 'b' },
          times: 2,
          delay_ms: 0,
          stream_delay_ms: 0,
          usage: { prompt_tokens: 1, completion_tokens: 2, cached_tokens: 0, reasoning_tokens: 0 },
          token_ids: { prompt: [1], response: [2] },
          finish_reason: 'length',
          comment: 'c',
        },
        { content: null, error: { status: 429, body: { any: 'thing' }, times: 2, headers: { 'retry-after': '1' } } },
        { hang: true },
        { malformed: true },
        { malformed: '{"x":' },
      ],
    };
    expect(scriptErrors(script)).toEqual([]);
    expect(validateScript(script)).toBe(script);
  });

  it('names the bad field with its path', () => {
    const errors = scriptErrors({
      turns: [
        { content: 'ok' },
        { content: 'ok' },
        { tool_calls: [{ arguments: { command: 'ls' } }, { name: 3, arguments: 7 }] },
      ],
    });
    expect(errors).toEqual([
      'turns[2].tool_calls[0].name: required',
      'turns[2].tool_calls[1].name: must be a string, got number',
      'turns[2].tool_calls[1].arguments: must be an object or a string, got number',
    ]);
  });

  it('rejects unknown fields, wrong types and out-of-range numbers', () => {
    expect(
      scriptErrors({
        turns: [
          {
            contents: 'typo',
            content: 5,
            error: { status: 200, times: 0 },
            delay_ms: -1,
            when: { last_user_message: 'x' },
            finish_reason: 'done',
            token_ids: { prompt: [1.5] },
          },
        ],
        repeat_last: 'yes',
      }),
    ).toEqual([
      'turns[0].contents: unknown field',
      'turns[0].content: must be a string or null',
      'turns[0].error.status: must be an integer from 400 to 599, got 200',
      'turns[0].error.times: must be an integer >= 1, got 0',
      'turns[0].delay_ms: must be an integer >= 0, got -1',
      'turns[0].when.last_user_message: unknown field',
      'turns[0].finish_reason: must be one of "stop", "tool_calls", "length"',
      'turns[0].token_ids.prompt[0]: must be an integer >= 0, got 1.5',
      'repeat_last: must be a boolean, got string',
    ]);
  });

  it('requires turns and an object', () => {
    expect(scriptErrors({})).toEqual(['turns: required']);
    expect(scriptErrors({ turns: {} })).toEqual(['turns: must be an array, got object']);
    expect(scriptErrors([])).toEqual(['(script): must be an object with a "turns" array, got array']);
  });

  it('rejects contradictory turns', () => {
    expect(scriptErrors({ turns: [{ hang: true, error: { status: 500 } }] })).toEqual([
      'turns[0].hang: cannot be combined with error',
    ]);
    expect(scriptErrors({ turns: [{ times: 2, error: { status: 500, times: 3 } }] })).toEqual([
      'turns[0].times: conflicts with error.times (give one of them)',
    ]);
  });

  it('throws a ScriptValidationError whose message lists every problem', () => {
    expect(() => validateScript({ turns: [{ tool_calls: [{}] }] })).toThrow(ScriptValidationError);
    expect(() => validateScript({ turns: [{ tool_calls: [{}] }] })).toThrow(
      /turns\[0\]\.tool_calls\[0\]\.name: required/,
    );
  });

  it('startLlmReplay rejects an invalid script, and reads a script file by path', async () => {
    await expect(startLlmReplay({ script: { turns: [{ delay_ms: 'soon' }] } as unknown as Script })).rejects.toThrow(
      'turns[0].delay_ms: must be an integer >= 0, got "soon"',
    );
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"turns": [');
    await expect(startLlmReplay({ script: bad })).rejects.toThrow(/bad\.json[\s\S]*invalid JSON/);

    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify({ turns: [{ content: 'from file' }] }));
    const server = await startLlmReplay({ script: good });
    try {
      const res = await fetch(`${server.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      });
      const body = (await res.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0]?.message.content).toBe('from file');
    } finally {
      await server.close();
    }
  });
});
