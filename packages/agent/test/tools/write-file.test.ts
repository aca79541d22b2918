import { stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createWriteFileTool } from '../../src/tools/write-file/index.ts';
import { textOf, toolTest } from './support.ts';

const it = toolTest(
  createWriteFileTool,
  (act) => (file_path: string, content: string) => act({ kind: 'WriteFileAction', file_path, content }),
);

describe('write_file', () => {
  it('creates a new file with its parent directories', async ({ box, run }) => {
    const observation = await run('pkg/src/new.ts', 'export const a = 1;\n');
    expect(observation).toMatchObject({
      kind: 'WriteFileObservation',
      is_error: false,
      file_path: box.path('pkg/src/new.ts'),
      is_new_file: true,
      old_content: null,
      new_content: 'export const a = 1;\n',
    });
    expect(textOf(observation)).toBe(
      `Successfully created and wrote to new file: ${box.path('pkg/src/new.ts')} (1 lines).`,
    );
    expect(await box.read('pkg/src/new.ts')).toBe('export const a = 1;\n');
  });

  it('overwrites an existing file, reporting the old content', async ({ box, run }) => {
    const path = await box.write('a.txt', 'old\n');
    const observation = await run(path, 'new\ncontent\n');
    expect(observation).toMatchObject({ is_new_file: false, old_content: 'old\n', new_content: 'new\ncontent\n' });
    expect(textOf(observation)).toBe(`Successfully overwrote file: ${path} (2 lines).`);
    expect(await box.read('a.txt')).toBe('new\ncontent\n');
    await box.write('blob.bin', new Uint8Array([0, 1, 2]));
    expect(await run('blob.bin', 'text now')).toMatchObject({ is_error: false, old_content: null });
  });

  it('refuses directories and paths outside the workspace', async ({ box, run }) => {
    await symlink(box.outside, box.path('escape'));
    const cases: Array<[string, RegExp]> = [
      ['.', /Path is a directory/],
      ['../outside/x.txt', /outside the workspace/],
      [join(box.outside, 'x.txt'), /outside the workspace/],
      ['escape/x.txt', /outside the workspace/],
    ];
    for (const [path, message] of cases) {
      const observation = await run(path, 'x');
      expect(observation.is_error, path).toBe(true);
      expect(textOf(observation)).toMatch(message);
    }
    await expect(stat(join(box.outside, 'x.txt'))).rejects.toThrow();
  });
});
