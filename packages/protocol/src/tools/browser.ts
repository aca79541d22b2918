import { Type } from '@sinclair/typebox';
import { nullable, openObject, stringEnum, withDefault } from '../schema/builders.ts';
import { action, observation, toolDefinition, toolShapes } from './shapes.ts';

/** Browser actions. Elements are addressed by the `index` the page state lists; tabs by a 4-character id. */

const elementIndex = () => Type.Integer({ minimum: 0, description: 'Index of an interactive element of the page.' });
const tabId = () => Type.String({ minLength: 4, maxLength: 4, description: 'A 4-character tab id.' });

export const BrowserAction = action('BrowserAction', 'Base shape of browser actions.');

export const BrowserNavigateAction = action('BrowserNavigateAction', 'Open a URL.', {
  url: Type.String({ description: 'The URL to open.' }),
  new_tab: withDefault(Type.Boolean({ description: 'Open in a new tab.' }), false),
});

export const BrowserClickAction = action('BrowserClickAction', 'Click an interactive element.', {
  index: elementIndex(),
  new_tab: withDefault(Type.Boolean({ description: 'Open the link in a new tab.' }), false),
});

export const BrowserTypeAction = action('BrowserTypeAction', 'Type text into an input element.', {
  index: elementIndex(),
  text: Type.String({ description: 'The text to type.' }),
});

export const BrowserGetStateAction = action(
  'BrowserGetStateAction',
  "List the page's interactive elements, optionally with a screenshot.",
  { include_screenshot: withDefault(Type.Boolean(), false) },
);

export const BrowserGetContentAction = action('BrowserGetContentAction', 'Read the page as text.', {
  extract_links: withDefault(Type.Boolean(), false),
  start_from_char: withDefault(Type.Integer({ minimum: 0, description: 'Offset to page through long content.' }), 0),
});

export const BrowserScrollAction = action('BrowserScrollAction', 'Scroll the page.', {
  direction: withDefault(stringEnum(['up', 'down']), 'down'),
});

export const BrowserGoBackAction = action('BrowserGoBackAction', 'Go back in history.');
export const BrowserListTabsAction = action('BrowserListTabsAction', 'List open tabs.');

export const BrowserSwitchTabAction = action('BrowserSwitchTabAction', 'Switch to a tab.', { tab_id: tabId() });

export const BrowserCloseTabAction = action('BrowserCloseTabAction', 'Close a tab.', { tab_id: tabId() });

export const BrowserGetStorageAction = action('BrowserGetStorageAction', 'Read cookies and local storage.');

export const BrowserSetStorageAction = action('BrowserSetStorageAction', 'Restore cookies and local storage.', {
  storage_state: openObject({ description: 'Cookies and origins, as a storage state.' }),
});

export const BrowserStartRecordingAction = action('BrowserStartRecordingAction', 'Start recording the session.');

export const BrowserStopRecordingAction = action(
  'BrowserStopRecordingAction',
  'Stop recording and save the recording.',
);

export const BrowserObservation = observation('BrowserObservation', 'The result of a browser action.', {
  screenshot_data: Type.Optional(nullable(Type.String({ description: 'A PNG screenshot, base64-encoded.' }))),
  full_output_save_dir: Type.Optional(
    nullable(Type.String({ description: 'Where the untruncated output was saved.' })),
  ),
});

export const BrowserClickTool = toolDefinition('BrowserClickTool', 'Clicks an element of the page.');
export const BrowserCloseTabTool = toolDefinition('BrowserCloseTabTool', 'Closes a tab.');
export const BrowserGetContentTool = toolDefinition('BrowserGetContentTool', 'Reads the page as text.');
export const BrowserGetStateTool = toolDefinition('BrowserGetStateTool', "Lists the page's interactive elements.");
export const BrowserGetStorageTool = toolDefinition('BrowserGetStorageTool', 'Reads cookies and local storage.');
export const BrowserGoBackTool = toolDefinition('BrowserGoBackTool', 'Goes back in history.');
export const BrowserListTabsTool = toolDefinition('BrowserListTabsTool', 'Lists the open tabs.');
export const BrowserNavigateTool = toolDefinition('BrowserNavigateTool', 'Opens a URL.');
export const BrowserScrollTool = toolDefinition('BrowserScrollTool', 'Scrolls the page.');
export const BrowserSetStorageTool = toolDefinition('BrowserSetStorageTool', 'Restores cookies and local storage.');
export const BrowserStartRecordingTool = toolDefinition('BrowserStartRecordingTool', 'Starts recording the session.');
export const BrowserStopRecordingTool = toolDefinition('BrowserStopRecordingTool', 'Stops recording.');
export const BrowserSwitchTabTool = toolDefinition('BrowserSwitchTabTool', 'Switches to a tab.');
export const BrowserToolSet = toolDefinition('BrowserToolSet', 'The browser tools as one set.');
export const BrowserTypeTool = toolDefinition('BrowserTypeTool', 'Types text into an input.');

export const browserShapes = toolShapes({
  actions: [
    BrowserAction,
    BrowserClickAction,
    BrowserCloseTabAction,
    BrowserGetContentAction,
    BrowserGetStateAction,
    BrowserGetStorageAction,
    BrowserGoBackAction,
    BrowserListTabsAction,
    BrowserNavigateAction,
    BrowserScrollAction,
    BrowserSetStorageAction,
    BrowserStartRecordingAction,
    BrowserStopRecordingAction,
    BrowserSwitchTabAction,
    BrowserTypeAction,
  ],
  observations: [BrowserObservation],
  definitions: [
    BrowserClickTool,
    BrowserCloseTabTool,
    BrowserGetContentTool,
    BrowserGetStateTool,
    BrowserGetStorageTool,
    BrowserGoBackTool,
    BrowserListTabsTool,
    BrowserNavigateTool,
    BrowserScrollTool,
    BrowserSetStorageTool,
    BrowserStartRecordingTool,
    BrowserStopRecordingTool,
    BrowserSwitchTabTool,
    BrowserToolSet,
    BrowserTypeTool,
  ],
});
