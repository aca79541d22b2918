/** What every `bosun` subcommand is: its name, help, and how it runs. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

/** Where a command reads and writes; tests pass their own. */
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}
