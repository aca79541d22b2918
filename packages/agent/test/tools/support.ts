import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type Action,
  type Observation,
  Observation as ObservationSchema,
  ToolDefinition,
  safeParse,
} from '@bosun/protocol';
import { afterEach, expect, test } from 'vitest';
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
  /** Writes each file of `files` (relative path to content), one after another in the order given. */
  writeAll(files: Record<string, string>): Promise<void>;
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
  const write = async (relative: string, content: string | Uint8Array) => {
    const target = path(relative);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    return target;
  };
  return {
    root,
    workspace,
    stateDir,
    outside,
    context: { workspace, stateDir, signal: new AbortController().signal, mask: options.mask ?? ((text) => text) },
    path,
    write,
    async writeAll(files) {
      for (const [relative, content] of Object.entries(files)) await write(relative, content);
    },
    read: (relative) => readFile(path(relative), 'utf8'),
  };
}

/** Runs one action of a tool in a sandbox and checks that the observation is a valid wire Observation. */
export type Act<A extends Action, O extends Observation> = (action: A) => Promise<O>;

/** A fresh sandbox and `act` for a new instance of `tool`, for a test that wants its own sandbox options. */
export async function sandboxFor<A extends Action, O extends Observation>(
  tool: Tool<A, O>,
  options: { mask?: (text: string) => string } = {},
): Promise<{ box: Sandbox; act: Act<A, O> }> {
  const box = await sandbox(options);
  return { box, act: async (action) => valid(await tool.execute(action, box.context)) };
}

/**
 * `it` for the tests of one tool: each test asks for a fresh sandbox (`box`) and for `run`, which `runner` makes
 * from `act` on a new instance of the tool, as `async ({ box, run }) => ...`.
 */
export function toolTest<A extends Action, O extends Observation, R>(
  create: () => Tool<A, O>,
  runner: (act: Act<A, O>) => R,
) {
  return test.extend<{ box: Sandbox; run: R }>({
    box: async ({ task: _task }, use) => use(await sandbox()),
    run: async ({ box }: { box: Sandbox }, use: (run: R) => Promise<void>) => {
      const tool = create();
      await use(runner(async (action) => valid(await tool.execute(action, box.context))));
    },
  });
}

/** The text the LLM reads from an observation. */
export function textOf(observation: Observation): string {
  return observation.content
    .map((part) => (part.type === 'text' ? part.text : `[image: ${part.image_urls.length}]`))
    .join('\n');
}

/** Asserts that `observation` is an error whose text contains `message` (or matches it). */
export function expectError(observation: Observation, message: string | RegExp): void {
  expect(observation.is_error).toBe(true);
  expect(textOf(observation)).toMatch(message);
}

/** Asserts that `observation` is a valid wire Observation and returns it. */
export function valid<O extends Observation>(observation: O): O {
  const result = safeParse(ObservationSchema, structuredClone(observation));
  expect(result.ok ? [] : result.errors).toEqual([]);
  return observation;
}

/**
 * The checks every tool's description to the LLM must pass. Its kinds are named after it: `read_file` is the
 * `ReadFileTool`, executing `ReadFileAction` and returning `ReadFileObservation`.
 */
export function expectWellDefined(tool: Tool, described: { name: string; readOnly: boolean }): void {
  const stem = described.name.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const expected = {
    ...described,
    kind: `${stem}Tool`,
    actionKind: `${stem}Action`,
    observationKind: `${stem}Observation`,
  };
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
