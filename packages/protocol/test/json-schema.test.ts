import { openApiComponents, protocolJsonSchema, protocolSchemas } from '@bosun/protocol';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { actionCases } from './fixtures/actions.ts';
import { type Json, type ShapeCase, UNKNOWN_PROPERTY, clone, sorted, withField } from './fixtures/conformance.ts';
import { eventCases } from './fixtures/events.ts';
import {
  ACTION_KINDS,
  EVENT_KINDS,
  OBSERVATION_KINDS,
  SUPPORTING_SHAPES,
  TOOL_DEFINITION_KINDS,
} from './fixtures/kinds.ts';
import { observationCases } from './fixtures/observations.ts';
import { supportingCases } from './fixtures/supporting.ts';
import { toolDefinitionCases } from './fixtures/tool-definitions.ts';

/**
 * The published JSON Schema (one 2020-12 document, every shape under `$defs`) checked against the spec's
 * tables: the union members, `discriminator` on `kind`, strictness, required fields, defaults. The document is
 * also compiled by a separate, plain ajv (no discriminator support, no defaults), as a client would.
 */

interface ObjectSchema {
  type?: unknown;
  additionalProperties?: unknown;
  required?: string[];
  properties?: Record<string, { const?: unknown; default?: unknown }>;
}

const doc = protocolJsonSchema();
const defs = doc.$defs as Record<string, Json>;
const def = (name: string): ObjectSchema => {
  const schema = defs[name];
  if (!schema) throw new Error(`no $defs/${name}`);
  return schema as ObjectSchema;
};

const UNIONS: [string, readonly string[], ShapeCase[]][] = [
  ['Event', EVENT_KINDS, eventCases],
  ['Action', ACTION_KINDS, actionCases],
  ['Observation', OBSERVATION_KINDS, observationCases],
  ['ToolDefinition', TOOL_DEFINITION_KINDS, toolDefinitionCases],
];

describe('protocolJsonSchema()', () => {
  it('is a JSON Schema 2020-12 document whose root is Event', () => {
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.$ref).toBe('#/$defs/Event');
  });

  it('names every shape of the spec under $defs', () => {
    for (const name of [...EVENT_KINDS, ...ACTION_KINDS, ...OBSERVATION_KINDS, ...TOOL_DEFINITION_KINDS]) {
      expect(defs, name).toHaveProperty([name]);
    }
    for (const name of [...SUPPORTING_SHAPES, 'Event', 'Action', 'Observation', 'ToolDefinition']) {
      expect(defs, name).toHaveProperty([name]);
    }
  });

  it('resolves every $ref inside the document and carries no $id', () => {
    const refs: string[] = [];
    const ids: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else if (key === '$id') ids.push(String(value));
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(ids).toEqual([]);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/\$defs\//);
      expect(defs, ref).toHaveProperty([ref.slice('#/$defs/'.length)]);
    }
  });
});

describe.each(UNIONS.map(([union, kinds]) => [union, kinds] as const))('%s union in the document', (union, kinds) => {
  const schema = () =>
    defs[union] as {
      oneOf?: { $ref: string }[];
      discriminator?: { propertyName: string; mapping: Record<string, string> };
    };

  it(`is oneOf exactly the ${kinds.length} kinds of the spec`, () => {
    const refs = (schema().oneOf ?? []).map((branch) => branch.$ref);
    expect(refs).toHaveLength(kinds.length);
    expect(sorted(refs)).toEqual(sorted(kinds.map((kind) => `#/$defs/${kind}`)));
  });

  it('has a discriminator on kind whose mapping names exactly those kinds', () => {
    const discriminator = schema().discriminator;
    expect(discriminator?.propertyName).toBe('kind');
    expect(sorted(Object.keys(discriminator?.mapping ?? {}))).toEqual(sorted(kinds));
    for (const kind of kinds) expect(discriminator?.mapping[kind]).toBe(`#/$defs/${kind}`);
  });

  it.each(kinds.map((kind) => [kind]))('%s declares kind as its constant and requires it', (kind) => {
    expect(def(kind).properties?.kind?.const).toBe(kind);
    expect(def(kind).required).toContain('kind');
  });
});

describe('Shapes in the document match the spec tables', () => {
  const all: [string, ShapeCase, boolean][] = [
    ...eventCases.map((c) => ['Event', c, true] as [string, ShapeCase, boolean]),
    ...actionCases.map((c) => ['Action', c, true] as [string, ShapeCase, boolean]),
    ...observationCases.map((c) => ['Observation', c, true] as [string, ShapeCase, boolean]),
    ...toolDefinitionCases.map((c) => ['ToolDefinition', c, true] as [string, ShapeCase, boolean]),
    ...supportingCases.map((c) => ['supporting', c, false] as [string, ShapeCase, boolean]),
  ];
  const rows = all.map(([family, shape, tagged]) => [`${family} ${shape.name}`, shape, tagged] as const);

  it.each(rows)('%s rejects unknown properties (additionalProperties: false)', (_title, shape) => {
    expect(def(shape.name).type).toBe('object');
    expect(def(shape.name).additionalProperties).toBe(false);
  });

  it.each(rows)('%s requires exactly the fields the spec requires', (_title, shape, tagged) => {
    expect(sorted(def(shape.name).required ?? [])).toEqual(sorted([...shape.required, ...(tagged ? ['kind'] : [])]));
  });

  it.each(rows)('%s has exactly the fields of the spec', (_title, shape, tagged) => {
    expect(sorted(Object.keys(def(shape.name).properties ?? {}))).toEqual(
      sorted([...shape.required, ...shape.optional, ...(tagged ? ['kind'] : [])]),
    );
  });

  it.each(rows)('%s publishes the defaults of the spec', (_title, shape) => {
    for (const [field, value] of Object.entries(shape.defaults)) {
      expect(def(shape.name).properties?.[field]?.default, field).toEqual(value);
    }
  });

  it('SecurityRisk is the string enum UNKNOWN, LOW, MEDIUM, HIGH', () => {
    expect(defs.SecurityRisk).toMatchObject({ type: 'string', enum: ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'] });
  });

  it.each([
    ['Condensation', 'summary_offset', { minimum: 0 }],
    ['BrowserClickAction', 'index', { minimum: 0 }],
    ['BrowserTypeAction', 'index', { minimum: 0 }],
    ['BrowserGetContentAction', 'start_from_char', { minimum: 0 }],
    ['FileEditorAction', 'insert_line', { minimum: 0 }],
    ['BrowserCloseTabAction', 'tab_id', { minLength: 4, maxLength: 4 }],
    ['BrowserSwitchTabAction', 'tab_id', { minLength: 4, maxLength: 4 }],
    ['CriticResult', 'score', { minimum: 0, maximum: 1 }],
  ])('%s.%s publishes the limit %j', (name, field, limit) => {
    expect(JSON.stringify(def(name).properties?.[field])).toSatisfy((text: string) =>
      Object.entries(limit).every(([key, value]) => text.includes(`"${key}":${value}`)),
    );
  });
});

describe('The document validates like the parser (plain ajv, no discriminator, no defaults)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc as object, 'protocol');
  const validator = (name: string) => {
    const validate = ajv.getSchema(`protocol#/$defs/${name}`);
    if (!validate) throw new Error(`cannot compile $defs/${name}`);
    return validate;
  };

  const rows = [
    ...UNIONS.flatMap(([union, , cases]) => cases.map((shape) => [union, shape] as const)),
    ...supportingCases.map((shape) => [shape.name, shape] as const),
  ].map(([schema, shape]) => [`${shape.name} (as ${schema})`, schema, shape] as const);

  it.each(rows)('%s: minimal and maximal valid, unknown property invalid', (_title, schema, shape) => {
    const validate = validator(schema);
    expect(validate(clone(shape.minimal)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(clone(shape.maximal)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(withField(shape.maximal, UNKNOWN_PROPERTY, 1))).toBe(false);
  });

  it.each(UNIONS.map(([union]) => [union]))('%s rejects a kind outside the union', (union) => {
    expect(validator(union)({ kind: 'NoSuchKind' })).toBe(false);
  });
});

describe('openApiComponents()', () => {
  const components = openApiComponents() as Record<string, Json>;

  it('has a component per shape, referenced as #/components/schemas/<name>', () => {
    for (const name of [...EVENT_KINDS, ...ACTION_KINDS, ...OBSERVATION_KINDS, ...TOOL_DEFINITION_KINDS]) {
      expect(components, name).toHaveProperty([name]);
    }
    const event = components.Event as { oneOf: { $ref: string }[]; discriminator: { mapping: Record<string, string> } };
    expect(sorted(event.oneOf.map((branch) => branch.$ref))).toEqual(
      sorted(EVENT_KINDS.map((kind) => `#/components/schemas/${kind}`)),
    );
    expect(event.discriminator.mapping.ActionEvent).toBe('#/components/schemas/ActionEvent');
  });
});

describe('protocolSchemas', () => {
  it('holds every named shape of the spec by $id', () => {
    for (const name of [
      ...EVENT_KINDS,
      ...ACTION_KINDS,
      ...OBSERVATION_KINDS,
      ...TOOL_DEFINITION_KINDS,
      ...SUPPORTING_SHAPES,
      'Event',
      'Action',
      'Observation',
      'ToolDefinition',
    ]) {
      expect(protocolSchemas.get(name)?.$id, name).toBe(name);
    }
  });
});
