import type { Event } from '@bosun/protocol';

/** One line (or a few) per event, for people watching a conversation in a terminal. */
export function renderEvent(event: Event): string | undefined {
  const indent = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .slice(0, 12)
      .map((line) => `      ${line}`)
      .join('\n');
  switch (event.kind) {
    case 'MessageEvent': {
      const text = event.llm_message.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join(' ');
      return `  ${event.source === 'user' ? 'user ' : 'agent'}  ${text}`;
    }
    case 'ActionEvent': {
      const thought = event.thought.map((block) => block.text).join(' ');
      const what = event.summary ?? event.tool_name;
      return `${thought ? `  agent  ${thought}\n` : ''}  ->     ${event.tool_name}: ${what}`;
    }
    case 'ObservationEvent': {
      const text = event.observation.content
        .map((block) => (block.type === 'text' ? block.text : '[image]'))
        .join('\n');
      return indent(text);
    }
    case 'AgentErrorEvent':
      return `  !      ${event.error}`;
    case 'ConversationErrorEvent':
      return `  !!     ${event.code}: ${event.detail}`;
    case 'ConversationStateUpdateEvent':
      return event.key === 'execution_status' ? `  --     ${String(event.value)}` : undefined;
    default:
      return undefined;
  }
}
