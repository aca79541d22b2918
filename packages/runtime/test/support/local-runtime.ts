import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRuntime, type LocalRuntimeOptions } from '@bosun/runtime';
import type { TestContext } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';

/** A LocalRuntime over a new root, opened with `options` and given to `use`; then closed, and its root removed. */
export async function withLocalRuntime<T>(
  options: Omit<LocalRuntimeOptions, 'root'>,
  use: (runtime: LocalRuntime) => Promise<T>,
): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), 'bosun-runtime-'));
  try {
    const runtime = await LocalRuntime.open({ root, command: SANDBOX_COMMAND, ...options });
    try {
      return await use(runtime);
    } finally {
      await runtime.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Skips the test unless the runtime enforces `limit` (`limit: memory`, …) on this machine. */
export async function skipUnlessEnforced(context: TestContext, runtime: LocalRuntime, limit: string): Promise<void> {
  const { enforced } = await runtime.health();
  if (!enforced.some((line) => line.startsWith(limit))) {
    context.skip(
      `this machine does not let the runtime enforce ${limit} (it enforces: ${enforced.join('; ') || 'nothing'})`,
    );
  }
}
