import { type Answer, type Body, asRecord, contentText, lastPicked } from '../answer.ts';
import { ids, splitFixed, splitWords, unixSeconds } from '../ids.ts';
import type { ApiAdapter, SseEvent } from './adapter.ts';

const FINGERPRINT = 'fp_llm_replay';

function lastWithRole(body: Body, roles: string[]): string | undefined {
  return lastPicked(body.messages, (message) =>
    roles.includes(message.role as string) ? contentText(message.content) : undefined,
  );
}

function usage(answer: Answer) {
  const { prompt, completion, cached, reasoning } = answer.usage;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function toolCallIds(answer: Answer): string[] {
  return answer.toolCalls.map((call) => call.id ?? ids.openaiCall());
}

function errorType(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

export const chatCompletions: ApiAdapter = {
  name: 'chat_completions',
  lastUserText: (body) => lastWithRole(body, ['user']),
  lastToolResultText: (body) => lastWithRole(body, ['tool', 'function']),
  promptText: (body) => JSON.stringify(body.messages ?? []),
  isStream: (body) => body.stream === true,

  render(answer) {
    const callIds = toolCallIds(answer);
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: answer.content,
      refusal: null,
      annotations: [],
    };
    if (answer.reasoning !== undefined) message.reasoning_content = answer.reasoning;
    if (answer.toolCalls.length > 0) {
      message.tool_calls = answer.toolCalls.map((call, i) => ({
        id: callIds[i],
        type: 'function',
        function: { name: call.name, arguments: call.argumentsText },
      }));
    }
    const choice: Record<string, unknown> = { index: 0, message, logprobs: null, finish_reason: answer.finishReason };
    if (answer.tokenIds?.response) choice.token_ids = answer.tokenIds.response;
    return {
      id: ids.chatCompletion(),
      object: 'chat.completion',
      created: unixSeconds(),
      model: answer.model,
      choices: [choice],
      usage: usage(answer),
      system_fingerprint: FINGERPRINT,
      ...(answer.tokenIds?.prompt ? { prompt_token_ids: answer.tokenIds.prompt } : {}),
    };
  },

  renderStream(answer, body) {
    const includeUsage = asRecord(body.stream_options).include_usage === true;
    const base = {
      id: ids.chatCompletion(),
      object: 'chat.completion.chunk',
      created: unixSeconds(),
      model: answer.model,
      system_fingerprint: FINGERPRINT,
    };
    const events: SseEvent[] = [];
    const chunk = (
      delta: Record<string, unknown>,
      finishReason: string | null = null,
      extra: { choice?: Record<string, unknown>; top?: Record<string, unknown> } = {},
    ) => {
      const choice = { index: 0, delta, logprobs: null, finish_reason: finishReason, ...extra.choice };
      const payload = { ...base, ...extra.top, choices: [choice], ...(includeUsage ? { usage: null } : {}) };
      events.push({ data: JSON.stringify(payload) });
    };
    const promptIds = answer.tokenIds?.prompt;
    chunk(
      { role: 'assistant', content: '', refusal: null },
      null,
      promptIds ? { top: { prompt_token_ids: promptIds } } : {},
    );
    for (const piece of splitWords(answer.reasoning ?? '')) chunk({ reasoning_content: piece });
    for (const piece of splitWords(answer.content ?? '')) chunk({ content: piece });
    const callIds = toolCallIds(answer);
    answer.toolCalls.forEach((call, index) => {
      chunk({
        tool_calls: [{ index, id: callIds[index], type: 'function', function: { name: call.name, arguments: '' } }],
      });
      for (const piece of splitFixed(call.argumentsText)) {
        chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    });
    const responseIds = answer.tokenIds?.response;
    chunk({}, answer.finishReason, responseIds ? { choice: { token_ids: responseIds } } : {});
    if (includeUsage) events.push({ data: JSON.stringify({ ...base, choices: [], usage: usage(answer) }) });
    events.push({ data: '[DONE]' });
    return events;
  },

  errorBody(status, message) {
    return { error: { message, ...errorType(status), param: null } };
  },

  malformed(stream) {
    return stream
      ? 'data: {"id":"chatcmpl-llm-replay","object":"chat.completion.chunk","choices":[{"delta":{"content":"tru\n\n'
      : '{"id":"chatcmpl-llm-replay","object":"chat.completion","choices":[{"message":{"content":"trunc';
  },
};
