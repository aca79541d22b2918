/**
 * Small copies of two real marketplaces' layouts (path -> content), for tests that load them as Claude Code does.
 */

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\nlicense: Complete terms in LICENSE.txt\n---\n# ${name}\n`;

/**
 * anthropics/skills: one `skills/` tree at the repository root, and marketplace entries with `source: "./"`,
 * `strict: false` and a `skills` list each, so that one repository publishes disjoint plugins. Beside the skills:
 * a `template/` skill and a `spec/` directory that are no plugin's.
 */
export const SKILLS_MARKETPLACE: Record<string, string> = {
  '.claude-plugin/marketplace.json': JSON.stringify({
    name: 'anthropic-agent-skills',
    owner: { name: 'Keith Lazuka', email: 'klazuka@anthropic.com' },
    metadata: { description: 'Anthropic example skills', version: '1.0.0' },
    plugins: [
      {
        name: 'document-skills',
        description: 'Collection of document processing suite',
        source: './',
        strict: false,
        skills: ['./skills/xlsx', './skills/pdf'],
      },
      {
        name: 'example-skills',
        description: 'Collection of example skills',
        source: './',
        strict: false,
        skills: ['./skills/skill-creator', './skills/mcp-builder', './skills/webapp-testing'],
      },
      {
        name: 'claude-api',
        description: 'Claude API and SDK documentation skill',
        source: './',
        strict: false,
        skills: ['./skills/claude-api'],
      },
    ],
  }),
  'README.md': '# Skills\n',
  'THIRD_PARTY_NOTICES.md': 'Notices\n',
  'spec/agent-skills-spec.md': 'The spec moved.\n',
  'template/SKILL.md': skill('template-skill', 'Replace with description of the skill.'),
  'skills/xlsx/SKILL.md': skill('xlsx', 'Spreadsheets.'),
  'skills/xlsx/LICENSE.txt': 'License\n',
  'skills/pdf/SKILL.md': skill('pdf', 'PDF files.'),
  'skills/skill-creator/SKILL.md': skill('skill-creator', 'Creates skills.'),
  'skills/mcp-builder/SKILL.md': skill('mcp-builder', 'Builds MCP servers.'),
  'skills/webapp-testing/SKILL.md': skill('webapp-testing', 'Tests web applications.'),
  'skills/claude-api/SKILL.md': skill('claude-api', 'Builds with the Claude API.'),
  'skills/docx/SKILL.md': skill('docx', 'Word documents.'),
};

/**
 * anthropics/claude-plugins-official: plugins in `plugins/<name>/`; the language-server entries are
 * `strict: false` with inline `lspServers` and a directory holding only a README; the others have their own
 * `plugin.json` and components (here a hook filtered by `if`, as its commit guards are).
 */
export const OFFICIAL_MARKETPLACE: Record<string, string> = {
  '.claude-plugin/marketplace.json': JSON.stringify({
    $schema: 'https://anthropic.com/claude-code/marketplace.schema.json',
    name: 'claude-plugins-official',
    description: 'Directory of popular Claude Code extensions',
    owner: { name: 'Anthropic', email: 'support@anthropic.com' },
    plugins: [
      {
        name: 'typescript-lsp',
        description: 'TypeScript/JavaScript language server for enhanced code intelligence',
        version: '1.0.0',
        author: { name: 'Anthropic', email: 'support@anthropic.com' },
        source: './plugins/typescript-lsp',
        category: 'development',
        strict: false,
        lspServers: {
          typescript: {
            command: 'typescript-language-server',
            args: ['--stdio'],
            extensionToLanguage: { '.ts': 'typescript', '.tsx': 'typescriptreact', '.js': 'javascript' },
          },
        },
      },
      {
        name: 'commit-guard',
        description: 'Checks commits before they are made',
        author: { name: 'Anthropic', email: 'support@anthropic.com' },
        source: './plugins/commit-guard',
        category: 'development',
        homepage: 'https://github.com/anthropics/claude-plugins-public/tree/main/plugins/commit-guard',
      },
    ],
  }),
  'plugins/typescript-lsp/README.md': '# typescript-lsp\n\nInstall typescript-language-server first.\n',
  'plugins/commit-guard/.claude-plugin/plugin.json': JSON.stringify({
    name: 'commit-guard',
    description: 'Checks commits before they are made',
    author: { name: 'Anthropic' },
  }),
  'plugins/commit-guard/hooks/hooks.json': JSON.stringify({
    description: 'Commit checks',
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', if: 'Bash(git commit:*)', command: 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/check.sh"' }],
        },
      ],
    },
  }),
  'plugins/commit-guard/hooks/check.sh': 'echo "commit-guard: run the tests first" >&2\nexit 2\n',
};

const channelSkill = (name: string, channel: string) =>
  `---\nname: ${name}\ndescription: ${name === 'access' ? 'Grants access to' : 'Configures'} the ${channel} channel.\n---\n${name} for ${channel}.\n`;

/** A channel plugin of claude-plugins-official: each ships an `access` and a `configure` skill, and its own. */
function channelPlugin(channel: string, own: string): Record<string, string> {
  return {
    [`external_plugins/${channel}/.claude-plugin/plugin.json`]: JSON.stringify({ name: channel, version: '0.1.0' }),
    [`external_plugins/${channel}/skills/access/SKILL.md`]: channelSkill('access', channel),
    [`external_plugins/${channel}/skills/configure/SKILL.md`]: channelSkill('configure', channel),
    [`external_plugins/${channel}/skills/${own}/SKILL.md`]: `---\nname: ${own}\ndescription: ${own}.\n---\n${own}.\n`,
  };
}

/** claude-plugins-official's channel plugins (discord, imessage, telegram): the same skill names in each. */
export const CHANNELS_MARKETPLACE: Record<string, string> = {
  '.claude-plugin/marketplace.json': JSON.stringify({
    name: 'claude-plugins-official',
    owner: { name: 'Anthropic' },
    plugins: ['discord', 'imessage', 'telegram'].map((name) => ({
      name,
      description: `${name} channel`,
      source: `./external_plugins/${name}`,
    })),
  }),
  ...channelPlugin('discord', 'servers'),
  ...channelPlugin('imessage', 'contacts'),
  ...channelPlugin('telegram', 'bots'),
};
