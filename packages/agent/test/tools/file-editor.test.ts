import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionOf, Observation, ObservationOf } from '@bosun/protocol';
import { describe, expect } from 'vitest';
import { createFileEditorTool } from '../../src/tools/file-editor/index.ts';
import { MAX_OUTPUT_CHARS } from '../../src/tools/shared/text.ts';
import { type Act, type Sandbox, expectError, sandboxFor, textOf, toolTest } from './support.ts';

type Args = Omit<ActionOf<'FileEditorAction'>, 'kind'>;

const runner = (act: Act<ActionOf<'FileEditorAction'>, ObservationOf<'FileEditorObservation'>>) => (args: Args) =>
  act({ kind: 'FileEditorAction', ...args });
const it = toolTest(createFileEditorTool, runner);

/** `call` on the file `name`, holding `content`, is refused with `message`, and the file keeps its content. */
async function expectRefusedLeaving(
  box: Sandbox,
  [name, content]: [string, string],
  call: (path: string) => Promise<Observation>,
  message: string,
) {
  expectError(await call(await box.write(name, content)), message);
  expect(await box.read(name)).toBe(content);
}

const numbered = (lines: string[], first = 1) => lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`);

describe('file_editor', () => {
  describe('view', () => {
    it('shows a file with line numbers', async ({ box, run }) => {
      const path = await box.write('a.py', 'one\ntwo\nthree\n');
      const observation = await run({ command: 'view', path });
      expect(observation).toMatchObject({
        kind: 'FileEditorObservation',
        is_error: false,
        command: 'view',
        path,
        prev_exist: true,
        old_content: null,
        new_content: null,
      });
      expect(textOf(observation)).toBe(
        `Here's the result of running \`cat -n\` on ${path}:\n${numbered(['one', 'two', 'three']).join('\n')}\n`,
      );
    });

    it('shows a line range, -1 meaning to the end', async ({ box, run }) => {
      const path = await box.write('a.txt', 'l1\nl2\nl3\nl4\nl5\n');
      expect(textOf(await run({ command: 'view', path, view_range: [2, 3] }))).toContain(
        numbered(['l2', 'l3'], 2).join('\n'),
      );
      const toEnd = textOf(await run({ command: 'view', path, view_range: [4, -1] }));
      expect(toEnd).toContain(numbered(['l4', 'l5'], 4).join('\n'));
      expect(toEnd).not.toContain('l3');
      const single = textOf(await run({ command: 'view', path, view_range: [5, 5] }));
      expect(single).toContain(numbered(['l5'], 5).join('\n'));
    });

    it('clamps an end past the file with a note', async ({ box, run }) => {
      const path = await box.write('a.txt', 'l1\nl2\nl3\n');
      const observation = await run({ command: 'view', path, view_range: [2, 10] });
      expect(observation.is_error).toBe(false);
      expect(textOf(observation)).toMatch(/^NOTE: We only show up to 3 since there're only 3 lines in this file\./);
      expect(textOf(observation)).toContain(numbered(['l2', 'l3'], 2).join('\n'));
    });

    it.for<[number[], string]>([
      [[0, 2], 'Its first element `0` should be within the range of lines of the file: [1, 3].'],
      [[4, 5], 'Its first element `4` should be within the range of lines of the file: [1, 3].'],
      [[3, 2], 'Its second element `2` should be greater than or equal to the first element `3`'],
      [[2, -2], 'Its second element `-2` should be greater than or equal to the first element `2`'],
      [[1], 'It should be a list of two integers.'],
      [[1, 2, 3], 'It should be a list of two integers.'],
    ])('refuses the view_range %j clearly', async ([viewRange, message], { box, run }) => {
      const path = await box.write('a.txt', 'l1\nl2\nl3\n');
      const observation = await run({ command: 'view', path, view_range: viewRange });
      expectError(observation, `Invalid \`view_range\` parameter: [${viewRange.join(', ')}].`);
      expect(textOf(observation)).toContain(message);
    });

    it('says when a file is empty', async ({ box, run }) => {
      const path = await box.write('empty.txt', '');
      expect(textOf(await run({ command: 'view', path }))).toBe(`The file ${path} is empty.`);
      const ranged = await run({ command: 'view', path, view_range: [1, 1] });
      expectError(ranged, 'is empty');
    });

    it('truncates huge files at 16,000 characters with a note, on a line boundary', async ({ box, run }) => {
      const lines = Array.from({ length: 5000 }, (_, i) => `line number ${i + 1} of a very long file`);
      const path = await box.write('huge.txt', `${lines.join('\n')}\n`);
      const text = textOf(await run({ command: 'view', path }));
      const [kept, notice] = text.split('<response clipped>');
      expect(kept!.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
      expect(kept!.endsWith('\n')).toBe(true);
      expect(kept!.trimEnd().split('\n').at(-1)).toMatch(/^\s+\d+\tline number \d+ of a very long file$/);
      expect(notice).toContain('only part of this file has been shown');
      expect(text).not.toContain('line number 5000 ');
      const ranged = textOf(await run({ command: 'view', path, view_range: [4999, 5000] }));
      expect(ranged).toContain('line number 5000 of a very long file');
      expect(ranged).not.toContain('<response clipped>');
    });

    it('lists a directory two levels deep, without hidden items', async ({ box, run }) => {
      await box.writeAll({
        'README.md': '# hi',
        'src/index.ts': '',
        'src/lib/deep/too-deep.ts': '',
        '.env': 'SECRET=1',
        'src/.hidden': '',
        'node_modules/pkg/index.js': '',
      });
      const observation = await run({ command: 'view', path: box.workspace });
      const ws = box.workspace;
      expect(textOf(observation)).toBe(
        `Here's the files and directories up to 2 levels deep in ${ws}, excluding hidden items:\n${[
          `${ws}/`,
          `${ws}/README.md`,
          `${ws}/node_modules/`,
          `${ws}/src/`,
          `${ws}/src/index.ts`,
          `${ws}/src/lib/`,
        ].join(
          '\n',
        )}\n\n1 hidden files/directories in this directory are excluded. You can use 'ls -la ${ws}' to see them.`,
      );
    });

    it('refuses a view_range on a directory', async ({ box, run }) => {
      const observation = await run({ command: 'view', path: box.workspace, view_range: [1, 2] });
      expectError(observation, 'not allowed when `path` points to a directory');
    });

    it('refuses binary files with a clear message', async ({ box, run }) => {
      const path = await box.write('blob.bin', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
      const latin1 = await box.write('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      for (const target of [path, latin1]) {
        const observation = await run({ command: 'view', path: target });
        expect(observation.is_error).toBe(true);
        expect(textOf(observation)).toBe(
          `The file ${target} appears to be binary (or is not UTF-8 text); this tool can only read and edit text files.`,
        );
      }
      const edit = await run({ command: 'str_replace', path, old_str: 'E', new_str: 'X' });
      expectError(edit, 'appears to be binary');
    });

    it('shows an image file as image content', async ({ box, run }) => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
      const path = await box.write('pic.png', png);
      const observation = await run({ command: 'view', path });
      expect(observation.is_error).toBe(false);
      expect(observation.content[1]).toEqual({
        type: 'image',
        image_urls: [`data:image/png;base64,${Buffer.from(png).toString('base64')}`],
        cache_prompt: false,
      });
    });

    it('refuses files over 10 MB', async ({ box, run }) => {
      const path = await box.write('big.log', 'x'.repeat(10 * 1024 * 1024 + 1));
      const observation = await run({ command: 'view', path });
      expectError(observation, 'is too large (10.0 MB); the maximum is 10.0 MB');
    });

    it('says when the path does not exist', async ({ box, run }) => {
      const observation = await run({ command: 'view', path: box.path('nope.txt') });
      expect(observation.is_error).toBe(true);
      expect(textOf(observation)).toBe(
        `Invalid \`path\` parameter: ${box.path('nope.txt')}. The path ${box.path('nope.txt')} does not exist. Please provide a valid path.`,
      );
    });

    it('masks secrets in what it returns', async () => {
      const { box, act } = await sandboxFor(createFileEditorTool(), {
        mask: (text) => text.replaceAll('hunter2', '<secret-hidden>'),
      });
      const run = runner(act);
      const path = await box.write('config.ini', 'password=hunter2\n');
      expect(textOf(await run({ command: 'view', path }))).toContain('password=<secret-hidden>');
      const edited = await run({ command: 'str_replace', path, old_str: 'password', new_str: 'pass' });
      expect(edited.old_content).toBe('password=<secret-hidden>\n');
      expect(edited.new_content).toBe('pass=<secret-hidden>\n');
      expect(await box.read('config.ini')).toBe('pass=hunter2\n');
    });
  });

  describe('paths', () => {
    it('requires an absolute path, suggesting the workspace one', async ({ box, run }) => {
      await box.write('src/a.ts', 'x');
      const observation = await run({ command: 'view', path: 'src/a.ts' });
      expect(observation.is_error).toBe(true);
      expect(textOf(observation)).toBe(
        `Invalid \`path\` parameter: src/a.ts. The path should be an absolute path, starting with \`/\`. Maybe you meant ${box.path('src/a.ts')}?`,
      );
      expect(textOf(await run({ command: 'view', path: 'missing.ts' }))).not.toContain('Maybe you meant');
      await writeFile(join(box.outside, 'x.txt'), 'x');
      expect(textOf(await run({ command: 'view', path: '../outside/x.txt' }))).not.toContain('Maybe you meant');
    });

    it('refuses paths outside the workspace, through ".." or symbolic links, for every command', async ({
      box,
      run,
    }) => {
      await writeFile(join(box.outside, 'secret.txt'), 'top secret\n');
      await symlink(box.outside, box.path('escape'));
      await symlink(join(box.outside, 'secret.txt'), box.path('secret-link'));
      const attempts: Args[] = [
        { command: 'view', path: join(box.workspace, '..', 'outside', 'secret.txt') },
        { command: 'view', path: '/etc/passwd' },
        { command: 'view', path: box.path('escape/secret.txt') },
        { command: 'view', path: box.path('secret-link') },
        { command: 'view', path: box.path('escape') },
        { command: 'create', path: box.path('escape/new.txt'), file_text: 'x' },
        { command: 'create', path: join(box.outside, 'new.txt'), file_text: 'x' },
        { command: 'str_replace', path: box.path('secret-link'), old_str: 'top', new_str: 'no' },
        { command: 'insert', path: box.path('secret-link'), insert_line: 0, new_str: 'x' },
        { command: 'undo_edit', path: box.path('secret-link') },
      ];
      for (const args of attempts) {
        const observation = await run(args);
        expect(observation.is_error, JSON.stringify(args)).toBe(true);
        expect(textOf(observation)).toMatch(/outside the workspace/);
        expect(textOf(observation)).not.toContain('top secret');
      }
      expect(await readFile(join(box.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
      await expect(stat(join(box.outside, 'new.txt'))).rejects.toThrow();
    });
  });

  describe('create', () => {
    it('creates a file and its parent directories', async ({ box, run }) => {
      const path = box.path('deep/er/new.ts');
      const observation = await run({ command: 'create', path, file_text: 'export {};\n' });
      expect(observation).toMatchObject({
        is_error: false,
        command: 'create',
        path,
        prev_exist: false,
        old_content: null,
        new_content: 'export {};\n',
      });
      expect(textOf(observation)).toBe(`File created successfully at: ${path}`);
      expect(await box.read('deep/er/new.ts')).toBe('export {};\n');
    });

    it('refuses to overwrite an existing file', async ({ box, run }) => {
      await expectRefusedLeaving(
        box,
        ['a.txt', 'keep me'],
        (path) => run({ command: 'create', path, file_text: 'overwritten' }),
        `File already exists at: ${box.path('a.txt')}. Cannot overwrite files using command \`create\`.`,
      );
      const directory = await run({ command: 'create', path: box.workspace, file_text: 'x' });
      expect(textOf(directory)).toContain('is a directory');
    });

    it('requires file_text', async ({ box, run }) => {
      const observation = await run({ command: 'create', path: box.path('a.txt') });
      expectError(observation, /^Parameter `file_text` is required for command: create\.\n\nHint: /);
    });
  });

  describe('str_replace', () => {
    it('replaces the single occurrence and shows a snippet of the edited region', async ({ box, run }) => {
      const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
      const path = await box.write('a.txt', `${lines.join('\n')}\n`);
      const observation = await run({ command: 'str_replace', path, old_str: 'line 10\n', new_str: 'ten\nTEN\n' });
      const expected = [...lines.slice(0, 9), 'ten', 'TEN', ...lines.slice(10)];
      expect(await box.read('a.txt')).toBe(`${expected.join('\n')}\n`);
      expect(observation).toMatchObject({
        is_error: false,
        command: 'str_replace',
        prev_exist: true,
        old_content: `${lines.join('\n')}\n`,
        new_content: `${expected.join('\n')}\n`,
      });
      expect(textOf(observation)).toBe(
        `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${numbered(expected.slice(5, 16), 6).join('\n')}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`,
      );
    });

    it('refuses a non-unique old_str, listing the lines of each occurrence', async ({ box, run }) => {
      await expectRefusedLeaving(
        box,
        ['a.py', 'x = 1\nprint(x)\ny = 2\nprint(x)\n\nprint(x)\n'],
        (path) => run({ command: 'str_replace', path, old_str: 'print(x)', new_str: 'print(y)' }),
        'No replacement was performed. Multiple occurrences of old_str `print(x)` in lines [2, 4, 6]. Please ensure it is unique',
      );
    });

    it('says when old_str is not found', async ({ box, run }) => {
      const path = await box.write('a.py', 'def f():\n    return 1\n');
      const observation = await run({ command: 'str_replace', path, old_str: 'return 2', new_str: 'return 3' });
      expectError(
        observation,
        `No replacement was performed, old_str \`return 2\` did not appear verbatim in ${path}.`,
      );
    });

    it('falls back to old_str without surrounding whitespace, and matches \\n against CRLF files', async ({
      box,
      run,
    }) => {
      const path = await box.write('a.py', 'def f():\n    return 1\n');
      const trimmed = await run({ command: 'str_replace', path, old_str: '  return 1  \n', new_str: ' return 2 ' });
      expect(trimmed.is_error).toBe(false);
      expect(await box.read('a.py')).toBe('def f():\n    return 2\n');
      const crlf = await box.write('win.txt', 'a\r\nb\r\nc\r\n');
      expect((await run({ command: 'str_replace', path: crlf, old_str: 'a\nb', new_str: 'A\nB' })).is_error).toBe(
        false,
      );
      expect(await box.read('win.txt')).toBe('A\r\nB\r\nc\r\n');
    });

    it('keeps a byte order mark', async ({ box, run }) => {
      const path = await box.write('bom.txt', '\uFEFFfirst\nsecond\n');
      await run({ command: 'str_replace', path, old_str: 'second', new_str: '2nd' });
      expect(await readFile(path)).toEqual(Buffer.from('\uFEFFfirst\n2nd\n'));
    });

    it('deletes old_str when new_str is not given, and refuses identical or empty strings', async ({ box, run }) => {
      const path = await box.write('a.txt', 'keep\ndrop\nkeep too\n');
      expect((await run({ command: 'str_replace', path, old_str: 'drop\n' })).is_error).toBe(false);
      expect(await box.read('a.txt')).toBe('keep\nkeep too\n');
      const same = await run({ command: 'str_replace', path, old_str: 'keep', new_str: 'keep' });
      expect(textOf(same)).toContain('`new_str` and `old_str` must be different');
      const empty = await run({ command: 'str_replace', path, old_str: '', new_str: 'x' });
      expect(textOf(empty)).toContain('Invalid `old_str` parameter');
      const missing = await run({ command: 'str_replace', path, new_str: 'x' });
      expect(textOf(missing)).toMatch(/^Parameter `old_str` is required for command: str_replace\./);
    });

    it('refuses directories for every command but view', async ({ box, run }) => {
      await mkdir(box.path('dir'));
      const observation = await run({ command: 'str_replace', path: box.path('dir'), old_str: 'a', new_str: 'b' });
      expect(textOf(observation)).toContain('is a directory and only the `view` command can be used on directories');
    });
  });

  describe('insert', () => {
    it('inserts after the given line, 0 meaning the top', async ({ box, run }) => {
      const path = await box.write('a.txt', 'one\ntwo\nthree\n');
      const observation = await run({ command: 'insert', path, insert_line: 2, new_str: 'two and a half' });
      expect(await box.read('a.txt')).toBe('one\ntwo\ntwo and a half\nthree\n');
      expect(observation).toMatchObject({
        is_error: false,
        old_content: 'one\ntwo\nthree\n',
        new_content: 'one\ntwo\ntwo and a half\nthree\n',
      });
      expect(textOf(observation)).toContain(numbered(['one', 'two', 'two and a half', 'three']).join('\n'));
      await run({ command: 'insert', path, insert_line: 0, new_str: 'zero\n' });
      expect(await box.read('a.txt')).toBe('zero\none\ntwo\ntwo and a half\nthree\n');
    });

    it('appends after the last line, keeping the file newline convention', async ({ box, run }) => {
      const path = await box.write('a.txt', 'one\ntwo\n');
      await run({ command: 'insert', path, insert_line: 2, new_str: 'three\nfour' });
      expect(await box.read('a.txt')).toBe('one\ntwo\nthree\nfour\n');
      const bare = await box.write('bare.txt', 'one\ntwo');
      await run({ command: 'insert', path: bare, insert_line: 2, new_str: 'three' });
      expect(await box.read('bare.txt')).toBe('one\ntwo\nthree');
      const empty = await box.write('empty.txt', '');
      await run({ command: 'insert', path: empty, insert_line: 0, new_str: 'first' });
      expect(await box.read('empty.txt')).toBe('first\n');
      const crlf = await box.write('crlf.txt', 'a\r\nb\r\n');
      await run({ command: 'insert', path: crlf, insert_line: 1, new_str: 'x\ny' });
      expect(await box.read('crlf.txt')).toBe('a\r\nx\r\ny\r\nb\r\n');
    });

    it('refuses a line past the end, naming the valid range', async ({ box, run }) => {
      await expectRefusedLeaving(
        box,
        ['a.txt', 'one\ntwo\nthree\n'],
        (path) => run({ command: 'insert', path, insert_line: 4, new_str: 'x' }),
        'Invalid `insert_line` parameter: 4. It should be within the range of allowed values: [0, 3]',
      );
    });

    it('requires insert_line and new_str', async ({ box, run }) => {
      const path = await box.write('a.txt', 'one\n');
      expect(textOf(await run({ command: 'insert', path, new_str: 'x' }))).toMatch(
        /^Parameter `insert_line` is required for command: insert\./,
      );
      expect(textOf(await run({ command: 'insert', path, insert_line: 1 }))).toMatch(
        /^Parameter `new_str` is required for command: insert\./,
      );
    });
  });

  describe('undo_edit', () => {
    it('reverts edits one by one, then says there is no history', async ({ box, run }) => {
      const path = await box.write('a.txt', 'v1\n');
      await run({ command: 'str_replace', path, old_str: 'v1', new_str: 'v2' });
      await run({ command: 'insert', path, insert_line: 1, new_str: 'more' });
      const first = await run({ command: 'undo_edit', path });
      expect(first).toMatchObject({ is_error: false, old_content: 'v2\nmore\n', new_content: 'v2\n' });
      expect(textOf(first)).toBe(
        `Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${numbered(['v2']).join('\n')}\n`,
      );
      await run({ command: 'undo_edit', path });
      expect(await box.read('a.txt')).toBe('v1\n');
      const none = await run({ command: 'undo_edit', path });
      expectError(none, `No edit history found for ${path}.`);
    });

    it('says there is no history for a file never edited', async ({ box, run }) => {
      const path = await box.write('a.txt', 'v1\n');
      const observation = await run({ command: 'undo_edit', path });
      expectError(observation, /^No edit history found for /);
    });

    it('removes a file it created, and keeps histories per tool instance', async ({ box, run }) => {
      const path = box.path('new.txt');
      await run({ command: 'create', path, file_text: 'hello\n' });
      const other = createFileEditorTool();
      const elsewhere = await other.execute({ kind: 'FileEditorAction', command: 'undo_edit', path }, box.context);
      expect(elsewhere.is_error).toBe(true);
      const undone = await run({ command: 'undo_edit', path });
      expect(undone).toMatchObject({ is_error: false, old_content: 'hello\n', new_content: null });
      expect(textOf(undone)).toContain('did not exist before that edit, so it was removed');
      await expect(stat(path)).rejects.toThrow();
    });
  });

  it('returns errors as observations for every bad call, never throwing', async ({ box, run }) => {
    const cases: Args[] = [
      { command: 'view', path: '' },
      { command: 'insert', path: box.workspace, insert_line: 0, new_str: 'x' },
      { command: 'undo_edit', path: box.path('missing') },
      { command: 'str_replace', path: box.path('missing'), old_str: 'a' },
    ];
    for (const args of cases) expect((await run(args)).is_error, JSON.stringify(args)).toBe(true);
  });

  it('clips long error messages', async ({ box, run }) => {
    const path = await box.write('a.txt', 'x\n');
    const observation = await run({ command: 'str_replace', path, old_str: 'y'.repeat(40_000), new_str: 'z' });
    expect(observation.is_error).toBe(true);
    expect(textOf(observation).length).toBeLessThan(MAX_OUTPUT_CHARS + 200);
  });
});
