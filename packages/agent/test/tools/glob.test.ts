import { describe, expect, it } from 'vitest';
import { createGlobTool } from '../../src/tools/glob/index.ts';
import { MAX_SEARCH_RESULTS } from '../../src/tools/shared/newest-first.ts';
import * as search from './search-fixture.ts';
import { type Sandbox, sandbox, textOf, valid } from './support.ts';

const NO_RIPGREP = 'ripgrep is not installed (apt-get install ripgrep): only the search without it is tested';

function runner(box: Sandbox, setting: string | false) {
  const tool = createGlobTool({ ripgrep: setting });
  return async (pattern: string, path?: string) =>
    valid(await tool.execute({ kind: 'GlobAction', pattern, ...(path ? { path } : {}) }, box.context));
}

// Every `.ts` file of the sandbox: `*.ts` (no slash) matches at any depth, like `**/*.ts`.
const EVERY_TS_FILE = [
  'data/blob.ts',
  'src/util/strings.test.ts',
  'src/index.ts',
  'src/util/strings.ts',
  'build/out.ts',
  'src/[special].ts',
];

const CASES: ReadonlyArray<readonly [string, string[]]> = [
  ['**/*.ts', EVERY_TS_FILE],
  ['*.ts', EVERY_TS_FILE],
  ['src/*.ts', ['src/index.ts', 'src/[special].ts']],
  ['./src/*.ts', ['src/index.ts', 'src/[special].ts']],
  ['src/**/*.ts', ['src/util/strings.test.ts', 'src/index.ts', 'src/util/strings.ts', 'src/[special].ts']],
  ['*.{md,tsx}', ['src/components/Button.tsx', 'README.md', 'docs/guide.md']],
  ['**/util/*', ['src/util/strings.test.ts', 'src/util/strings.ts']],
  ['src/\\[special\\].ts', ['src/[special].ts']],
  ['!*.ts', ['src/components/Button.tsx', 'lib/legacy.js', 'README.md', 'docs/guide.md']],
  ['!{src,data}', ['lib/legacy.js', 'README.md', 'docs/guide.md', 'build/out.ts']],
  ['nothing-*', []],
];

describe('glob', () => {
  for (const implementation of search.implementations) {
    describe(implementation.name, () => {
      it.each(CASES)(
        '%s finds files newest first, skipping hidden, node_modules and links',
        async (pattern, expected) => {
          const box = await search.fixtureSandbox();
          const observation = await runner(box, implementation.setting)(pattern);
          expect(observation).toMatchObject({
            kind: 'GlobObservation',
            is_error: false,
            pattern,
            search_path: box.workspace,
            truncated: false,
          });
          expect(search.relativeTo(box, observation.files)).toEqual(expected);
        },
      );

      it('searches a given path, relative or absolute, and absolute patterns', async () => {
        const box = await search.fixtureSandbox();
        const run = runner(box, implementation.setting);
        const relative = await run('*.ts', 'src/util');
        expect(relative.search_path).toBe(box.path('src/util'));
        expect(search.relativeTo(box, relative.files)).toEqual(['src/util/strings.test.ts', 'src/util/strings.ts']);
        expect(search.relativeTo(box, (await run('**/*.ts', box.path('src'))).files)).toHaveLength(4);
        const absolute = await run(`${box.workspace}/src/*.ts`);
        expect(absolute.search_path).toBe(box.path('src'));
        expect(search.relativeTo(box, absolute.files)).toEqual(['src/index.ts', 'src/[special].ts']);
        expect(search.relativeTo(box, (await run(box.path('README.md'))).files)).toEqual(['README.md']);
      });

      it(`returns the ${MAX_SEARCH_RESULTS} newest files and says it truncated`, async () => {
        const box = await sandbox();
        await search.writeNumberedFiles(box, 130, () => '');
        const observation = await runner(box, implementation.setting)('many/*.txt');
        search.expectNewestNumberedFiles(box, observation, observation.files, 130);
      });

      it('reports bad patterns and paths as errors', async () => {
        const box = await search.fixtureSandbox();
        const run = runner(box, implementation.setting);
        const cases: Array<[string, string | undefined, RegExp]> = [
          ['src/[a', undefined, /unclosed character class/],
          ['{a,{b}}', undefined, /nested alternate groups/],
          ['*.ts', 'missing-dir', /is not a valid directory/],
          ['*.ts', 'README.md', /is not a valid directory/],
          ['*.ts', '..', /outside the workspace/],
          ['*.ts', 'escape', /outside the workspace/],
          ['/etc/*.conf', undefined, /outside the workspace/],
        ];
        for (const [pattern, path, message] of cases) {
          const observation = await run(pattern, path);
          search.expectRefused(observation, observation.files, message, `${pattern} in ${path}`);
        }
      });
    });
  }

  it('says when nothing matches', async () => {
    const box = await sandbox();
    const observation = await runner(box, false)('*.nothing');
    expect(textOf(observation)).toBe(`No files found matching pattern '*.nothing' in directory '${box.workspace}'`);
  });

  it('lists what it found for the LLM', async () => {
    const box = await search.fixtureSandbox();
    const observation = await runner(box, false)('src/*.ts');
    expect(textOf(observation)).toBe(
      `Found 2 file(s) matching pattern 'src/*.ts' in '${box.workspace}':\n${box.path('src/index.ts')}\n${box.path('src/[special].ts')}`,
    );
  });

  it('stops when the run is aborted', async () => {
    const box = await search.fixtureSandbox();
    const controller = new AbortController();
    controller.abort();
    const tool = createGlobTool({ ripgrep: false });
    const observation = await tool.execute(
      { kind: 'GlobAction', pattern: '**/*' },
      { ...box.context, signal: controller.signal },
    );
    expect(observation.is_error).toBe(true);
    expect(textOf(observation)).toBe('The operation was cancelled.');
  });

  it('gives the same results with ripgrep and without, for every case', async (context) => {
    if (!search.ripgrep) context.skip(NO_RIPGREP);
    const box = await search.fixtureSandbox();
    const pure = runner(box, false);
    const rg = runner(box, search.ripgrep!);
    for (const [pattern] of CASES) {
      const [viaRipgrep, viaNode] = [await rg(pattern), await pure(pattern)];
      expect([viaRipgrep.is_error, viaRipgrep.files], pattern).toEqual([viaNode.is_error, viaNode.files]);
    }
  });
});
