import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgentServer } from '@bosun/agent-server';
import { AgentServerClient } from '@bosun/client';
import { startLlmReplay } from '@bosun/llm-replay';
import type { StoredEvent } from '@bosun/protocol';
import type { Command } from '../command.ts';
import { renderEvent } from '../demo/render.ts';
import { demoScript } from '../demo/script.ts';

const USAGE = `Usage: bosun demo

Runs one conversation end to end without a real model: a scripted stand-in
(llm-replay) plays the LLM, while the agent server, the run loop and the tools
(terminal, file editor) are the real ones, working in a temporary directory.`;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Watch the agent work, with a scripted model (no LLM needed)',
  usage: USAGE,
  async run(_args, io) {
    const root = await mkdtemp(join(tmpdir(), 'bosun-demo-'));
    const workspace = join(root, 'workspace');
    const llm = await startLlmReplay({ script: demoScript(workspace) });
    const server = await buildAgentServer({ dataDir: join(root, 'data') });
    try {
      const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
      io.stdout.write(
        [
          '',
          '  DEMO: the model below is SCRIPTED (llm-replay), not a real LLM.',
          '  The agent server, the run loop and the tools are real; they work in',
          `  ${workspace}`,
          '',
          '',
        ].join('\n'),
      );
      const client = new AgentServerClient({ baseUrl: url });
      const { id } = await client.post('/api/conversations', {
        body: {
          agent: {
            llm: { model: 'bosun-demo-scripted-model', base_url: llm.baseUrl, api_key: 'demo', num_retries: 0 },
            tools: [{ name: 'terminal' }, { name: 'file_editor' }],
          },
          workspace: { working_dir: workspace },
        },
      });
      const finished = follow(client.followEvents(id, { fromStart: true }), io.stdout);
      await client.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: id },
        body: {
          content: [{ type: 'text', text: 'Write a greeting shell script and try it.' }],
          run: true,
        },
      });
      const status = await finished;
      io.stdout.write(
        `\n  The conversation ended ${status}; its workspace is removed. To use a real model, start\n  'bosun agent-server' (or 'bosun serve') and give it your model (see the README).\n\n`,
      );
      return status === 'finished' ? 0 : 1;
    } finally {
      await server.close();
      await llm.close();
      await rm(root, { recursive: true, force: true });
    }
  },
};

/** Prints events as they arrive; resolves with the final status. */
async function follow(events: AsyncGenerator<StoredEvent>, out: NodeJS.WritableStream): Promise<string> {
  for await (const event of events) {
    const line = renderEvent(event);
    if (line) out.write(`${line}\n`);
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status') {
      const status = String(event.value);
      if (FINAL_STATUSES.includes(status)) return status;
    }
  }
  return 'disconnected';
}

const FINAL_STATUSES = ['finished', 'error', 'stuck', 'paused'];
