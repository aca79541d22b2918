import { describe, expect, it } from 'vitest';
import { createGrepTool } from '../../src/tools/grep/index.ts';
import { MAX_SEARCH_RESULTS } from '../../src/tools/shared/newest-first.ts';
import * as search from './search-fixture.ts';
import { type Sandbox, expectError, sandbox, textOf, valid } from './support.ts';

const NO_RIPGREP = 'ripgrep is not installed (apt-get install ripgrep): only the search without it is tested';

function runner(box: Sandbox, setting: string | false) {
  const tool = createGrepTool({ ripgrep: setting });
  return async (pattern: string, options: { path?: string; include?: string } = {}) =>
    valid(await tool.execute({ kind: 'GrepAction', pattern, ...options }, box.context));
}

const CASES: ReadonlyArray<readonly [string, string | undefined, string[]]> = [
  ['needle', undefined, ['src/index.ts', 'src/util/strings.ts', 'lib/legacy.js', 'README.md']],
  ['needle', '*.{ts,js}', ['src/index.ts', 'src/util/strings.ts', 'lib/legacy.js']],
  ['needle', 'src/**', ['src/index.ts', 'src/util/strings.ts']],
  ['needle', '!*.md', ['src/index.ts', 'src/util/strings.ts', 'lib/legacy.js']],
  ['^export function \\w+\\(', undefined, ['src/index.ts', 'src/util/strings.ts']],
  ['function\\s+legacy', undefined, ['lib/legacy.js']],
  ['return s;$', undefined, []],
  ['return s; // needle$', undefined, ['src/util/strings.ts']],
  ['(?<=find the )needle', undefined, ['README.md']],
  ['Project\\nFind', undefined, []],
  ['[Bb]utton', '*.tsx', ['src/components/Button.tsx']],
  ['absent-text', undefined, []],
];

describe('grep', () => {
  for (const implementation of search.implementations) {
    describe(implementation.name, () => {
      it.each(CASES)(
        '/%s/ (include %s) finds files case-insensitively, newest first, skipping hidden, dependencies and binaries',
        async (pattern, include, expected) => {
          const box = await search.fixtureSandbox();
          const observation = await runner(box, implementation.setting)(pattern, include ? { include } : {});
          expect(observation).toMatchObject({
            kind: 'GrepObservation',
            is_error: false,
            pattern,
            search_path: box.workspace,
            include_pattern: include ?? null,
            truncated: false,
          });
          expect(search.relativeTo(box, observation.matches)).toEqual(expected);
        },
      );

      it('searches a given directory or a single file', async () => {
        const box = await search.fixtureSandbox();
        const run = runner(box, implementation.setting);
        const inSrc = await run('needle', { path: 'src' });
        expect(inSrc.search_path).toBe(box.path('src'));
        expect(search.relativeTo(box, inSrc.matches)).toEqual(['src/index.ts', 'src/util/strings.ts']);
        expect(search.relativeTo(box, (await run('needle', { path: box.path('README.md') })).matches)).toEqual([
          'README.md',
        ]);
        expect((await run('absent', { path: 'README.md' })).matches).toEqual([]);
      });

      it(`returns the ${MAX_SEARCH_RESULTS} newest matching files and says it truncated`, async () => {
        const box = await sandbox();
        await search.writeNumberedFiles(box, 120, (i) => `line\nmatch ${i}\n`);
        const observation = await runner(box, implementation.setting)('match \\d+');
        search.expectNewestNumberedFiles(box, observation, observation.matches, 120);
      });

      it('reports bad patterns, includes and paths as errors', async () => {
        const box = await search.fixtureSandbox();
        const run = runner(box, implementation.setting);
        const cases: Array<[string, { path?: string; include?: string }, RegExp]> = [
          ['(unclosed', {}, /Invalid regex pattern|regex parse error/],
          ['', {}, /empty/],
          ['needle', { include: '[oops' }, /unclosed character class/],
          ['needle', { path: 'missing' }, /not a valid directory/],
          ['needle', { path: '..' }, /outside the workspace/],
          ['needle', { path: 'escape' }, /outside the workspace/],
        ];
        for (const [pattern, options, message] of cases) {
          const observation = await run(pattern, options);
          search.expectRefused(observation, observation.matches, message, `${pattern} ${JSON.stringify(options)}`);
        }
      });
    });
  }

  it('lists what it found for the LLM, with the filter', async () => {
    const box = await search.fixtureSandbox();
    const observation = await runner(box, false)('needle', { include: '*.md' });
    expect(textOf(observation)).toBe(
      `Found 1 file(s) containing pattern 'needle' in '${box.workspace}' (filtered by '*.md'):\n${box.path('README.md')}`,
    );
    const none = await runner(box, false)('absent');
    expect(textOf(none)).toBe(`No files found containing pattern 'absent' in directory '${box.workspace}'`);
  });

  it('gives the same results with ripgrep and without, for every case', async (context) => {
    if (!search.ripgrep) context.skip(NO_RIPGREP);
    const box = await search.fixtureSandbox();
    const pure = runner(box, false);
    const rg = runner(box, search.ripgrep!);
    for (const [pattern, include] of CASES) {
      const options = include ? { include } : {};
      const [viaRipgrep, viaNode] = [await rg(pattern, options), await pure(pattern, options)];
      expect([viaRipgrep.is_error, viaRipgrep.matches], pattern).toEqual([viaNode.is_error, viaNode.matches]);
    }
  });

  it('uses ripgrep for patterns only its regex syntax accepts', async (context) => {
    if (!search.ripgrep) context.skip(NO_RIPGREP);
    const box = await search.fixtureSandbox();
    const observation = await runner(box, search.ripgrep!)('(?i)NEEDLE HERE');
    expect(search.relativeTo(box, observation.matches)).toEqual(['README.md']);
    const pure = await runner(box, false)('(?i)NEEDLE HERE');
    expectError(pure, /^Invalid regex pattern/);
  });
});
