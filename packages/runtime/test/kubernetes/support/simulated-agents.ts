import type { ServerResponse } from 'node:http';
import { KINDS, type Kind, type KubeObject } from './kinds.ts';
import type { ObjectStore } from './object-store.ts';

const kind = (name: string): Kind => KINDS.find((candidate) => candidate.kind === name)!;

interface AgentState {
  lastActivityAt: number;
  running: number;
}

/**
 * The agent servers behind the simulated pods, reduced to what the lifecycle sweep asks: `/server_info` `idle_time`
 * (whole seconds since its last activity, as the agent server says it) and `/api/conversations/count?status=running`
 * (with the session key of the pod's Secret, else 401). One per pod: it starts when its pod is first reached (the
 * readiness probe), and a new pod (a resume) is a new agent server.
 */
export class SimulatedAgents {
  private readonly byPod = new Map<string, AgentState>();

  constructor(private readonly store: ObjectStore) {}

  /** Something happened in sandbox `id` now (an event appended, a command run). */
  event(id: string): void {
    for (const state of this.statesOf(id)) state.lastActivityAt = Date.now();
  }

  /** Sandbox `id` has `count` conversations running (a long LLM call appends nothing meanwhile). */
  setRunning(id: string, count: number): void {
    for (const state of this.statesOf(id)) state.running = count;
  }

  /** Answers `path` for `pod`; false for a path an agent server would not have here. */
  answer(pod: KubeObject, path: string, headers: Record<string, unknown>, response: ServerResponse): boolean {
    const state = this.stateOf(pod);
    const send = (code: number, body: unknown) => {
      response.writeHead(code, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (path === '/server_info') {
      send(200, { idle_time: Math.floor((Date.now() - state.lastActivityAt) / 1000) });
      return true;
    }
    if (path === '/api/conversations/count?status=running') {
      const key = headers['x-session-api-key'];
      if (typeof key !== 'string' || key !== this.keyOf(pod)) send(401, { detail: 'Unauthorized' });
      else send(200, state.running);
      return true;
    }
    return false;
  }

  private stateOf(pod: KubeObject): AgentState {
    const name = pod.metadata.name;
    let state = this.byPod.get(name);
    if (!state) {
      state = { lastActivityAt: Date.now(), running: 0 };
      this.byPod.set(name, state);
    }
    return state;
  }

  private statesOf(id: string): AgentState[] {
    return this.store
      .all()
      .filter(({ kind: name, object }) => name === 'Pod' && object.metadata.labels?.['bosun.dev/runtime-id'] === id)
      .map(({ object }) => this.stateOf(object));
  }

  /** The session key its pod reads from its Secret (`envFrom`). */
  private keyOf(pod: KubeObject): string | undefined {
    const containers = (pod.spec as { containers: { envFrom?: { secretRef?: { name: string } }[] }[] }).containers;
    const secretName = containers[0]?.envFrom?.[0]?.secretRef?.name;
    const secret = secretName && this.store.get(kind('Secret'), pod.metadata.namespace, secretName);
    const encoded = secret ? (secret.data as Record<string, string> | undefined)?.BOSUN_SESSION_API_KEYS : undefined;
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  }
}
