import cliPackage from '../package.json' with { type: 'json' };
import type { Command, CommandIO } from './command.ts';
import { agentServerCommand } from './commands/agent-server.ts';
import { apiKeyCommand } from './commands/api-key.ts';
import { demoCommand } from './commands/demo.ts';
import { installCommand } from './commands/install.ts';
import { launchCommand } from './commands/launch.ts';
import { licenseCommand } from './commands/license.ts';
import { llmReplayCommand } from './commands/llm-replay.ts';
import { marketplaceCommand } from './commands/marketplace.ts';
import { migrateCommand } from './commands/migrate.ts';
import { pluginCommand } from './commands/plugin.ts';
import { preflightCommand } from './commands/preflight.ts';
import { runtimeApiCommand } from './commands/runtime-api.ts';
import { schemaCommand } from './commands/schema.ts';
import { serveCommand } from './commands/serve.ts';
import { signInLinkCommand } from './commands/sign-in-link.ts';
import { skillsCommand } from './commands/skills.ts';
import { validateCommand } from './commands/validate.ts';

const commands: Command[] = [
  serveCommand,
  migrateCommand,
  apiKeyCommand,
  signInLinkCommand,
  agentServerCommand,
  runtimeApiCommand,
  demoCommand,
  llmReplayCommand,
  validateCommand,
  schemaCommand,
  skillsCommand,
  pluginCommand,
  marketplaceCommand,
  launchCommand,
  installCommand,
  preflightCommand,
  licenseCommand,
];

export function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'bosun: an open-source agent platform',
    '',
    'Usage: bosun <command> [options]',
    '',
    '       bosun --version',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'bosun <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/** This Bosun's version and the Node running it (what a bug report needs first). */
export function versionText(): string {
  return `bosun ${cliPackage.version} (Node.js ${process.version})`;
}

/** Runs the command named by `argv[0]` and returns the exit status. */
export async function main(
  argv: string[],
  io: CommandIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(helpText());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`${versionText()}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`bosun: unknown command '${name}'\n\n${helpText()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(args, io);
}
