import { parseArgs } from 'node:util';
import { type LintProblem, breaksSpecification, lintSkills } from '@bosun/sources';
import type { Command } from '../command.ts';

const USAGE = `Usage: bosun skills lint [--json] [--strict] PATH...

Checks skills against the Agent Skills specification (agentskills.io): name rules
and the directory name, description and compatibility lengths, allowed fields,
YAML. Each PATH is a SKILL.md, a skill directory, or a directory searched for
SKILL.md files (a repository, .agents/skills/). Prints every problem as
file: field: message [error|warning]. A problem has the severity Bosun gives it
wherever it reports it (plugin and marketplace inspection, loading): an error is
a skill Bosun does not load; a warning one it loads. Exit status: 0 if no skill
has an error (warnings allowed), 1 if any has, 2 if a path cannot be read.

Options:
  --strict also exit 1 for a warning that breaks the specification (strict clients
           such as skills-ref validate reject the skill)
  --json   print one JSON object: {files, problems: [{file, field, severity, message, finding}]}`;

export const skillsCommand: Command = {
  name: 'skills',
  summary: 'Check skills (SKILL.md) against the Agent Skills specification: skills lint PATH...',
  usage: USAGE,
  async run(args, io) {
    const [subcommand, ...rest] = args;
    if (subcommand !== 'lint') {
      io.stderr.write(
        `bosun skills: ${subcommand ? `unknown subcommand '${subcommand}'` : 'no subcommand'}\n\n${USAGE}\n`,
      );
      return 2;
    }
    let values: { json?: boolean; strict?: boolean };
    let positionals: string[];
    try {
      ({ values, positionals } = parseArgs({
        args: rest,
        options: { json: { type: 'boolean', default: false }, strict: { type: 'boolean', default: false } },
        allowPositionals: true,
      }));
    } catch (error) {
      io.stderr.write(`bosun skills lint: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (positionals.length === 0) {
      io.stderr.write(`bosun skills lint: no path given\n\n${USAGE}\n`);
      return 2;
    }
    const result = await lintSkills(positionals);
    for (const { path, reason } of result.unreadable) io.stderr.write(`${path}: cannot read: ${reason}\n`);
    const errors = result.problems.filter((problem) => problem.severity === 'error').length;
    const warnings = result.problems.length - errors;
    if (values.json) io.stdout.write(`${JSON.stringify({ files: result.files, problems: result.problems })}\n`);
    else for (const problem of result.problems) io.stdout.write(formatProblem(problem));
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    io.stderr.write(
      `${count(result.files.length, 'skill')} checked, ${count(errors, 'error')}, ${count(warnings, 'warning')}\n`,
    );
    if (result.unreadable.length) return 2;
    if (errors) return 1;
    return values.strict && result.problems.some(breaksSpecification) ? 1 : 0;
  },
};

function formatProblem(problem: LintProblem): string {
  return `${problem.file}: ${problem.field ?? '(file)'}: ${problem.message} [${problem.severity}]\n`;
}
