import { stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWriteFileTool } from '../../src/tools/write-file/index.ts';
import { expectWellDefined, sandbox, textOf, valid } from './support.ts';

async function setup() {
  const box = await sandbox();
  const tool = createWriteFileTool();
  const run = async (file_path: string, content: string) =>
    valid(await tool.execute({ kind: 'WriteFileAction', file_path, content }, box.context));
  return { box, run };
}

describe('write_file', () => {
  it('is described for the LLM', () => {
    expectWellDefined(createWriteFileTool(), {
      name: 'write_file',
      kind: 'WriteFileTool',
      actionKind: 'WriteFileAction',
      observationKind: 'WriteFileObservation',
      readOnly: false,
    });
  });

  it('creates a new file with its parent directories', async () => {
    const { box, run } = await setup();
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

  it('overwrites an existing file, reporting the old content', async () => {
    const { box, run } = await setup();
    const path = await box.write('a.txt', 'old\n');
    const observation = await run(path, 'new\ncontent\n');
    expect(observation).toMatchObject({ is_new_file: false, old_content: 'old\n', new_content: 'new\ncontent\n' });
    expect(textOf(observation)).toBe(`Successfully overwrote file: ${path} (2 lines).`);
    expect(await box.read('a.txt')).toBe('new\ncontent\n');
    await box.write('blob.bin', new Uint8Array([0, 1, 2]));
    expect(await run('blob.bin', 'text now')).toMatchObject({ is_error: false, old_content: null });
  });

  it('refuses directories and paths outside the workspace', async () => {
    const { box, run } = await setup();
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
