import { mkdir, symlink, utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, createListDirectoryTool } from '../../src/tools/list-directory/index.ts';
import { expectWellDefined, sandbox, textOf, valid } from './support.ts';

async function setup() {
  const box = await sandbox();
  const tool = createListDirectoryTool();
  const run = async (dir_path = '.', recursive = false) =>
    valid(await tool.execute({ kind: 'ListDirectoryAction', dir_path, recursive }, box.context));
  return { box, run };
}

describe('list_directory', () => {
  it('is described for the LLM', () => {
    expectWellDefined(createListDirectoryTool(), {
      name: 'list_directory',
      kind: 'ListDirectoryTool',
      actionKind: 'ListDirectoryAction',
      observationKind: 'ListDirectoryObservation',
      readOnly: true,
    });
  });

  it('lists entries with size and ISO modification time, directories first', async () => {
    const { box, run } = await setup();
    await box.write('b.txt', 'hello');
    await box.write('a.md', '');
    await box.write('.env', 'X=1');
    await box.write('src/index.ts', '');
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

  it('lists two levels deep when recursive, without entering .git or node_modules', async () => {
    const { box, run } = await setup();
    await box.write('src/a/deep.ts', '');
    await box.write('src/b.ts', '');
    await box.write('node_modules/pkg/index.js', '');
    await box.write('.git/HEAD', 'ref');
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

  it(`returns at most ${MAX_ENTRIES} entries but counts them all`, async () => {
    const { box, run } = await setup();
    await Promise.all(
      Array.from({ length: MAX_ENTRIES + 20 }, (_, i) => box.write(`many/f${String(i).padStart(4, '0')}`, '')),
    );
    const observation = await run('many');
    expect(observation.entries).toHaveLength(MAX_ENTRIES);
    expect(observation).toMatchObject({ total_count: MAX_ENTRIES + 20, is_truncated: true });
    expect(textOf(observation)).toContain(`(${MAX_ENTRIES + 20} entries, showing the first ${MAX_ENTRIES})`);
  });

  it('says when a directory is empty, missing, a file or outside the workspace', async () => {
    const { box, run } = await setup();
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
