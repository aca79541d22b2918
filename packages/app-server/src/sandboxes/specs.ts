import type { SandboxSpec } from './sandboxes.ts';

/** The built-in spec: the app's own Bosun (or `sandbox_command`) in the app's runtime. */
export const LOCAL_SPEC: SandboxSpec = {
  id: 'bosun-local',
  command: null,
  initialEnv: {},
  workingDir: '/workspace',
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** The specs sandboxes start from; the first is the default. */
export const SANDBOX_SPECS: readonly SandboxSpec[] = [LOCAL_SPEC];
