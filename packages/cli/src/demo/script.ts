import type { Script } from '@bosun/llm-replay';

/** What the scripted model does in the demo: write a script, run it, improve it, run it again, finish. */
export function demoScript(workspace: string): Script {
  const file = `${workspace}/greet.sh`;
  return {
    model: 'bosun-demo-scripted-model',
    turns: [
      {
        content: "I'll write a small greeting script first.",
        tool_calls: [
          {
            name: 'file_editor',
            arguments: {
              command: 'create',
              path: file,
              file_text: '#!/bin/sh\necho "Hello from Bosun"\n',
              summary: 'create the greeting script',
            },
          },
        ],
      },
      {
        content: 'Now I run it.',
        tool_calls: [{ name: 'terminal', arguments: { command: `sh ${file}`, summary: 'run the script' } }],
      },
      {
        content: 'It works. Let me make it greet the user by name.',
        tool_calls: [
          {
            name: 'file_editor',
            arguments: {
              command: 'str_replace',
              path: file,
              old_str: 'echo "Hello from Bosun"',
              new_str: 'echo "Hello, ${1:-world}, from Bosun"',
              summary: 'greet by name',
            },
          },
        ],
      },
      {
        tool_calls: [{ name: 'terminal', arguments: { command: `sh ${file} sailor`, summary: 'run it again' } }],
      },
      {
        tool_calls: [
          {
            name: 'finish',
            // Not a command to try: the demo's workspace is removed when it ends.
            arguments: { message: 'Done: greet.sh greets whoever you name (`sh greet.sh sailor`, as above).' },
          },
        ],
      },
    ],
  };
}
