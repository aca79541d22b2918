/** Files of plugins and marketplaces for tests (path -> content), in Claude Code's layout. */

export const FULL_PLUGIN: Record<string, string> = {
  '.claude-plugin/plugin.json': JSON.stringify({
    name: 'review-kit',
    version: '1.2.0',
    description: 'Review helpers',
    author: { name: 'Acme' },
    homepage: 'https://example.invalid',
    outputStyles: './styles',
    favouriteColour: 'blue',
  }),
  'skills/code-review/SKILL.md':
    '---\nname: code-review\ndescription: Reviews a diff.\n---\n# Review\nRead the diff.\n',
  'skills/notes/README.md': 'not a skill\n',
  'commands/check.md':
    '---\ndescription: Check the build\nargument-hint: "[target]"\n---\nRun the build for $ARGUMENTS.\n',
  'agents/critic.md': '---\nname: critic\ndescription: A harsh critic\n---\nBe harsh.\n',
  'hooks/hooks.json': JSON.stringify({
    description: 'guards',
    hooks: {
      PreToolUse: [
        {
          matcher: 'terminal',
          hooks: [
            { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh', timeout: 5 },
            { type: 'http', url: 'https://example.invalid/hook' },
          ],
        },
      ],
      Notification: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  }),
  'hooks/guard.sh': '#!/bin/sh\necho "no terminal for you" >&2\nexit 2\n',
  '.mcp.json': JSON.stringify({
    mcpServers: {
      echo: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.js'] },
      broken: { args: ['x'] },
      both: { command: 'node', url: 'http://127.0.0.1:1/mcp' },
    },
  }),
};

/** A plugin with one skill whose content says which version it is. */
export function versionedPlugin(version: string): Record<string, string> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'versioned', version }),
    'skills/hello/SKILL.md': `---\nname: hello\ndescription: Says hello (${version}).\n---\nHello from ${version}.\n`,
  };
}
