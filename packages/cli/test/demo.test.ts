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
  }, 60_000);
});
