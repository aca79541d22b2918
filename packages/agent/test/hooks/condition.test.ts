import { homedir } from 'node:os';
import { join } from 'node:path';
import { claudeToolName, compileCondition } from '@bosun/agent';
import { describe, expect, it } from 'vitest';

const WORKSPACE = '/work/project';
const terminal = (rule: string, command: string) =>
  compileCondition(rule)('terminal', { kind: 'TerminalAction', command }, WORKSPACE);

describe("a hook's `if` (Claude Code's permission-rule syntax)", () => {
  it('Bash(prefix:*) selects the commands that start with the prefix as whole words', () => {
    expect(terminal('Bash(git commit:*)', 'git commit -m "fix"')).toBe(true);
    expect(terminal('Bash(git commit:*)', 'git commit')).toBe(true);
    expect(terminal('Bash(git commit:*)', 'git status')).toBe(false);
    expect(terminal('Bash(git commit:*)', 'git commit-tree abc')).toBe(false);
    expect(terminal('Bash(git commit:*)', 'ls -la')).toBe(false);
  });

  it('`*` is a wildcard anywhere; a space before it keeps the word whole', () => {
    expect(terminal('Bash(ls *)', 'ls -la')).toBe(true);
    expect(terminal('Bash(ls *)', 'lsof -i')).toBe(false);
    expect(terminal('Bash(ls*)', 'lsof -i')).toBe(true);
    expect(terminal('Bash(git * main)', 'git push origin main')).toBe(true);
    expect(terminal('Bash(git * main)', 'git push origin dev')).toBe(false);
    expect(terminal('Bash(npm run build)', 'npm run build')).toBe(true);
    expect(terminal('Bash(npm run build)', 'npm run build:prod')).toBe(false);
    expect(terminal('Bash', 'anything at all')).toBe(true);
    expect(terminal('Bash(*)', 'anything at all')).toBe(true);
  });

  it('each command of a list or pipeline is tried, without its variable assignments', () => {
    expect(terminal('Bash(git commit:*)', 'npm test && git commit -m x')).toBe(true);
    expect(terminal('Bash(git push:*)', 'cd repo; FORCE=1 git push origin main')).toBe(true);
    expect(terminal('Bash(rm *)', 'echo "a && rm -rf b"')).toBe(false);
    expect(terminal('Bash(rm *)', 'echo $(rm -rf b)')).toBe(true);
  });

  it('names a tool by its Claude Code name or by its Bosun name, and nothing else', () => {
    expect(terminal('terminal(git commit:*)', 'git commit')).toBe(true);
    const edit = compileCondition('Bash(git commit:*)');
    expect(edit('file_editor', { kind: 'FileEditorAction', command: 'view', path: '/x' }, WORKSPACE)).toBe(false);
    expect(claudeToolName('terminal', {})).toBe('Bash');
    expect(claudeToolName('file_editor', { command: 'view' })).toBe('Read');
    expect(claudeToolName('file_editor', { command: 'create' })).toBe('Write');
    expect(claudeToolName('file_editor', { command: 'str_replace' })).toBe('Edit');
    expect(claudeToolName('write_file', {})).toBe('Write');
    expect(claudeToolName('think', {})).toBeNull();
  });

  it('file tools match gitignore-style paths: workspace-relative, `//` absolute, `~/` home', () => {
    const write = (rule: string, path: string) =>
      compileCondition(rule)('write_file', { kind: 'WriteFileAction', file_path: path, content: '' }, WORKSPACE);
    expect(write('Write(docs/**)', `${WORKSPACE}/docs/a/b.md`)).toBe(true);
    expect(write('Write(docs/**)', 'docs/b.md')).toBe(true);
    expect(write('Write(docs/**)', `${WORKSPACE}/src/b.md`)).toBe(false);
    expect(write('Write(*.env)', `${WORKSPACE}/config/.env`)).toBe(true);
    expect(write('Write(/src/*.ts)', `${WORKSPACE}/src/a.ts`)).toBe(true);
    expect(write('Write(/src/*.ts)', `${WORKSPACE}/lib/src/a.ts`)).toBe(false);
    expect(write('Write(//etc/**)', '/etc/hosts')).toBe(true);
    expect(write('Write(docs/**)', '/elsewhere/docs/a.md')).toBe(false);
    expect(write('Write(~/.ssh/**)', join(homedir(), '.ssh/config'))).toBe(true);
    expect(write('Edit(docs/**)', `${WORKSPACE}/docs/a.md`)).toBe(false);
    const editor = compileCondition('Edit(src/**)');
    const action = (command: string) => ({ kind: 'FileEditorAction', command, path: `${WORKSPACE}/src/a.ts` });
    expect(editor('file_editor', action('str_replace'), WORKSPACE)).toBe(true);
    expect(editor('file_editor', action('view'), WORKSPACE)).toBe(false);
  });
});
