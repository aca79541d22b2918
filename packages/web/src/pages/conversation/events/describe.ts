import type { Action } from '@bosun/protocol';
import type { ActionEvent } from '../timeline/model.ts';

/** A short line saying what an action does, for a person ("Ran `ls`", "Edited src/a.ts"). */
export interface ActionLine {
  /** What it does. */
  verb: string;
  /** Its object, shown in monospace (a command, a path, a pattern), if any. */
  target?: string | undefined;
  icon: string;
}

const trim = (text: string, max = 160) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max || text.trim().includes('\n') ? `${line.slice(0, max)}…` : line;
};

export function describeAction(event: ActionEvent): ActionLine {
  const action = event.action as Action | null | undefined;
  if (!action) return { verb: `Could not run ${event.tool_name}`, icon: '⚠' };
  switch (action.kind) {
    case 'TerminalAction':
      if (action.is_input) return { verb: 'Sent to the running command', target: trim(action.command), icon: '⌨' };
      if (!action.command) return { verb: 'Read more output of the running command', icon: '⌨' };
      return { verb: 'Ran', target: trim(action.command), icon: '$' };
    case 'FileEditorAction':
    case 'PlanningFileEditorAction': {
      const verbs = {
        view: 'Viewed',
        create: 'Created',
        str_replace: 'Edited',
        insert: 'Inserted into',
        undo_edit: 'Undid the last edit of',
      } as const;
      return { verb: verbs[action.command], target: action.path, icon: action.command === 'view' ? '≡' : '✎' };
    }
    case 'EditAction':
      return { verb: action.old_string ? 'Edited' : 'Created', target: action.file_path, icon: '✎' };
    case 'WriteFileAction':
      return { verb: 'Wrote', target: action.file_path, icon: '✎' };
    case 'ReadFileAction':
      return { verb: 'Read', target: action.file_path, icon: '≡' };
    case 'ListDirectoryAction':
      return { verb: action.recursive ? 'Listed (recursively)' : 'Listed', target: action.dir_path, icon: '☰' };
    case 'GlobAction':
      return { verb: 'Found files matching', target: action.pattern, icon: '⌕' };
    case 'GrepAction':
      return { verb: 'Searched for', target: action.pattern, icon: '⌕' };
    case 'TaskTrackerAction':
      return { verb: action.command === 'plan' ? 'Updated the task list' : 'Read the task list', icon: '☑' };
    case 'ThinkAction':
      return { verb: 'Thought', icon: '✻' };
    case 'FinishAction':
      return { verb: 'Finished', icon: '✓' };
    case 'MCPToolAction':
      return { verb: `Used the tool ${event.tool_name}`, icon: '⚙' };
    case 'BrowserNavigateAction':
      return { verb: action.new_tab ? 'Opened in a new tab' : 'Opened', target: action.url, icon: '⊕' };
    case 'BrowserClickAction':
      return { verb: `Clicked element ${action.index} of the page`, icon: '⊕' };
    case 'BrowserTypeAction':
      return { verb: `Typed into element ${action.index}`, target: trim(action.text, 80), icon: '⊕' };
    case 'BrowserGetStateAction':
      return { verb: 'Looked at the page', icon: '⊕' };
    case 'BrowserGetContentAction':
      return { verb: 'Read the page', icon: '⊕' };
    case 'BrowserScrollAction':
      return { verb: `Scrolled ${action.direction}`, icon: '⊕' };
    case 'BrowserGoBackAction':
      return { verb: 'Went back', icon: '⊕' };
    case 'BrowserListTabsAction':
      return { verb: 'Listed the tabs', icon: '⊕' };
    case 'BrowserSwitchTabAction':
      return { verb: 'Switched to tab', target: action.tab_id, icon: '⊕' };
    case 'BrowserCloseTabAction':
      return { verb: 'Closed tab', target: action.tab_id, icon: '⊕' };
    case 'BrowserGetStorageAction':
      return { verb: 'Read the cookies and storage', icon: '⊕' };
    case 'BrowserSetStorageAction':
      return { verb: 'Restored the cookies and storage', icon: '⊕' };
    case 'BrowserStartRecordingAction':
      return { verb: 'Started recording the browser', icon: '●' };
    case 'BrowserStopRecordingAction':
      return { verb: 'Stopped recording the browser', icon: '■' };
    default:
      return { verb: `Used ${event.tool_name}`, icon: '⚙' };
  }
}

/** The tool call's arguments, pretty-printed when they are JSON. */
export function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

const IMPERATIVE: Record<string, string> = {
  Ran: 'Run',
  Viewed: 'View',
  Created: 'Create',
  Edited: 'Edit',
  'Inserted into': 'Insert into',
  'Undid the last edit of': 'Undo the last edit of',
  Wrote: 'Write',
  Read: 'Read',
  Listed: 'List',
  'Listed (recursively)': 'List (recursively)',
  'Found files matching': 'Find files matching',
  'Searched for': 'Search for',
  'Updated the task list': 'Update the task list',
  'Read the task list': 'Read the task list',
  Opened: 'Open',
  'Opened in a new tab': 'Open in a new tab',
  'Sent to the running command': 'Send to the running command',
};

/** The line of an action that has not run (yet): "Run `ls`" rather than "Ran `ls`". */
export function notYet(line: ActionLine): ActionLine {
  const verb = IMPERATIVE[line.verb];
  return verb ? { ...line, verb } : line;
}
