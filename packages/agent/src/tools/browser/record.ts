import { type ToolActionKindOf, browserShapes } from '@bosun/protocol';
import { LOW_RISK as LOW, MEDIUM_RISK as MEDIUM, type RiskSubject, UNKNOWN_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createBrowserToolSet } from './tool-set.ts';

/**
 * By action kind: reaching a site, sending it what the agent clicks or types, and handling login cookies are
 * MEDIUM. `BrowserAction` is only the base shape the set is listed with: no tool executes it.
 */
const RISKS: Record<ToolActionKindOf<typeof browserShapes>, RiskSubject> = {
  BrowserAction: UNKNOWN_RISK,
  BrowserGetStateAction: LOW,
  BrowserGetContentAction: LOW,
  BrowserListTabsAction: LOW,
  BrowserScrollAction: LOW,
  BrowserGoBackAction: LOW,
  BrowserSwitchTabAction: LOW,
  BrowserCloseTabAction: LOW,
  BrowserStartRecordingAction: LOW,
  BrowserStopRecordingAction: LOW,
  BrowserNavigateAction: MEDIUM,
  BrowserClickAction: MEDIUM,
  BrowserTypeAction: MEDIUM,
  BrowserGetStorageAction: MEDIUM,
  BrowserSetStorageAction: MEDIUM,
};

/** `browser_tool_set`: 14 tools driving one Chromium per conversation, started on the first browser action. */
export const browserRecord = toolRecord({
  name: 'browser_tool_set',
  shapes: browserShapes,
  secondsParams: ['navigation_timeout_seconds'],
  riskSubject: (action) => RISKS[action.kind],
  create: (params) =>
    createBrowserToolSet(
      params.navigation_timeout_seconds !== undefined
        ? { navigationTimeoutMs: Number(params.navigation_timeout_seconds) * 1000 }
        : {},
    ),
});
