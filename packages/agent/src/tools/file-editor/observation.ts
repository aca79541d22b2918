import type { ImageContent, ObservationOf, TextContent } from '@bosun/protocol';
import { guard } from '../shared/errors.ts';
import { MAX_OUTPUT_CHARS, truncateText } from '../shared/text.ts';
import type { ToolContext } from '../tool.ts';
import type { EditorResult, FileEditor, FileEditorArguments } from './editor.ts';

type EditorObservationKind = 'FileEditorObservation' | 'PlanningFileEditorObservation';

const ERROR_CLIPPED = '<response clipped><NOTE>The message was too long and has been clipped.</NOTE>';

/**
 * Runs one command on `editor` and returns it as an observation of `kind`: file content is masked, problems of
 * the call become `is_error` observations.
 */
export async function runEditorCommand<K extends EditorObservationKind>(
  editor: FileEditor,
  kind: K,
  args: FileEditorArguments,
  context: ToolContext,
): Promise<ObservationOf<K>> {
  const mask = (text: string | null) => (text === null ? null : context.mask(text));
  return guard(
    async () => {
      const result: EditorResult = await editor.run(args, context.workspace);
      const content: Array<TextContent | ImageContent> = [
        { type: 'text', text: context.mask(result.text), cache_prompt: false },
      ];
      if (result.imageUrl) content.push({ type: 'image', image_urls: [result.imageUrl], cache_prompt: false });
      return {
        kind,
        content,
        is_error: false,
        command: args.command,
        path: result.path,
        prev_exist: result.prevExist,
        old_content: mask(result.oldContent),
        new_content: mask(result.newContent),
      } as ObservationOf<K>;
    },
    (message) =>
      ({
        kind,
        content: [
          {
            type: 'text',
            text: context.mask(truncateText(message, MAX_OUTPUT_CHARS, ERROR_CLIPPED).text),
            cache_prompt: false,
          },
        ],
        is_error: true,
        command: args.command,
        path: args.path,
        prev_exist: true,
        old_content: null,
        new_content: null,
      }) as ObservationOf<K>,
  );
}
