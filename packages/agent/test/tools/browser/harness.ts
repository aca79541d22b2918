import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Observation, Observation as ObservationSchema, safeParse } from '@bosun/protocol';
import { expect } from 'vitest';
import { parseToolCall } from '../../../src/loop/tool-arguments.ts';
import { type BrowserToolSetOptions, createBrowserToolSet } from '../../../src/tools/browser/tool-set.ts';
import type { Tool, ToolContext } from '../../../src/tools/tool.ts';

export type BrowserObservation = Extract<Observation, { kind: 'BrowserObservation' }>;

/** Tag on the test's Chromium command line, to find its process. */
export interface Harness {
  tools: Tool[];
  context: ToolContext;
  stateDir: string;
  tag: string;
  /** Calls a browser tool as the LLM would (arguments as JSON, defaults applied); checks the observation. */
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<BrowserObservation>;
  /** The text of the observation of `call`. */
  text(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** One browser tool set (one Chromium, started lazily) with a temporary state directory. */
export async function browserHarness(options: BrowserToolSetOptions = {}): Promise<Harness> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'bosun-browser-')));
  const tag = `--bosun-test=${root.split('/').at(-1)}`;
  const tools = createBrowserToolSet({
    navigationTimeoutMs: 5_000,
    actionTimeoutMs: 3_000,
    extraArgs: [tag],
    ...options,
  });
  const context: ToolContext = {
    workspace: root,
    stateDir: join(root, 'state'),
    signal: new AbortController().signal,
    mask: (text) => text.replaceAll('hunter2-secret', '<secret-hidden>'),
  };
  const call = async (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    const parsed = parseToolCall(tool, JSON.stringify(args));
    if (!parsed.ok) throw new Error(parsed.error);
    const observation = await tool.execute(parsed.action, signal ? { ...context, signal } : context);
    const checked = safeParse(ObservationSchema, structuredClone(observation));
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    expect(observation.kind).toBe('BrowserObservation');
    return observation as BrowserObservation;
  };
  return {
    tools,
    context,
    stateDir: context.stateDir,
    tag,
    call,
    async text(name, args) {
      return textOf(await call(name, args));
    },
    async close() {
      await Promise.all(tools.map((tool) => tool.close?.()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

export function textOf(observation: Observation): string {
  return observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The element index of the first listed element whose line contains `needle`. */
export function indexOf(stateText: string, needle: string): number {
  const line = stateText.split('\n').find((l) => /^\[\d+\]</.test(l) && l.includes(needle));
  if (!line) throw new Error(`no element with ${needle} in:\n${stateText}`);
  return Number(/^\[(\d+)\]/.exec(line)?.[1]);
}
