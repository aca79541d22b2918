import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { describe, expect } from 'vitest';
import { DEFAULT_READ_LINES, MAX_LINE_CHARS, createReadFileTool } from '../../src/tools/read-file/index.ts';
import { type Act, sandboxFor, textOf, toolTest } from './support.ts';

const runner =
  (act: Act<ActionOf<'ReadFileAction'>, ObservationOf<'ReadFileObservation'>>) =>
  (file_path: string, range: { offset?: number; limit?: number } = {}) =>
    act({ kind: 'ReadFileAction', file_path, ...range });
const it = toolTest(createReadFileTool, runner);

describe('read_file', () => {
  it('reads a whole file, by absolute or workspace-relative path', async ({ box, run }) => {
    const path = await box.write('src/a.txt', 'alpha\nbeta\n');
    for (const given of [path, 'src/a.txt']) {
      const observation = await run(given);
      expect(observation).toMatchObject({
        kind: 'ReadFileObservation',
        is_error: false,
        file_path: path,
        file_content: 'alpha\nbeta\n',
        is_truncated: false,
        lines_shown: [1, 2],
        total_lines: 2,
      });
      expect(textOf(observation)).toBe(`Read file: ${path} (2 lines)\n\n     1\talpha\n     2\tbeta`);
    }
  });

  it('reads lines from offset (0-based) up to limit, saying how to read on', async ({ box, run }) => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const path = await box.write('a.txt', `${lines.join('\n')}\n`);
    const observation = await run(path, { offset: 3, limit: 4 });
    expect(observation).toMatchObject({
      file_content: 'line 4\nline 5\nline 6\nline 7\n',
      is_truncated: true,
      lines_shown: [4, 7],
      total_lines: 10,
    });
    expect(textOf(observation)).toContain(
      `(showing lines 4-7 of 10). To read more, use: read_file(file_path='${path}', offset=7, limit=4)`,
    );
    expect(textOf(observation)).toContain('     4\tline 4\n');
    const tail = await run(path, { offset: 8 });
    expect(tail).toMatchObject({ is_truncated: false, lines_shown: [9, 10], file_content: 'line 9\nline 10\n' });
  });

  it(`returns ${DEFAULT_READ_LINES} lines by default and cuts very long lines`, async ({ box, run }) => {
    const path = await box.write('big.txt', `${Array.from({ length: 1500 }, (_, i) => `l${i}`).join('\n')}\n`);
    expect(await run(path)).toMatchObject({ is_truncated: true, lines_shown: [1, 1000], total_lines: 1500 });
    const wide = await box.write('wide.txt', `${'w'.repeat(MAX_LINE_CHARS + 500)}\nshort\n`);
    const observation = await run(wide);
    expect(observation.is_truncated).toBe(true);
    expect(textOf(observation)).toContain(`... [line cut at ${MAX_LINE_CHARS} characters]`);
    expect(textOf(observation)).not.toContain('w'.repeat(MAX_LINE_CHARS + 1));
  });

  it('stops early on a huge read, at a whole line', async ({ box, run }) => {
    const line = 'x'.repeat(1000);
    const path = await box.write('huge.txt', `${Array.from({ length: 900 }, () => line).join('\n')}\n`);
    const observation = await run(path);
    expect(observation.is_truncated).toBe(true);
    const [, last] = observation.lines_shown!;
    expect(last).toBeLessThan(100);
    expect(textOf(observation)).toContain(`offset=${last}`);
  });

  it('reports an offset past the end and an empty file', async ({ box, run }) => {
    const path = await box.write('a.txt', 'one\ntwo\n');
    const beyond = await run(path, { offset: 2 });
    expect(beyond.is_error).toBe(true);
    expect(textOf(beyond)).toBe(`Offset 2 is beyond the end of ${path}, which has 2 lines (valid offsets: 0 to 1).`);
    const empty = await box.write('empty.txt', '');
    expect(await run(empty)).toMatchObject({ is_error: false, total_lines: 0, file_content: '', lines_shown: null });
  });

  it('refuses missing files, directories, binary files and paths outside the workspace', async ({ box, run }) => {
    await box.write('bin.dat', new Uint8Array([1, 2, 0, 3]));
    await writeFile(join(box.outside, 'secret.txt'), 'secret');
    await symlink(join(box.outside, 'secret.txt'), box.path('link.txt'));
    const cases: Array<[string, RegExp]> = [
      ['missing.txt', /does not exist/],
      ['.', /is a directory/],
      ['bin.dat', /appears to be binary/],
      ['../outside/secret.txt', /outside the workspace/],
      ['link.txt', /outside the workspace/],
    ];
    for (const [path, message] of cases) {
      const observation = await run(path);
      expect(observation.is_error, path).toBe(true);
      expect(textOf(observation)).toMatch(message);
      expect(textOf(observation)).not.toContain('secret\n');
    }
  });

  it('masks secrets', async () => {
    const { box, act } = await sandboxFor(createReadFileTool(), {
      mask: (text) => text.replaceAll('s3cr3t', '<secret-hidden>'),
    });
    const run = runner(act);
    const path = await box.write('.env', 'TOKEN=s3cr3t\n');
    const observation = await run(path);
    expect(textOf(observation)).toContain('TOKEN=<secret-hidden>');
    expect(observation.file_content).toBe('TOKEN=<secret-hidden>\n');
  });
});
