import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

describe('bosun demo', () => {
  it('runs a conversation end to end with the scripted model and says so', async () => {
    const result = await runCli(['demo']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('DEMO: the model below is SCRIPTED');
    expect(result.stdout).toContain('->     file_editor: create the greeting script');
    expect(result.stdout).toContain('Hello from Bosun');
    expect(result.stdout).toContain('Hello, sailor, from Bosun');
    expect(result.stdout).toMatch(/--\s+finished/);
    // The demo removes its workspace: what it says once finished names nothing in it to try.
    const workspace = /they work in\n\s+(\S+)/.exec(result.stdout)?.[1] as string;
    const afterRun = result.stdout.slice(result.stdout.indexOf('finish: finish'));
    expect(afterRun).not.toContain(workspace);
    expect(existsSync(workspace)).toBe(false);
  }, 180_000);
});
