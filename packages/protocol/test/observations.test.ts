import { parseObservation } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { type Json, type Problem, problems, withField } from './fixtures/conformance.ts';
import { OBSERVATION_KINDS } from './fixtures/kinds.ts';
import { METADATA_DEFAULTS } from './fixtures/observations.ts';
import { text } from './fixtures/supporting.ts';
import { describeEveryKindInsideItsEvent, describeUnionSuite } from './fixtures/union-suite.ts';

const { minimal, fields } = describeUnionSuite('Observation', 14);

describe('Observation defaults', () => {
  it.each(OBSERVATION_KINDS.map((kind) => [kind]))('%s: content defaults to [] and is_error to false', (kind) => {
    expect(parseObservation(minimal(kind))).toMatchObject({ content: [], is_error: false });
  });

  fields.itDefaults([
    ['FileEditorObservation', 'prev_exist', true],
    ['PlanningFileEditorObservation', 'prev_exist', true],
    ['EditObservation', 'is_new_file', false],
    ['EditObservation', 'replacements_made', 0],
    ['ListDirectoryObservation', 'entries', []],
    ['ListDirectoryObservation', 'total_count', 0],
    ['ReadFileObservation', 'file_content', ''],
    ['GlobObservation', 'truncated', false],
    ['GrepObservation', 'truncated', false],
    ['TaskTrackerObservation', 'task_list', []],
    ['TerminalObservation', 'timeout', false],
    ['TerminalObservation', 'metadata', METADATA_DEFAULTS],
  ]);

  it('fills in the omitted fields of TerminalObservation.metadata', () => {
    const parsed = parseObservation({ kind: 'TerminalObservation', command: 'ls', metadata: { exit_code: 0 } });
    expect(parsed).toMatchObject({ metadata: { exit_code: 0, pid: -1, prefix: '', suffix: '' } });
  });

  it('fills in the content blocks, whose type may be omitted', () => {
    const parsed = parseObservation({
      kind: 'ThinkObservation',
      content: [{ text: 'logged' }, { image_urls: ['https://x.org/a.png'] }],
    });
    expect(parsed).toEqual({
      kind: 'ThinkObservation',
      content: [text('logged'), { type: 'image', image_urls: ['https://x.org/a.png'], cache_prompt: false }],
      is_error: false,
    });
  });

  it('fills in the defaults of each task of TaskTrackerObservation', () => {
    const parsed = parseObservation({ kind: 'TaskTrackerObservation', command: 'plan', task_list: [{ title: 't' }] });
    expect(parsed).toMatchObject({ task_list: [{ title: 't', notes: '', status: 'todo' }] });
  });
});

describe('Observation limits (OpenHands)', () => {
  it.each([
    ['EditObservation', 'replacements_made', 0, -1],
    ['ListDirectoryObservation', 'total_count', 0, -1],
    ['ReadFileObservation', 'total_lines', 0, -1],
  ])('%s.%s accepts %j and rejects %j', (kind, field, ok, bad) => {
    expect(parseObservation(withField(minimal(kind), field, ok))).toMatchObject({ [field]: ok });
    expect(problems(parseObservation, withField(minimal(kind), field, bad))).toEqual([
      { loc: [field], type: 'greater_than_equal' },
    ]);
  });

  it('ReadFileObservation.lines_shown is a pair of integers', () => {
    const read = (lines_shown: unknown) => ({ kind: 'ReadFileObservation', file_path: 'a', lines_shown });
    expect(parseObservation(read([1, 20]))).toMatchObject({ lines_shown: [1, 20] });
    expect(problems(parseObservation, read([1]))).toEqual([{ loc: ['lines_shown'], type: 'too_short' }]);
    expect(problems(parseObservation, read([1, 2, 3]))).toContainEqual({ loc: ['lines_shown'], type: 'too_long' });
    expect(problems(parseObservation, read([1, 'x']))).toEqual([{ loc: ['lines_shown', 1], type: 'int_type' }]);
  });

  it('ListDirectoryObservation entries are complete and have a size >= 0', () => {
    const entry: Json = { name: 'a', path: '/a', is_directory: false, size: 0, modified_time: '2026-01-01T00:00:00Z' };
    const list = (entries: unknown[]) => ({ kind: 'ListDirectoryObservation', entries });
    expect(parseObservation(list([entry]))).toMatchObject({ entries: [entry] });
    expect(problems(parseObservation, list([{ ...entry, size: -1 }]))).toEqual([
      { loc: ['entries', 0, 'size'], type: 'greater_than_equal' },
    ]);
    for (const field of Object.keys(entry)) {
      const { [field]: _omitted, ...rest } = entry;
      expect(problems(parseObservation, list([rest]))).toEqual([{ loc: ['entries', 0, field], type: 'missing' }]);
    }
  });
});

describe('Observation nullable fields', () => {
  fields.itAcceptsNull([
    ['TerminalObservation', 'command'],
    ['TerminalObservation', 'exit_code'],
    ['TerminalObservation', 'full_output_save_dir'],
    ['BrowserObservation', 'screenshot_data'],
    ['BrowserObservation', 'full_output_save_dir'],
    ['FileEditorObservation', 'path'],
    ['FileEditorObservation', 'old_content'],
    ['FileEditorObservation', 'new_content'],
    ['EditObservation', 'file_path'],
    ['WriteFileObservation', 'file_path'],
    ['ListDirectoryObservation', 'dir_path'],
    ['ReadFileObservation', 'lines_shown'],
    ['ReadFileObservation', 'total_lines'],
    ['GrepObservation', 'include_pattern'],
  ]);

  fields.itRejectsNull([
    ['MCPToolObservation', 'tool_name', 'string_type'],
    ['ThinkObservation', 'content', 'list_type'],
    ['ThinkObservation', 'is_error', 'bool_type'],
    ['GlobObservation', 'files', 'list_type'],
    ['GrepObservation', 'matches', 'list_type'],
    ['ReadFileObservation', 'file_path', 'string_type'],
    ['TerminalObservation', 'metadata', 'dict_type'],
  ]);

  it.each([['username'], ['hostname'], ['working_dir'], ['py_interpreter_path']])(
    'TerminalObservation.metadata.%s accepts null',
    (field) => {
      const parsed = parseObservation({ kind: 'TerminalObservation', command: null, metadata: { [field]: null } });
      expect(parsed).toMatchObject({ metadata: { [field]: null } });
    },
  );
});

describe('Observation wrong types report where they are', () => {
  const cases: [string, Json, Problem[]][] = [
    [
      'a number as content text',
      { kind: 'FinishObservation', content: [text(), { type: 'text', text: 1 }] },
      [{ loc: ['content', 1, 'text'], type: 'string_type' }],
    ],
    [
      'an image block without image_urls',
      { kind: 'FinishObservation', content: [{ type: 'image' }] },
      [{ loc: ['content', 0, 'image_urls'], type: 'missing' }],
    ],
    [
      'an unknown property in the terminal metadata',
      { kind: 'TerminalObservation', command: 'ls', metadata: { cwd: '/' } },
      [{ loc: ['metadata', 'cwd'], type: 'extra_forbidden' }],
    ],
    [
      'an unknown file editor command',
      { kind: 'FileEditorObservation', command: 'delete' },
      [{ loc: ['command'], type: 'enum' }],
    ],
    [
      'an unknown task tracker command',
      { kind: 'TaskTrackerObservation', command: 'list' },
      [{ loc: ['command'], type: 'enum' }],
    ],
    [
      'a number among the glob files',
      { kind: 'GlobObservation', files: ['a', 2], pattern: '*', search_path: '/' },
      [{ loc: ['files', 1], type: 'string_type' }],
    ],
  ];

  it.each(cases)('%s', (_name, value, expected) => {
    expect(problems(parseObservation, value)).toEqual(expected);
  });

  it('an unknown content block type is rejected at that block', () => {
    const found = problems(parseObservation, { kind: 'FinishObservation', content: [{ type: 'video', url: 'x' }] });
    expect(found.length).toBeGreaterThan(0);
    for (const problem of found) expect(problem.loc.slice(0, 2)).toEqual(['content', 0]);
  });
});

describeEveryKindInsideItsEvent('Observation');
