import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type ValidationError, safeParseEvent } from '@bosun/protocol';
import type { Command, CommandIO } from '../command.ts';
import { readRecords } from '../validate/records.ts';

const USAGE = `Usage: bosun validate [--json] FILE...

Validates events given as JSON Lines (one event per line) or as a JSON array.
'-' reads standard input. Prints every invalid event with its line and each
problem as loc: msg [type]. Exit status: 0 if every event is valid, 1 if any
is invalid, 2 if a file cannot be read.

Options:
  --json   print one JSON object per invalid event: {file, line, kind, id, errors}`;

interface Problem {
  file: string;
  line: number;
  kind?: string;
  id?: string;
  errors: ValidationError[];
}

export const validateCommand: Command = {
  name: 'validate',
  summary: 'Validate events (JSON Lines or a JSON array) against the event model',
  usage: USAGE,
  async run(args, io) {
    let parsed: ReturnType<typeof parseOptions>;
    try {
      parsed = parseOptions(args);
    } catch (error) {
      io.stderr.write(`bosun validate: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    const { files, json } = parsed;
    if (files.length === 0) {
      io.stderr.write(`bosun validate: no file given\n\n${USAGE}\n`);
      return 2;
    }
    let checked = 0;
    let invalid = 0;
    let unreadable = 0;
    for (const file of files) {
      let text: string;
      try {
        text = file === '-' ? await readAll(io.stdin) : await readFile(file, 'utf8');
      } catch (error) {
        io.stderr.write(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
        unreadable++;
        continue;
      }
      const name = file === '-' ? '<stdin>' : file;
      for (const record of readRecords(text)) {
        checked++;
        const problem = check(name, record);
        if (!problem) continue;
        invalid++;
        io.stdout.write(json ? `${JSON.stringify(problem)}\n` : formatProblem(problem));
      }
    }
    const summary = `${checked} event${checked === 1 ? '' : 's'} checked, ${invalid} invalid`;
    io.stderr.write(`${summary}${unreadable ? `, ${unreadable} file${unreadable === 1 ? '' : 's'} unreadable` : ''}\n`);
    if (unreadable) return 2;
    return invalid === 0 ? 0 : 1;
  },
};

function parseOptions(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  return { files: positionals, json: values.json === true };
}

function check(file: string, record: { line: number; value?: unknown; syntaxError?: string }): Problem | undefined {
  if (record.syntaxError !== undefined) {
    return {
      file,
      line: record.line,
      errors: [{ loc: [], msg: `Invalid JSON: ${record.syntaxError}`, type: 'json_invalid' }],
    };
  }
  const result = safeParseEvent(record.value);
  if (result.ok) return undefined;
  const { kind, id } = (record.value ?? {}) as { kind?: unknown; id?: unknown };
  return {
    file,
    line: record.line,
    ...(typeof kind === 'string' ? { kind } : {}),
    ...(typeof id === 'string' ? { id } : {}),
    errors: result.errors,
  };
}

function formatProblem(problem: Problem): string {
  const what = [problem.kind ?? 'event', problem.id ? `(id ${problem.id})` : ''].filter(Boolean).join(' ');
  const lines = [`${problem.file}:${problem.line}: invalid ${what}`];
  for (const error of problem.errors) {
    lines.push(`  ${error.loc.length ? error.loc.join('.') : '(event)'}: ${error.msg} [${error.type}]`);
  }
  return `${lines.join('\n')}\n`;
}

async function readAll(stream: CommandIO['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
