import { type LocalSpec, servesWarm } from '@bosun/runtime';
import { describe, expect, it } from 'vitest';

const shape: LocalSpec = {
  sessionId: 'warm:default:1',
  command: ['node', 'bosun.js'],
  workingDir: '/workspace',
  environment: { BOSUN_LLM_MODEL: 'gpt-4o', LOG_JSON: '1' },
  resourceFactor: 1,
  uid: 10001,
  gid: 10001,
  network: { mode: 'none' },
};
const request = (change: Partial<LocalSpec>): LocalSpec => ({ ...shape, sessionId: 'conversation-1', ...change });

/** When a start is served by a warm sandbox (the reference's pools went cold on any drift of their shape). */
describe('the warm pool match rule', () => {
  it("serves a start whose environment is the pool's, a part of it, or differs only by empty values", () => {
    expect(servesWarm(request({}), shape)).toBe(true);
    expect(servesWarm(request({ environment: { BOSUN_LLM_MODEL: 'gpt-4o' } }), shape)).toBe(true);
    expect(servesWarm(request({ environment: { ...shape.environment, LMNR_PROJECT_API_KEY: '' } }), shape)).toBe(true);
    expect(servesWarm(request({ environment: {} }), { ...shape, environment: { LMNR_BASE_URL: '' } })).toBe(true);
    expect(servesWarm(request({ workingDir: '/workspace/' }), shape)).toBe(true);
  });

  it('does not serve a start that needs what the warm process was not started with', () => {
    expect(servesWarm(request({ environment: { ...shape.environment, OTHER: 'x' } }), shape)).toBe(false);
    expect(servesWarm(request({ environment: { BOSUN_LLM_MODEL: 'claude' } }), shape)).toBe(false);
    expect(servesWarm(request({ workingDir: '/workspace/project' }), shape)).toBe(false);
    expect(servesWarm(request({ command: ['other'] }), shape)).toBe(false);
    expect(servesWarm(request({ resourceFactor: 2 }), shape)).toBe(false);
    expect(servesWarm(request({ uid: 10002 }), shape)).toBe(false);
    expect(servesWarm(request({ network: { mode: 'open' } }), shape)).toBe(false);
  });
});

describe('the warm pool match rule for a backend that runs images', () => {
  const kubeShape = {
    sessionId: 'warm:default:1',
    image: 'ghcr.io/bosun/bosun:1.0',
    command: ['bosun'],
    workingDir: '/workspace',
    environment: { LOG_JSON: '1' },
    resourceFactor: 1,
    runAsUser: 10001,
    runAsGroup: 10001,
    network: { mode: 'none' } as const,
  };
  const kubeRequest = (change: object) => ({ ...kubeShape, sessionId: 'conversation-1', ...change });

  it('serves the same image only, and compares the rest as for any backend', () => {
    expect(servesWarm(kubeRequest({ environment: {} }), kubeShape)).toBe(true);
    expect(servesWarm(kubeRequest({ image: 'ghcr.io/bosun/bosun:1.1' }), kubeShape)).toBe(false);
    expect(servesWarm(kubeRequest({ runAsUser: 10002 }), kubeShape)).toBe(false);
    expect(servesWarm(kubeRequest({ environment: { OTHER: 'x' } }), kubeShape)).toBe(false);
  });
});
