/**
 * Validation throughput of the event model: a realistic mix of ~1 KB events (tool calls, observations,
 * messages, state updates), each parsed with `parseEvent` (validation plus defaults).
 * Run: npm run bench:protocol
 */
import { parseEvent } from '@bosun/protocol';

const text = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);
let seq = 0;
const id = () => `0193f6c2-7a1b-7c3d-9e4f-${String(seq++).padStart(12, '0')}`;
const ts = () => new Date(1_700_000_000_000 + seq * 1000).toISOString();

function actionEvent() {
  const command = `grep -rn "${text(40)}" src/ | head -50`;
  return {
    id: id(),
    timestamp: ts(),
    source: 'agent',
    kind: 'ActionEvent',
    thought: [{ type: 'text', text: text(300) }],
    reasoning_content: text(200),
    action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
    tool_name: 'terminal',
    tool_call_id: `call_${seq}`,
    tool_call: { id: `call_${seq}`, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
    llm_response_id: `chatcmpl-${seq}`,
    security_risk: 'LOW',
    summary: 'search the sources for a phrase',
  };
}

function observationEvent() {
  return {
    id: id(),
    timestamp: ts(),
    source: 'environment',
    kind: 'ObservationEvent',
    tool_name: 'terminal',
    tool_call_id: `call_${seq}`,
    action_id: id(),
    observation: {
      kind: 'TerminalObservation',
      content: [{ type: 'text', text: text(600) }],
      command: 'ls -la',
      exit_code: 0,
      metadata: { exit_code: 0, pid: 42, working_dir: '/workspace', prefix: '', suffix: '' },
    },
  };
}

function messageEvent() {
  return {
    id: id(),
    timestamp: ts(),
    source: 'user',
    kind: 'MessageEvent',
    llm_message: { role: 'user', content: [{ type: 'text', text: text(800) }] },
    activated_skills: ['github'],
    extended_content: [{ type: 'text', text: text(100) }],
  };
}

function fileEditEvent() {
  return {
    id: id(),
    timestamp: ts(),
    kind: 'ActionEvent',
    thought: [],
    action: {
      kind: 'FileEditorAction',
      command: 'str_replace',
      path: '/workspace/src/app.ts',
      old_str: text(200),
      new_str: text(220),
    },
    tool_name: 'file_editor',
    tool_call_id: `toolu_${seq}`,
    tool_call: {
      id: `toolu_${seq}`,
      name: 'file_editor',
      arguments: '{"command":"str_replace"}',
      origin: 'completion',
    },
    llm_response_id: `msg_${seq}`,
    thinking_blocks: [{ type: 'thinking', thinking: text(150), signature: 'sig' }],
  };
}

function stateUpdate() {
  return { id: id(), timestamp: ts(), kind: 'ConversationStateUpdateEvent', key: 'execution_status', value: 'running' };
}

const makers = [actionEvent, observationEvent, actionEvent, observationEvent, messageEvent, fileEditEvent, stateUpdate];
const wire = Array.from({ length: 20_000 }, (_, i) => JSON.stringify((makers[i % makers.length] as () => object)()));
const averageBytes = wire.reduce((sum, line) => sum + Buffer.byteLength(line), 0) / wire.length;

/** Runs `round` several times; each returns how many events it handled in how many seconds. */
function measure(label: string, rounds: number, round: () => { count: number; seconds: number }): void {
  let best = 0;
  for (let i = 0; i < rounds; i++) {
    const { count, seconds } = round();
    best = Math.max(best, count / seconds);
  }
  console.log(`${label}: ${Math.round(best).toLocaleString('en-US')} events/s (best of ${rounds})`);
}

function timed(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

console.log(`${wire.length} events, ${Math.round(averageBytes)} bytes on average`);
parseEvent(JSON.parse(wire[0] as string)); // compile the validators outside the measurement
measure('parseEvent (validate + defaults)', 7, () => {
  const values = wire.map((line) => JSON.parse(line));
  return {
    count: values.length,
    seconds: timed(() => {
      for (const value of values) parseEvent(value);
    }),
  };
});
measure('JSON.parse + parseEvent', 7, () => ({
  count: wire.length,
  seconds: timed(() => {
    for (const line of wire) parseEvent(JSON.parse(line));
  }),
}));
