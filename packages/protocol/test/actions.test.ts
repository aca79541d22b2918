import { parseAction } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { type Json, type Problem, clone, problems, withField } from './fixtures/conformance.ts';
import { describeEveryKindInsideItsEvent, describeUnionSuite } from './fixtures/union-suite.ts';

const { minimal, fields } = describeUnionSuite('Action', 28);

/** The limits of `tab_id`, the same in every Action that takes one: [field, accepted, rejected]. */
const TAB_ID_LIMITS: [string, unknown[], [unknown, string][]] = [
  'tab_id',
  ['abcd', '0000'],
  [
    ['abc', 'string_too_short'],
    ['abcde', 'string_too_long'],
    ['', 'string_too_short'],
    [1234, 'string_type'],
  ],
];

/** The spec's "Limits" (and, for kinds it does not show, OpenHands' bounds): [kind, field, accepted, rejected]. */
const LIMITS: [string, string, unknown[], [unknown, string][]][] = [
  [
    'BrowserClickAction',
    'index',
    [0, 1, 500],
    [
      [-1, 'greater_than_equal'],
      [0.5, 'int_type'],
      ['0', 'int_type'],
    ],
  ],
  [
    'BrowserTypeAction',
    'index',
    [0, 1, 500],
    [
      [-1, 'greater_than_equal'],
      [2.5, 'int_type'],
    ],
  ],
  [
    'BrowserGetContentAction',
    'start_from_char',
    [0, 1, 100_000],
    [
      [-1, 'greater_than_equal'],
      [0.1, 'int_type'],
    ],
  ],
  [
    'FileEditorAction',
    'insert_line',
    [0, 1, null],
    [
      [-1, 'greater_than_equal'],
      [1.5, 'int_type'],
    ],
  ],
  ['BrowserCloseTabAction', ...TAB_ID_LIMITS],
  ['BrowserSwitchTabAction', ...TAB_ID_LIMITS],
  // (OpenHands) bounds of the kinds whose fields the spec does not show.
  ['PlanningFileEditorAction', 'insert_line', [0, null], [[-1, 'greater_than_equal']]],
  [
    'TerminalAction',
    'timeout',
    [0, 0.5, 600, null],
    [
      [-1, 'greater_than_equal'],
      [-0.01, 'greater_than_equal'],
    ],
  ],
  [
    'EditAction',
    'expected_replacements',
    [0, 1, 7],
    [
      [-1, 'greater_than_equal'],
      [1.5, 'int_type'],
    ],
  ],
  ['ReadFileAction', 'offset', [0, 3, null], [[-1, 'greater_than_equal']]],
  [
    'ReadFileAction',
    'limit',
    [1, 100, null],
    [
      [0, 'greater_than_equal'],
      [-1, 'greater_than_equal'],
    ],
  ],
];

describe('Action limits', () => {
  const accepted = LIMITS.flatMap(([kind, field, values]) => values.map((value) => [kind, field, value] as const));
  const rejected = LIMITS.flatMap(([kind, field, , values]) =>
    values.map(([value, type]) => [kind, field, value, type] as const),
  );

  it.each(accepted)('%s accepts %s = %j', (kind, field, value) => {
    expect(parseAction(withField(minimal(kind), field, value))).toMatchObject({ [field]: value });
  });

  it.each(rejected)('%s rejects %s = %j (%s)', (kind, field, value, type) => {
    expect(problems(parseAction, withField(minimal(kind), field, value))).toEqual([{ loc: [field], type }]);
  });
});

describe('Action defaults', () => {
  fields.itDefaults([
    // The spec's Action table.
    ['BrowserClickAction', 'new_tab', false],
    ['BrowserNavigateAction', 'new_tab', false],
    ['BrowserGetContentAction', 'extract_links', false],
    ['BrowserGetContentAction', 'start_from_char', 0],
    ['BrowserGetStateAction', 'include_screenshot', false],
    ['BrowserScrollAction', 'direction', 'down'],
    // (OpenHands) kinds whose fields the spec does not show.
    ['MCPToolAction', 'data', {}],
    ['TaskTrackerAction', 'command', 'view'],
    ['TaskTrackerAction', 'task_list', []],
    ['TerminalAction', 'is_input', false],
    ['TerminalAction', 'reset', false],
    ['EditAction', 'expected_replacements', 1],
    ['ListDirectoryAction', 'dir_path', '.'],
    ['ListDirectoryAction', 'recursive', false],
  ]);

  it('fills in the defaults of each task of TaskTrackerAction.task_list', () => {
    const parsed = parseAction({ kind: 'TaskTrackerAction', command: 'plan', task_list: [{ title: 'a' }] });
    expect(parsed).toEqual({
      kind: 'TaskTrackerAction',
      command: 'plan',
      task_list: [{ title: 'a', notes: '', status: 'todo' }],
    });
  });
});

describe('Action enums', () => {
  it.each([['view'], ['create'], ['str_replace'], ['insert'], ['undo_edit']])(
    'FileEditorAction accepts command %s',
    (command) => {
      expect(parseAction({ kind: 'FileEditorAction', command, path: '/a' })).toMatchObject({ command });
    },
  );

  it.each([['up'], ['down']])('BrowserScrollAction accepts direction %s', (direction) => {
    expect(parseAction({ kind: 'BrowserScrollAction', direction })).toMatchObject({ direction });
  });

  it.each([['view'], ['plan']])('TaskTrackerAction accepts command %s', (command) => {
    expect(parseAction({ kind: 'TaskTrackerAction', command })).toMatchObject({ command });
  });

  it.each([['todo'], ['in_progress'], ['done']])('a task accepts status %s', (status) => {
    expect(parseAction({ kind: 'TaskTrackerAction', task_list: [{ title: 't', status }] })).toMatchObject({
      task_list: [{ status }],
    });
  });

  it.each([
    ['FileEditorAction', { command: 'delete', path: '/a' }, ['command']],
    ['FileEditorAction', { command: 'VIEW', path: '/a' }, ['command']],
    ['BrowserScrollAction', { direction: 'left' }, ['direction']],
    ['TaskTrackerAction', { command: 'delete' }, ['command']],
    ['TaskTrackerAction', { task_list: [{ title: 't', status: 'blocked' }] }, ['task_list', 0, 'status']],
  ])('%s rejects %j', (kind, fields, loc) => {
    expect(problems(parseAction, { kind, ...fields })).toEqual([{ loc, type: 'enum' }]);
  });
});

describe('Action nullable fields', () => {
  fields.itAcceptsNull([
    ['FileEditorAction', 'file_text'],
    ['FileEditorAction', 'old_str'],
    ['FileEditorAction', 'new_str'],
    ['FileEditorAction', 'insert_line'],
    ['FileEditorAction', 'view_range'],
    ['PlanningFileEditorAction', 'view_range'],
    ['GlobAction', 'path'],
    ['GrepAction', 'path'],
    ['GrepAction', 'include'],
    ['ReadFileAction', 'offset'],
    ['ReadFileAction', 'limit'],
    ['TerminalAction', 'timeout'],
  ]);

  fields.itRejectsNullAtField([
    ['FinishAction', 'message', 'string_type'],
    ['ThinkAction', 'thought', 'string_type'],
    ['BrowserClickAction', 'index', 'int_type'],
    ['BrowserClickAction', 'new_tab', 'bool_type'],
    ['BrowserNavigateAction', 'url', 'string_type'],
    ['BrowserSetStorageAction', 'storage_state', 'dict_type'],
    ['BrowserCloseTabAction', 'tab_id', 'string_type'],
    ['BrowserTypeAction', 'text', 'string_type'],
    ['FileEditorAction', 'path', 'string_type'],
    ['MCPToolAction', 'data', 'dict_type'],
    ['TerminalAction', 'command', 'string_type'],
    ['TaskTrackerAction', 'task_list', 'list_type'],
  ]);
});

describe('Action fields with arbitrary keys and wrong types', () => {
  it.each([[{}], [{ a: 1 }], [{ nested: { deep: [1, 'two', null] }, kind: 'not a tag here' }]])(
    'MCPToolAction.data accepts any object: %j',
    (data) => {
      expect(parseAction({ kind: 'MCPToolAction', data: clone(data) })).toEqual({ kind: 'MCPToolAction', data });
    },
  );

  it('BrowserSetStorageAction.storage_state accepts any keys', () => {
    const storage_state = { cookies: [], origins: [], extra: { anything: true } };
    expect(parseAction({ kind: 'BrowserSetStorageAction', storage_state })).toMatchObject({ storage_state });
  });

  const cases: [string, Json, Problem[]][] = [
    ['MCPToolAction.data as an array', { kind: 'MCPToolAction', data: [] }, [{ loc: ['data'], type: 'dict_type' }]],
    ['MCPToolAction.data as a string', { kind: 'MCPToolAction', data: '{}' }, [{ loc: ['data'], type: 'dict_type' }]],
    [
      'FileEditorAction.view_range with a string',
      { kind: 'FileEditorAction', command: 'view', path: '/a', view_range: ['1', 2] },
      [{ loc: ['view_range', 0], type: 'int_type' }],
    ],
    [
      'BrowserClickAction.new_tab as a string',
      { kind: 'BrowserClickAction', index: 0, new_tab: 'true' },
      [{ loc: ['new_tab'], type: 'bool_type' }],
    ],
    [
      'TaskTrackerAction with a task without title',
      { kind: 'TaskTrackerAction', task_list: [{ notes: 'n' }] },
      [{ loc: ['task_list', 0, 'title'], type: 'missing' }],
    ],
    [
      'TaskTrackerAction with an unknown task property',
      { kind: 'TaskTrackerAction', task_list: [{ title: 't', owner: 'me' }] },
      [{ loc: ['task_list', 0, 'owner'], type: 'extra_forbidden' }],
    ],
    [
      'TerminalAction with the injected security_risk (stripped from actions by OpenHands)',
      { kind: 'TerminalAction', command: 'ls', security_risk: 'LOW' },
      [{ loc: ['security_risk'], type: 'extra_forbidden' }],
    ],
  ];

  it.each(cases)('%s', (_name, value, expected) => {
    expect(problems(parseAction, value)).toEqual(expected);
  });
});

describeEveryKindInsideItsEvent('Action');
