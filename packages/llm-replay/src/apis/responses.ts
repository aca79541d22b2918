import { type Answer, type Body, asRecord, contentText, lastPicked } from '../answer.ts';
import { ids, splitFixed, splitWords, unixSeconds } from '../ids.ts';
import { type ApiAdapter, type SseEvent, jsonEvent } from './adapter.ts';

type Item = Record<string, unknown>;

function lastUserText(body: Body): string | undefined {
  if (typeof body.input === 'string') return body.input;
  const isUserMessage = (item: Item) => item.role === 'user' && (item.type === undefined || item.type === 'message');
  return lastPicked(body.input, (item) => (isUserMessage(item) ? contentText(item.content) : undefined));
}

function lastToolResultText(body: Body): string | undefined {
  return lastPicked(body.input, (item) =>
    item.type === 'function_call_output' ? (contentText(item.output) ?? '') : undefined,
  );
}

function usage(answer: Answer) {
  const { prompt, completion, cached, reasoning } = answer.usage;
  return {
    input_tokens: prompt,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: completion,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: prompt + completion,
  };
}

/** The output items of a finished response, in the order the real API emits them. */
function outputItems(answer: Answer): Item[] {
  const items: Item[] = [];
  if (answer.reasoning !== undefined) {
    items.push({
      id: ids.responseReasoning(),
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: answer.reasoning }],
      encrypted_content: answer.signature,
    });
  }
  if (answer.redactedReasoning !== undefined) {
    items.push({
      id: ids.responseReasoning(),
      type: 'reasoning',
      summary: [],
      encrypted_content: answer.redactedReasoning,
    });
  }
  if (answer.content !== null) {
    items.push({
      id: ids.responseMessage(),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.content, annotations: [], logprobs: [] }],
    });
  }
  for (const call of answer.toolCalls) {
    items.push({
      id: ids.responseFunctionCall(),
      type: 'function_call',
      status: 'completed',
      arguments: call.argumentsText,
      call_id: call.id ?? ids.openaiCall(),
      name: call.name,
    });
  }
  return items;
}

function responseObject(
  answer: Answer,
  body: Body,
  id: string,
  createdAt: number,
  final: { output: Item[]; done: boolean },
) {
  const incomplete = answer.finishReason === 'length';
  const reasoning = asRecord(body.reasoning);
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: !final.done ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    background: false,
    error: null,
    incomplete_details: final.done && incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: answer.model,
    output: final.output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: final.done ? usage(answer) : null,
    user: null,
    metadata: body.metadata ?? {},
  };
}

/** The events that stream one output item: added, its deltas, done. */
function itemEvents(item: Item, outputIndex: number, emit: (payload: Record<string, unknown>) => void): void {
  const itemId = item.id;
  const at = { item_id: itemId, output_index: outputIndex };
  if (item.type === 'reasoning') {
    emit({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { id: itemId, type: 'reasoning', summary: [] },
    });
    (item.summary as { text: string }[]).forEach((part, summaryIndex) => {
      const where = { ...at, summary_index: summaryIndex };
      emit({ type: 'response.reasoning_summary_part.added', ...where, part: { type: 'summary_text', text: '' } });
      for (const delta of splitWords(part.text))
        emit({ type: 'response.reasoning_summary_text.delta', ...where, delta });
      emit({ type: 'response.reasoning_summary_text.done', ...where, text: part.text });
      emit({ type: 'response.reasoning_summary_part.done', ...where, part: { type: 'summary_text', text: part.text } });
    });
  } else if (item.type === 'message') {
    emit({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    });
    const text = (item.content as { text: string }[])[0]?.text ?? '';
    const where = { ...at, content_index: 0 };
    emit({
      type: 'response.content_part.added',
      ...where,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    });
    for (const delta of splitWords(text)) emit({ type: 'response.output_text.delta', ...where, delta, logprobs: [] });
    emit({ type: 'response.output_text.done', ...where, text, logprobs: [] });
    emit({
      type: 'response.content_part.done',
      ...where,
      part: { type: 'output_text', text, annotations: [], logprobs: [] },
    });
  } else {
    const args = String(item.arguments);
    emit({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    for (const delta of splitFixed(args)) emit({ type: 'response.function_call_arguments.delta', ...at, delta });
    emit({ type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: args });
  }
  emit({ type: 'response.output_item.done', output_index: outputIndex, item });
}

export const responses: ApiAdapter = {
  name: 'responses',
  lastUserText,
  lastToolResultText,
  promptText: (body) => JSON.stringify([body.instructions ?? '', body.input ?? '']),
  isStream: (body) => body.stream === true,

  render(answer, body) {
    return responseObject(answer, body, ids.response(), unixSeconds(), { output: outputItems(answer), done: true });
  },

  renderStream(answer, body) {
    const id = ids.response();
    const createdAt = unixSeconds();
    const output = outputItems(answer);
    const events: SseEvent[] = [];
    let sequence = 0;
    const emit = (payload: Record<string, unknown>) => {
      events.push(jsonEvent({ ...payload, sequence_number: sequence++ }));
    };
    const pending = responseObject(answer, body, id, createdAt, { output: [], done: false });
    emit({ type: 'response.created', response: pending });
    emit({ type: 'response.in_progress', response: pending });
    output.forEach((item, index) => {
      itemEvents(item, index, emit);
    });
    const final = responseObject(answer, body, id, createdAt, { output, done: true });
    emit({ type: answer.finishReason === 'length' ? 'response.incomplete' : 'response.completed', response: final });
    return events;
  },

  errorBody(status, message) {
    const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
    return { error: { message, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
  },

  malformed(stream) {
    return stream
      ? 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_llm_replay",\n\n'
      : '{"id":"resp_llm_replay","object":"response","output":[{"type":"message","content":[{"text":"trunc';
  },
};
