import type { Action, ActionOf, ToolDefinitionKind } from '@bosun/protocol';
import { defineTool } from '../shared/definition.ts';
import type { Tool, ToolContext } from '../tool.ts';
import { pageContent } from './content.ts';
import { BROWSER_DESCRIPTIONS, type BrowserToolName } from './descriptions.ts';
import { click, scroll, type } from './interaction.ts';
import { goBack, navigate } from './navigation.ts';
import { type BrowserObservation, type ObservationParts, browserObservation, problemText } from './observation.ts';
import { pageState } from './page-state.ts';
import { RecordingControl } from './recording-control.ts';
import { BrowserSession, type BrowserSessionOptions, type SessionLease } from './session.ts';
import { getStorage, setStorage } from './storage.ts';
import { closeTab, listTabs, switchTab } from './tab-actions.ts';

export type BrowserToolSetOptions = BrowserSessionOptions;

type Outcome = string | ObservationParts;
type Perform<K extends Action['kind']> = (
  action: ActionOf<K>,
  lease: SessionLease,
  context: ToolContext,
) => Promise<Outcome>;

interface Hints {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
}

/**
 * The browser tools (`browser_tool_set`): one function per browser action, all driving one Chromium of their
 * own (one per conversation), started on the first action. Closing any of them closes the browser.
 */
export function createBrowserToolSet(options: BrowserToolSetOptions = {}): Tool[] {
  const session = new BrowserSession(options);
  const recording = new RecordingControl(session);
  let closing: Promise<void> | undefined;
  // Every tool of the set closes the same browser; the first call does it, the others wait for it.
  const close = () => {
    closing ??= (async () => {
      await recording.close();
      await session.close();
    })();
    return closing;
  };

  async function execute<K extends Action['kind']>(
    action: ActionOf<K>,
    context: ToolContext,
    perform: Perform<K>,
  ): Promise<BrowserObservation> {
    if (context.signal.aborted) {
      return browserObservation(
        { text: 'The browser action was not run: the run was stopped.', isError: true },
        context,
      );
    }
    try {
      return await session.perform(async (lease) => {
        try {
          const outcome = await perform(action, lease, context);
          const parts = typeof outcome === 'string' ? { text: outcome } : outcome;
          return browserObservation({ ...parts, notices: lease.notices }, context);
        } catch (error) {
          const text = problemText(error);
          if (text === undefined) throw error;
          return browserObservation({ text, isError: true, notices: lease.notices }, context);
        }
      });
    } catch (error) {
      // The browser could not start, or the tool set is closed.
      const text = problemText(error);
      if (text === undefined) throw error;
      return browserObservation({ text, isError: true }, context);
    }
  }

  function tool<K extends Action['kind']>(
    name: BrowserToolName,
    toolKind: Exclude<ToolDefinitionKind, 'MCPToolDefinition'>,
    actionKind: K,
    hints: Hints,
    perform: Perform<K>,
  ): Tool {
    return defineTool<Action, BrowserObservation>({
      name,
      toolKind,
      actionKind,
      observationKind: 'BrowserObservation',
      description: BROWSER_DESCRIPTIONS[name],
      hints: {
        readOnly: hints.readOnly ?? false,
        destructive: hints.destructive ?? false,
        idempotent: hints.idempotent ?? false,
        openWorld: true,
      },
      execute: (action, context) => execute(action as ActionOf<K>, context, perform),
      close,
    });
  }

  return [
    tool('browser_navigate', 'BrowserNavigateTool', 'BrowserNavigateAction', {}, (action, lease, context) =>
      navigate(session, lease, action, context.signal),
    ),
    tool('browser_click', 'BrowserClickTool', 'BrowserClickAction', {}, (action, lease) =>
      click(session, lease, action),
    ),
    tool('browser_type', 'BrowserTypeTool', 'BrowserTypeAction', { idempotent: true }, (action, lease) =>
      type(lease, action),
    ),
    tool(
      'browser_get_state',
      'BrowserGetStateTool',
      'BrowserGetStateAction',
      { readOnly: true, idempotent: true },
      async (action, lease) => pageState(await lease.page(), lease.tabs, action.include_screenshot ?? false),
    ),
    tool(
      'browser_get_content',
      'BrowserGetContentTool',
      'BrowserGetContentAction',
      { readOnly: true, idempotent: true },
      async (action, lease) => pageContent(await lease.page(), action),
    ),
    tool('browser_scroll', 'BrowserScrollTool', 'BrowserScrollAction', {}, (action, lease) => scroll(lease, action)),
    tool('browser_go_back', 'BrowserGoBackTool', 'BrowserGoBackAction', {}, (_action, lease) => goBack(session, lease)),
    tool(
      'browser_list_tabs',
      'BrowserListTabsTool',
      'BrowserListTabsAction',
      { readOnly: true, idempotent: true },
      (_action, lease) => listTabs(lease),
    ),
    tool(
      'browser_switch_tab',
      'BrowserSwitchTabTool',
      'BrowserSwitchTabAction',
      { idempotent: true },
      (action, lease) => switchTab(lease, action),
    ),
    tool('browser_close_tab', 'BrowserCloseTabTool', 'BrowserCloseTabAction', { destructive: true }, (action, lease) =>
      closeTab(lease, action),
    ),
    tool(
      'browser_get_storage',
      'BrowserGetStorageTool',
      'BrowserGetStorageAction',
      { idempotent: true },
      async (_action, lease, context) => {
        const read = await getStorage(lease.context, context.stateDir);
        return { text: read.text, ...(read.savedDir ? { fullOutputSaveDir: read.savedDir } : {}) };
      },
    ),
    tool(
      'browser_set_storage',
      'BrowserSetStorageTool',
      'BrowserSetStorageAction',
      { destructive: true, idempotent: true },
      (action, lease) => setStorage(lease.context, action),
    ),
    tool(
      'browser_start_recording',
      'BrowserStartRecordingTool',
      'BrowserStartRecordingAction',
      {},
      (_a, lease, context) => recording.start(lease, context.stateDir),
    ),
    tool('browser_stop_recording', 'BrowserStopRecordingTool', 'BrowserStopRecordingAction', {}, () =>
      recording.stop(),
    ),
  ];
}
