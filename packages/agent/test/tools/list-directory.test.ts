import { mkdir, symlink, utimes } from 'node:fs/promises';
import { describe, expect } from 'vitest';
import { MAX_ENTRIES, createListDirectoryTool } from '../../src/tools/list-directory/index.ts';
import { textOf, toolTest } from './support.ts';

const it = toolTest(
  createListDirectoryTool,
  (act) =>
    (dir_path = '.', recursive = false) =>
      act({ kind: 'ListDirectoryAction', dir_path, recursive }),
);

describe('list_directory', () => {
  it('lists entries with size and ISO modification time, directories first', async ({ box, run }) => {
    await box.writeAll({ 'b.txt': 'hello', 'a.md': '', '.env': 'X=1', 'src/index.ts': '' });
    await utimes(box.path('b.txt'), new Date('2024-01-02T03:04:05Z'), new Date('2024-01-02T03:04:05Z'));
    const observation = await run();
    expect(observation).toMatchObject({
      is_error: false,
      dir_path: box.workspace,
      total_count: 4,
      is_truncated: false,
    });
    expect(observation.entries.map((entry) => entry.name)).toEqual(['src', '.env', 'a.md', 'b.txt']);
    expect(observation.entries[0]).toMatchObject({ path: box.path('src'), is_directory: true, size: 0 });
    expect(observation.entries[3]).toEqual({
      name: 'b.txt',
      path: box.path('b.txt'),
      is_directory: false,
      size: 5,
      modified_time: '2024-01-02T03:04:05.000Z',
    });
    expect(textOf(observation)).toBe(
      `Listed directory ${box.workspace} (4 entries):\nsrc/\n.env  (3 B)\na.md  (0 B)\nb.txt  (5 B)`,
    );
  });

  it('lists two levels deep when recursive, without entering .git or node_modules', async ({ box, run }) => {
    await box.writeAll({ 'src/a/deep.ts': '', 'src/b.ts': '', 'node_modules/pkg/index.js': '', '.git/HEAD': 'ref' });
    const observation = await run('.', true);
    expect(observation.entries.map((entry) => entry.path.slice(box.workspace.length + 1))).toEqual([
      '.git',
      'node_modules',
      'src',
      'src/a',
      'src/b.ts',
    ]);
    expect(textOf(observation)).toContain('src/a/\nsrc/b.ts  (0 B)');
    const nested = await run('src', false);
    expect(nested.entries.map((entry) => entry.name)).toEqual(['a', 'b.ts']);
  });

  it(`returns at most ${MAX_ENTRIES} entries but counts them all`, async ({ box, run }) => {
    await Promise.all(
      Array.from({ length: MAX_ENTRIES + 20 }, (_, i) => box.write(`many/f${String(i).padStart(4, '0')}`, '')),
    );
    const observation = await run('many');
    expect(observation.entries).toHaveLength(MAX_ENTRIES);
    expect(observation).toMatchObject({ total_count: MAX_ENTRIES + 20, is_truncated: true });
    expect(textOf(observation)).toContain(`(${MAX_ENTRIES + 20} entries, showing the first ${MAX_ENTRIES})`);
  });

  it('says when a directory is empty, missing, a file or outside the workspace', async ({ box, run }) => {
    await box.write('file.txt', '');
    await symlink(box.outside, box.path('escape'));
    expect(textOf(await run('file.txt'))).toBe(`Path is not a directory: ${box.path('file.txt')}`);
    expect(textOf(await run('missing'))).toBe(`Directory not found: ${box.path('missing')}`);
    expect((await run('..')).is_error).toBe(true);
    expect(textOf(await run('escape'))).toContain('outside the workspace');
    await mkdir(box.path('void'));
    expect(textOf(await run('void'))).toBe(`Directory ${box.path('void')} is empty.`);
  });
});
