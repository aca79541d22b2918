import { Type } from '@sinclair/typebox';
import { kindShape, nullable, openObject, stringEnum, withDefault } from '../schema/builders.ts';
import { observation, toolDefinition, toolShapes } from './shapes.ts';

/** Browser actions. Elements are addressed by the `index` the page state lists; tabs by a 4-character id. */

const elementIndex = () => Type.Integer({ minimum: 0, description: 'Index of an interactive element of the page.' });
const tabId = () => Type.String({ minLength: 4, maxLength: 4, description: 'A 4-character tab id.' });

export const BrowserAction = kindShape('BrowserAction', {}, { description: 'Base shape of browser actions.' });

export const BrowserNavigateAction = kindShape(
  'BrowserNavigateAction',
  {
    url: Type.String({ description: 'The URL to open.' }),
    new_tab: withDefault(Type.Boolean({ description: 'Open in a new tab.' }), false),
  },
  { description: 'Open a URL.' },
);

export const BrowserClickAction = kindShape(
  'BrowserClickAction',
  {
    index: elementIndex(),
    new_tab: withDefault(Type.Boolean({ description: 'Open the link in a new tab.' }), false),
  },
  { description: 'Click an interactive element.' },
);

export const BrowserTypeAction = kindShape(
  'BrowserTypeAction',
  { index: elementIndex(), text: Type.String({ description: 'The text to type.' }) },
  { description: 'Type text into an input element.' },
);

export const BrowserGetStateAction = kindShape(
  'BrowserGetStateAction',
  { include_screenshot: withDefault(Type.Boolean(), false) },
  { description: "List the page's interactive elements, optionally with a screenshot." },
);

export const BrowserGetContentAction = kindShape(
  'BrowserGetContentAction',
  {
    extract_links: withDefault(Type.Boolean(), false),
    start_from_char: withDefault(Type.Integer({ minimum: 0, description: 'Offset to page through long content.' }), 0),
  },
  { description: 'Read the page as text.' },
);

export const BrowserScrollAction = kindShape(
  'BrowserScrollAction',
  { direction: withDefault(stringEnum(['up', 'down']), 'down') },
  { description: 'Scroll the page.' },
);

export const BrowserGoBackAction = kindShape('BrowserGoBackAction', {}, { description: 'Go back in history.' });
export const BrowserListTabsAction = kindShape('BrowserListTabsAction', {}, { description: 'List open tabs.' });

export const BrowserSwitchTabAction = kindShape(
  'BrowserSwitchTabAction',
  { tab_id: tabId() },
  { description: 'Switch to a tab.' },
);

export const BrowserCloseTabAction = kindShape(
  'BrowserCloseTabAction',
  { tab_id: tabId() },
  { description: 'Close a tab.' },
);

export const BrowserGetStorageAction = kindShape(
  'BrowserGetStorageAction',
  {},
  { description: 'Read cookies and local storage.' },
);

export const BrowserSetStorageAction = kindShape(
  'BrowserSetStorageAction',
  { storage_state: openObject({ description: 'Cookies and origins, as a storage state.' }) },
  { description: 'Restore cookies and local storage.' },
);

export const BrowserStartRecordingAction = kindShape(
  'BrowserStartRecordingAction',
  {},
  { description: 'Start recording the session.' },
);

export const BrowserStopRecordingAction = kindShape(
  'BrowserStopRecordingAction',
  {},
  { description: 'Stop recording and save the recording.' },
);

export const BrowserObservation = observation(
  'BrowserObservation',
  {
    screenshot_data: Type.Optional(nullable(Type.String({ description: 'A PNG screenshot, base64-encoded.' }))),
    full_output_save_dir: Type.Optional(
      nullable(Type.String({ description: 'Where the untruncated output was saved.' })),
    ),
  },
  'The result of a browser action.',
);

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
