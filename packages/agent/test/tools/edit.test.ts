import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createEditTool } from '../../src/tools/edit/index.ts';
import { expectError, textOf, toolTest } from './support.ts';

const it = toolTest(
  createEditTool,
  (act) =>
    (file_path: string, old_string: string, new_string: string, expected_replacements = 1) =>
      act({ kind: 'EditAction', file_path, old_string, new_string, expected_replacements }),
);

describe('edit', () => {
  it('replaces the one occurrence and shows the edited region', async ({ box, run }) => {
    const path = await box.write('app.py', 'def f():\n    return 1\n');
    const observation = await run('app.py', 'return 1', 'return 2');
    expect(observation).toMatchObject({
      kind: 'EditObservation',
      is_error: false,
      file_path: path,
      is_new_file: false,
      replacements_made: 1,
      old_content: 'def f():\n    return 1\n',
      new_content: 'def f():\n    return 2\n',
    });
    expect(textOf(observation)).toContain(`Successfully edited ${path} (1 replacement(s)).`);
    expect(textOf(observation)).toContain('     2\t    return 2');
    expect(await box.read('app.py')).toBe('def f():\n    return 2\n');
  });

  it('replaces several occurrences when that many are expected, and only then', async ({ box, run }) => {
    await box.write('a.txt', 'foo\nbar foo\nfoo\n');
    const wrong = await run('a.txt', 'foo', 'baz');
    expectError(wrong, 'Expected 1 occurrence but found 3');
    expect(textOf(wrong)).toContain('lines [1, 2, 3]');
    expect(textOf(await run('a.txt', 'foo', 'baz', 2))).toContain('Expected 2 occurrences but found 3');
    expect(await box.read('a.txt')).toBe('foo\nbar foo\nfoo\n');
    expect(await run('a.txt', 'foo', 'baz', 3)).toMatchObject({ is_error: false, replacements_made: 3 });
    expect(await box.read('a.txt')).toBe('baz\nbar baz\nbaz\n');
  });

  it('creates a missing file from an empty old_string, and refuses to on an existing one', async ({ box, run }) => {
    const created = await run('new/dir/file.ts', '', 'export {};\n');
    expect(created).toMatchObject({
      is_error: false,
      is_new_file: true,
      new_content: 'export {};\n',
      old_content: null,
    });
    expect(await box.read('new/dir/file.ts')).toBe('export {};\n');
    const again = await run('new/dir/file.ts', '', 'x');
    expectError(again, 'Cannot create a file that already exists');
  });

  it('reports what it cannot do', async ({ box, run }) => {
    await box.write('a.txt', 'hello\n');
    await box.write('bin.dat', new Uint8Array([104, 0, 105]));
    await writeFile(join(box.outside, 'o.txt'), 'hello\n');
    await symlink(join(box.outside, 'o.txt'), box.path('o-link.txt'));
    const cases: Array<[string, string, string, RegExp]> = [
      ['missing.txt', 'a', 'b', /File not found: .*To create a new file, use old_string=''/],
      ['a.txt', 'absent', 'b', /0 occurrences found/],
      ['a.txt', 'hello', 'hello', /identical/],
      ['.', 'a', 'b', /directory/],
      ['bin.dat', 'h', 'H', /appears to be binary/],
      ['../outside/o.txt', 'hello', 'bye', /outside the workspace/],
      ['o-link.txt', 'hello', 'bye', /outside the workspace/],
    ];
    for (const [path, oldString, newString, message] of cases) {
      const observation = await run(path, oldString, newString);
      expect(observation.is_error, path).toBe(true);
      expect(textOf(observation)).toMatch(message);
    }
    expect(await box.read('a.txt')).toBe('hello\n');
  });
});
