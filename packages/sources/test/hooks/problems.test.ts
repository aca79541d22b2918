import type { HookConfig } from '@bosun/protocol';
import { conditionProblem, hookConfigProblems, matcherProblem, readCondition, readMatcher } from '@bosun/sources';
import { describe, expect, it } from 'vitest';

describe('reading hook matchers', () => {
  it('reads every tool, a list of names or a regular expression', () => {
    expect(readMatcher(undefined)).toEqual({ kind: 'all' });
    expect(readMatcher(' * ')).toEqual({ kind: 'all' });
    expect(readMatcher('terminal| file_editor ,Bash')).toEqual({
      kind: 'names',
      names: new Set(['terminal', 'file_editor', 'Bash']),
    });
    const pattern = readMatcher('/^file_/');
    expect(pattern.kind === 'pattern' && pattern.regex.source).toBe('^file_');
  });

  it('an invalid regular expression is a problem (a 422 at creation)', () => {
    expect(() => readMatcher('file_(')).toThrow(SyntaxError);
    expect(matcherProblem('file_(')).toMatch(/^Invalid matcher "file_\(":/);
    expect(matcherProblem('terminal')).toBeUndefined();
  });
});

describe("reading a hook's `if`", () => {
  it('says what a rule selects: a tool, its command lines, its paths, or nothing of Bosun', () => {
    expect(readCondition('Read')).toEqual({ tool: 'Read', selects: 'tool' });
    expect(readCondition('MultiEdit(*)')).toEqual({ tool: 'Edit', selects: 'tool' });
    const command = readCondition('Bash(git commit:*)');
    expect(
      command.selects === 'command' &&
        ['git commit', 'git commit -m x', 'git status'].map((line) => command.pattern.test(line)),
    ).toEqual([true, true, false]);
    const home = readCondition('Write(~/notes/*.md)');
    expect(home.selects === 'path' && [home.root, home.glob.selectsFile('notes/a.md')]).toEqual(['home', true]);
    expect(readCondition('Edit(//etc/**)')).toMatchObject({ selects: 'path', root: 'filesystem' });
    expect(readCondition('Grep(src/**)')).toMatchObject({ selects: 'path', root: 'workspace' });
    expect(readCondition('WebFetch(domain:example.com)')).toEqual({ tool: 'WebFetch', selects: 'nothing' });
  });

  it('a rule that cannot be read is a problem', () => {
    expect(conditionProblem('Bash(git commit:*)')).toBeUndefined();
    expect(conditionProblem('Bash(git commit')).toMatch(/^Invalid `if` rule "Bash\(git commit":/);
    expect(conditionProblem('')).toMatch(/^Invalid `if` rule/);
    expect(conditionProblem('Read()')).toMatch(/the specifier in parentheses is empty/);
    expect(conditionProblem('Write([z-a])')).toMatch(/^Invalid `if` rule/);
    expect(conditionProblem('Write(src/[a)')).toMatch(/unclosed character class/);
  });
});

describe('hook configuration problems', () => {
  it('reports unknown events and invalid regular expressions without the schema too', () => {
    const config = {
      PreToolUse: [{ matcher: 'file_(', hooks: [] }],
      Stop: [{ matcher: 'file_(', hooks: [] }],
      Notification: [],
    } as unknown as HookConfig;
    const problems = hookConfigProblems(config, ['body', 'hook_config']);
    expect(problems.map((p) => [p.loc.join('.'), p.type])).toEqual([
      ['body.hook_config.PreToolUse.0.matcher', 'value_error'],
      ['body.hook_config.Notification', 'extra_forbidden'],
    ]);
    expect(problems[1]?.msg).toContain('pre_tool_use');
  });

  it('reports an `if` that cannot be read, or on an event without tools, where it is', () => {
    const config = {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', if: 'Bash(git commit' }] }] },
      stop: [{ hooks: [{ type: 'command', command: 'x', if: 'Bash' }] }],
    } as unknown as HookConfig;
    const problems = hookConfigProblems(config);
    expect(problems.map((p) => p.loc.join('.'))).toEqual([
      'hook_config.hooks.PreToolUse.0.hooks.0.if',
      'hook_config.stop.0.hooks.0.if',
    ]);
    expect(problems[1]?.msg).toBe('`if` applies to tool events only (PreToolUse, PostToolUse)');
  });
});
