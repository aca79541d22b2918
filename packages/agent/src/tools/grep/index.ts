import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { compileGlob, normalizeGlob } from '@bosun/sources';
import type { SearchToolOptions } from '../glob/index.ts';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import { guard } from '../shared/errors.ts';
import { MAX_SEARCH_RESULTS, newestFirst } from '../shared/newest-first.ts';
import { ripgrepFor } from '../shared/ripgrep.ts';
import { resolveSearchTarget } from '../shared/search-path.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { ToolInputError } from '../workspace-path.ts';
import { fileMatches, grepRegExp, grepWithNode, grepWithRipgrep } from './search.ts';

type GrepAction = ActionOf<'GrepAction'>;
type GrepObservation = ObservationOf<'GrepObservation'>;

const DESCRIPTION = `Fast content search: finds the files whose content matches a regular expression.
* Supports full regex syntax (eg. "log.*Error", "function\\s+\\w+", "^import .* from"); the match is case-insensitive and never spans lines
* Filter files with the \`include\` glob (eg. "*.js", "*.{ts,tsx}", "src/**/*.py"); a glob without "/" matches file names at any depth
* Searches \`path\` (a directory, or a single file; the workspace by default)
* Hidden files and directories (names starting with "."), node_modules and binary files are skipped
* Returns the paths (absolute) of the matching files, most recently modified first, not the matching lines: use the file editor or read_file to look at them
* Only the first ${MAX_SEARCH_RESULTS} results are returned. Use a stricter pattern, an \`include\` filter or a \`path\` if you need more.`;

/** The `grep` tool: files whose content matches a regex, newest first, through ripgrep when it is installed. */
export function createGrepTool(options: SearchToolOptions = {}): Tool<GrepAction, GrepObservation> {
  const execute = (action: GrepAction, context: ToolContext) => grep(action, context, options);
  return builtInTool('grep', 'Grep', { description: DESCRIPTION, hints: READS_ONLY, execute });
}

async function grep(action: GrepAction, context: ToolContext, options: SearchToolOptions): Promise<GrepObservation> {
  let searchPath = action.path?.trim() || context.workspace;
  const includePattern = action.include?.trim() ? normalizeGlob(action.include) : null;
  const observation = (text: string, fields: Partial<GrepObservation> = {}): GrepObservation => ({
    ...textObservation('GrepObservation', context.mask(text)),
    matches: [],
    pattern: action.pattern,
    search_path: searchPath,
    include_pattern: action.include ?? null,
    truncated: false,
    ...fields,
  });
  return guard(
    async () => {
      if (action.pattern === '') throw new ToolInputError('The regex pattern is empty.');
      const target = await resolveSearchTarget(context.workspace, action.path, true);
      searchPath = target.absolute;
      const include = includePattern ? compileGlob(includePattern) : undefined;
      let regexp: RegExp | undefined;
      let regexpError: ToolInputError | undefined;
      try {
        regexp = grepRegExp(action.pattern);
      } catch (error) {
        regexpError = error as ToolInputError;
      }
      const ripgrep = target.isFile ? null : await ripgrepFor(options.ripgrep);
      let found: string[] | undefined;
      if (ripgrep) {
        const result = await grepWithRipgrep(
          ripgrep,
          action.pattern,
          includePattern ?? undefined,
          searchPath,
          context.signal,
        );
        // A pattern ripgrep's regex syntax refuses (look-around, say) is searched with JavaScript's below.
        if (result.ok) found = result.files;
        else if (!result.regexError || !regexp) {
          throw new ToolInputError(regexpError?.message ?? `The search failed: ${result.error}`);
        }
      }
      if (!found) {
        if (!regexp) throw regexpError!;
        if (target.isFile) found = (await fileMatches(searchPath, regexp)) ? [searchPath] : [];
        else found = await grepWithNode(regexp, include, searchPath, context.signal);
      }
      const { files, truncated } = await newestFirst(found);
      const filter = action.include ? ` (filtered by '${action.include}')` : '';
      if (files.length === 0) {
        return observation(
          `No files found containing pattern '${action.pattern}' in directory '${searchPath}'${filter}`,
        );
      }
      let text = `Found ${files.length} file(s) containing pattern '${action.pattern}' in '${searchPath}'${filter}:\n${files.join('\n')}`;
      if (truncated) {
        text += `\n\n[Results truncated to the ${MAX_SEARCH_RESULTS} most recently modified files. Use a more specific pattern, include or path.]`;
      }
      return observation(text, { matches: files, truncated });
    },
    (message) => observation(message, { is_error: true }),
  );
}
