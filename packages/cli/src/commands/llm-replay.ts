import { parseArgs } from 'node:util';
import { startLlmReplay } from '@bosun/llm-replay';
import type { Command } from '../command.ts';
import { untilStopped } from '../until-stopped.ts';

const USAGE = `Usage: bosun llm-replay --script FILE [--port 0] [--host 127.0.0.1] [--quiet]

Starts the scripted LLM server: it answers OpenAI Chat Completions (/v1/chat/completions),
OpenAI Responses (/v1/responses) and Anthropic Messages (/v1/messages) requests with the
turns of the script FILE (see packages/llm-replay/README.md), streaming or not.
Prints its URL (http://HOST:PORT; OpenAI clients use URL/v1) as the first line of standard
output, logs each request to standard error, and runs until SIGINT or SIGTERM.

Options:
  --script FILE  the JSON script (required)
  --port N       port to listen on; 0 picks a free one (default 0)
  --host H       address to listen on (default 127.0.0.1)
  --quiet        do not log requests`;

export const llmReplayCommand: Command = {
  name: 'llm-replay',
  summary: 'Start the scripted LLM server (OpenAI chat + Responses, Anthropic Messages)',
  usage: USAGE,
  async run(args, io) {
    let values: { script?: string; port?: string; host?: string; quiet?: boolean };
    try {
      values = parseArgs({
        args,
        options: {
          script: { type: 'string' },
          port: { type: 'string' },
          host: { type: 'string' },
          quiet: { type: 'boolean' },
        },
      }).values;
    } catch (error) {
      io.stderr.write(`bosun llm-replay: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (!values.script) {
      io.stderr.write(`bosun llm-replay: --script is required\n\n${USAGE}\n`);
      return 2;
    }
    const port = Number(values.port ?? '0');
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      io.stderr.write(`bosun llm-replay: --port must be an integer from 0 to 65535, got '${values.port}'\n`);
      return 2;
    }
    let server: Awaited<ReturnType<typeof startLlmReplay>>;
    try {
      server = await startLlmReplay({
        script: values.script,
        port,
        host: values.host ?? '127.0.0.1',
        onRequest: values.quiet
          ? undefined
          : (request) => {
              const outcome = request.turn_index !== null ? `turn ${request.turn_index}` : (request.error ?? '-');
              io.stderr.write(`${request.method} ${request.path} -> ${outcome}\n`);
            },
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      io.stderr.write(
        `bosun llm-replay: ${code === 'ENOENT' ? `cannot read ${values.script}` : (error as Error).message}\n`,
      );
      return code === 'ENOENT' ? 2 : 1;
    }
    io.stdout.write(`${server.url}\n`);
    await untilStopped();
    await server.close();
    return 0;
  },
};
