import cliPackage from '../package.json' with { type: 'json' };
import type { Command, CommandIO } from './command.ts';
/**
 * Every command, in the order help lists them, each loaded when it runs: one process runs one command, and loading
 * them all (the app server's modules for an agent server too) cost every sandbox's start ~50 ms.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  migrate: async () => (await import('./commands/migrate.ts')).migrateCommand,
  'api-key': async () => (await import('./commands/api-key.ts')).apiKeyCommand,
  'sign-in-link': async () => (await import('./commands/sign-in-link.ts')).signInLinkCommand,
  'agent-server': async () => (await import('./commands/agent-server.ts')).agentServerCommand,
  'runtime-api': async () => (await import('./commands/runtime-api.ts')).runtimeApiCommand,
  demo: async () => (await import('./commands/demo.ts')).demoCommand,
  'llm-replay': async () => (await import('./commands/llm-replay.ts')).llmReplayCommand,
  validate: async () => (await import('./commands/validate.ts')).validateCommand,
  schema: async () => (await import('./commands/schema.ts')).schemaCommand,
  skills: async () => (await import('./commands/skills.ts')).skillsCommand,
  plugin: async () => (await import('./commands/plugin.ts')).pluginCommand,
  marketplace: async () => (await import('./commands/marketplace.ts')).marketplaceCommand,
  launch: async () => (await import('./commands/launch.ts')).launchCommand,
  install: async () => (await import('./commands/install.ts')).installCommand,
  preflight: async () => (await import('./commands/preflight.ts')).preflightCommand,
  license: async () => (await import('./commands/license.ts')).licenseCommand,
};

/** Each command, loaded. */
const allCommands = () => Promise.all(Object.values(commands).map((load) => load()));

export async function helpText(): Promise<string> {
  const listed = await allCommands();
  const width = Math.max(...listed.map((c) => c.name.length));
  return [
    'bosun: an open-source agent platform',
    '',
    'Usage: bosun <command> [options]',
    '',
    '       bosun --version',
    '',
    'Commands:',
    ...listed.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
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
    io.stdout.write(await helpText());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`${versionText()}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.stderr.write(`bosun: unknown command '${name}'\n\n${await helpText()}`);
    return 2;
  }
  const command = await load();
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(args, io);
}
