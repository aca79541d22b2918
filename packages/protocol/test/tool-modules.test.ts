import {
  Action,
  type Named,
  Observation,
  TOOL_SHAPES,
  ToolDefinition,
  type ToolShapes,
  newProtocolAjv,
  observation,
  protocolSchemas,
  toolDefinition,
  toolShapes,
  toolUnions,
} from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { kindShape } from '../src/schema/builders.ts';
import { forAjv } from '../src/validation/for-ajv.ts';

/**
 * The three unions of tool shapes are built from one list of tool modules: a tool kind is added by its module
 * (its action, observation and definition shapes) and one line in the list, as this test adds one.
 */

const NoteAction = kindShape('NoteAction', 'Write a note.', { text: Type.String({ description: 'The note.' }) });
const NoteObservation = observation('NoteObservation', 'The note was written.', {});
const NoteTool = toolDefinition('NoteTool', 'Writes notes.');
const noteShapes = toolShapes({ actions: [NoteAction], observations: [NoteObservation], definitions: [NoteTool] });

const withNote = toolUnions([...TOOL_SHAPES, noteShapes]);

describe('the unions of tool shapes', () => {
  it('are the ones built from the list of tool modules', () => {
    expect(toolUnions(TOOL_SHAPES)).toEqual({ Action, Observation, ToolDefinition });
  });

  it('name every shape of every module in the documents', () => {
    for (const tool of TOOL_SHAPES as readonly ToolShapes[]) {
      const shapes = [...tool.actions, ...tool.observations, ...tool.definitions, ...(tool.shapes ?? [])];
      for (const shape of shapes) expect(protocolSchemas.get(shape.$id), shape.$id).toBe(shape);
    }
  });

  it.each([
    ['Action', 'NoteAction'],
    ['Observation', 'NoteObservation'],
    ['ToolDefinition', 'NoteTool'],
  ] as const)('%s gets the kinds of a module added to the list, after the others', (union, kind) => {
    const schema = withNote[union] as unknown as {
      oneOf: { $ref: string }[];
      discriminator: { mapping: Record<string, string> };
    };
    const published = { Action, Observation, ToolDefinition }[union] as unknown as typeof schema;
    expect(schema.oneOf).toEqual([...published.oneOf, { $ref: kind }]);
    expect(schema.discriminator.mapping).toEqual({ ...published.discriminator.mapping, [kind]: kind });
  });

  it('validates the actions of the added kind, and the others as before', () => {
    const note = new Map<string, Named>([NoteAction, NoteObservation, NoteTool].map((shape) => [shape.$id, shape]));
    const lookup = (id: string) => (note.get(id) ?? protocolSchemas.get(id)) as Record<string, unknown> | undefined;
    const ajv = newProtocolAjv();
    for (const shape of note.values()) ajv.addSchema(forAjv(shape, lookup) as object);
    const { $id: _id, ...action } = withNote.Action;
    const validate = ajv.compile(forAjv(action, lookup) as object);
    expect(validate({ kind: 'NoteAction', text: 'milk' })).toBe(true);
    expect(validate({ kind: 'NoteAction' })).toBe(false);
    expect(validate({ kind: 'TerminalAction', command: 'ls' })).toBe(true);
    expect(validate({ kind: 'SwitchLLMAction' })).toBe(false);
  });
});
