import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { compileGlob, normalizeGlob } from '@bosun/sources';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { MAX_SEARCH_RESULTS, newestFirst } from '../shared/newest-first.ts';
import { type RipgrepSetting, ripgrepFor } from '../shared/ripgrep.ts';
import { resolveSearchTarget, splitAbsolutePattern } from '../shared/search-path.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { globWithNode, globWithRipgrep } from './search.ts';

type GlobAction = ActionOf<'GlobAction'>;
type GlobObservation = ObservationOf<'GlobObservation'>;

export interface SearchToolOptions {
  /** Which ripgrep to use; `'auto'` (the default) uses `rg` from `PATH` when there is one. */
  ripgrep?: RipgrepSetting;
}

const DESCRIPTION = `Fast file pattern matching: finds files by name with a glob pattern.
* Supports glob patterns like "**/*.js", "src/**/*.ts" or "*.{json,yaml,yml}"
* A pattern without "/" matches file names at any depth ("*.py" finds every Python file); a pattern with "/" is relative to the searched directory ("src/*.ts" finds only files directly in src/)
* \`*\` and \`?\` never match "/", \`**\` matches any number of directories, \`[abc]\`/\`[!abc]\` match one character, \`{a,b}\` matches either alternative, and a leading "!" selects the files that do NOT match
* Searches \`path\` (a directory; the workspace by default); an absolute pattern such as "/workspace/src/**/*.ts" searches from the directory before its first wildcard
* Hidden files and directories (names starting with ".") and node_modules are skipped; symbolic links are not followed
* Returns matching file paths (absolute), most recently modified first
* Only the first ${MAX_SEARCH_RESULTS} results are returned. Narrow the pattern or give a \`path\` if you need more.

Examples:
- Find all JavaScript files: "**/*.js"
- Find TypeScript files in src: "src/**/*.ts"
- Find Python test files: "**/test_*.py"
- Find configuration files: "**/*.{json,yaml,yml,toml}"`;

/** The `glob` tool: files by name pattern, newest first, through ripgrep when it is installed. */
export function createGlobTool(options: SearchToolOptions = {}): Tool<GlobAction, GlobObservation> {
  const execute = (action: GlobAction, context: ToolContext) => glob(action, context, options);
  return builtInTool('glob', 'Glob', { description: DESCRIPTION, hints: READS_ONLY, execute });
}

async function glob(action: GlobAction, context: ToolContext, options: SearchToolOptions): Promise<GlobObservation> {
  let searchPath = action.path?.trim() || context.workspace;
  const observation = (text: string, fields: Partial<GlobObservation> = {}): GlobObservation => ({
    ...textObservation('GlobObservation', context.mask(text)),
    files: [],
    pattern: action.pattern,
    search_path: searchPath,
    truncated: false,
    ...fields,
  });
  return guard(
    async () => {
      let pattern = normalizeGlob(action.pattern);
      let base = action.path;
      if (pattern.startsWith('/')) ({ base, pattern } = splitAbsolutePattern(pattern));
      const target = await resolveSearchTarget(context.workspace, base);
      searchPath = target.absolute;
      const matcher = compileGlob(pattern);
      const ripgrep = await ripgrepFor(options.ripgrep);
      const candidates = ripgrep
        ? await globWithRipgrep(ripgrep, pattern, searchPath, context.signal)
        : await globWithNode(matcher, searchPath, context.signal);
      const { files, truncated } = await newestFirst(candidates);
      if (files.length === 0) {
        return observation(`No files found matching pattern '${action.pattern}' in directory '${searchPath}'`);
      }
      let text = `Found ${files.length} file(s) matching pattern '${action.pattern}' in '${searchPath}':\n${files.join('\n')}`;
      if (truncated) {
        text += `\n\n[Results truncated to the ${MAX_SEARCH_RESULTS} most recently modified files. Use a more specific pattern or path.]`;
      }
      return observation(text, { files, truncated });
    },
    (message) => observation(message, { is_error: true }),
  );
}
