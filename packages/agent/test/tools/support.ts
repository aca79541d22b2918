import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Observation, Observation as ObservationSchema, ToolDefinition, safeParse } from '@bosun/protocol';
import { afterEach, expect } from 'vitest';
import { llmParameters } from '../../src/tools/parameters.ts';
import type { Tool, ToolContext } from '../../src/tools/tool.ts';

export interface Sandbox {
  /** A temporary directory holding the workspace, the state directory and an "outside" directory. */
  root: string;
  workspace: string;
  stateDir: string;
  /** A directory next to the workspace, not inside it. */
  outside: string;
  context: ToolContext;
  /** Absolute path of `relative` inside the workspace. */
  path(relative: string): string;
  write(relative: string, content: string | Uint8Array): Promise<string>;
  read(relative: string): Promise<string>;
}

const sandboxes: string[] = [];

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** A fresh workspace in a temporary directory, removed after the test. */
export async function sandbox(options: { mask?: (text: string) => string } = {}): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-tools-')));
  sandboxes.push(root);
  const workspace = join(root, 'workspace');
  const stateDir = join(root, 'state');
  const outside = join(root, 'outside');
  await Promise.all([mkdir(workspace), mkdir(outside)]);
  const path = (relative: string) => join(workspace, relative);
  return {
    root,
    workspace,
    stateDir,
    outside,
    context: { workspace, stateDir, signal: new AbortController().signal, mask: options.mask ?? ((text) => text) },
    path,
    async write(relative, content) {
      const target = path(relative);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
      return target;
    },
    read: (relative) => readFile(path(relative), 'utf8'),
  };
}

/** The text the LLM reads from an observation. */
export function textOf(observation: Observation): string {
  return observation.content
    .map((part) => (part.type === 'text' ? part.text : `[image: ${part.image_urls.length}]`))
    .join('\n');
}

/** Asserts that `observation` is a valid wire Observation and returns it. */
export function valid<O extends Observation>(observation: O): O {
  const result = safeParse(ObservationSchema, structuredClone(observation));
  expect(result.ok ? [] : result.errors).toEqual([]);
  return observation;
}

/** The checks every tool's description to the LLM must pass. */
export function expectWellDefined(
  tool: Tool,
  expected: { name: string; kind: string; actionKind: string; observationKind: string; readOnly: boolean },
): void {
  expect(tool.name).toBe(expected.name);
  expect(tool.actionKind).toBe(expected.actionKind);
  expect(tool.readOnly).toBe(expected.readOnly);
  expect(tool.parameters).toEqual(llmParameters(expected.actionKind));
  const result = safeParse(ToolDefinition, structuredClone(tool.definition));
  expect(result.ok ? [] : result.errors).toEqual([]);
  expect(tool.definition).toMatchObject({
    kind: expected.kind,
    title: expected.name,
    action_type: expected.actionKind,
    observation_type: expected.observationKind,
    annotations: { title: expected.name, readOnlyHint: expected.readOnly, openWorldHint: false },
  });
  expect(tool.definition.description.length).toBeGreaterThan(100);
}
