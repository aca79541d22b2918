import type { SandboxSpec } from './sandboxes.ts';

/** The built-in spec: the app's own Bosun as a local process, its workspace in the app's data directory. */
export const LOCAL_SPEC: SandboxSpec = {
  id: 'bosun-local',
  command: null,
  initialEnv: {},
  workingDir: '<data_dir>/sandboxes/<sandbox_id>/workspace',
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** The specs sandboxes start from; the first is the default. */
export const SANDBOX_SPECS: readonly SandboxSpec[] = [LOCAL_SPEC];
