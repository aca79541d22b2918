import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_AUTH_FAILED } from '../src/index.ts';
import { SocketClient, call } from './support/http.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

type Frame = Record<string, unknown>;
const KEY = 'bash-socket-key';
const headers = { 'X-Session-API-Key': KEY };

const workspace = tempDirPerFile('bosun-bash-socket-ws-');
const server = testServerPerFile({ workspaceRoot: workspace, sessionApiKeys: [KEY] });
let socketBase: string;
beforeAll(() => {
  socketBase = `${server.url.replace(/^http/, 'ws')}/sockets/bash-events`;
});

const finalOf = (commandId: unknown) => (frames: Frame[]) =>
  frames.some((f) => f.kind === 'BashOutput' && f.command_id === commandId && f.exit_code !== null);

describe('/sockets/bash-events', () => {
  it('streams the events of commands started over REST, live', async () => {
    const client = new SocketClient(`${socketBase}?session_api_key=${KEY}`);
    await client.opened;
    const started = await call<Frame>(server.url, '/api/bash/start_bash_command', {
      method: 'POST',
      json: { command: 'echo live' },
      headers,
    });
    const frames = (await client.until(finalOf(started.body.id) as never)) as unknown as Frame[];
    expect(frames.find((f) => f.id === started.body.id)).toEqual(started.body);
    expect(frames.find((f) => f.command_id === started.body.id)).toMatchObject({ stdout: 'live\n', exit_code: 0 });
    await client.close();
  });

  it('starts a command from a frame (after an auth frame) and answers a bad frame with a BashError', async () => {
    const client = new SocketClient(socketBase);
    await client.opened;
    client.send({ type: 'auth', session_api_key: KEY });
    client.send({ command: 'echo from-socket' });
    const frames = (await client.until((all) =>
      (all as unknown as Frame[]).some((f) => f.kind === 'BashOutput' && f.stdout === 'from-socket\n'),
    )) as unknown as Frame[];
    expect(frames.find((f) => f.kind === 'BashCommand')).toMatchObject({
      command: 'echo from-socket',
      cwd: expect.any(String),
    });
    client.send({ command: 'echo x', cwd: '/etc' });
    client.send({ nope: true });
    const errors = (
      (await client.until(
        (all) => all.filter((f) => (f as unknown as Frame).kind === 'BashError').length === 2,
      )) as unknown as Frame[]
    ).filter((f) => f.kind === 'BashError');
    expect(String(errors[0]?.detail)).toContain('outside the workspace');
    expect(String(errors[1]?.detail)).toContain('command');
    await client.close();
  });

  it('replays the stored events first with resend_mode=all', async () => {
    const done = await call<Frame>(server.url, '/api/bash/execute_bash_command', {
      method: 'POST',
      json: { command: 'echo stored' },
      headers,
    });
    const client = new SocketClient(`${socketBase}?resend_mode=all`, { headers });
    await client.opened;
    const frames = (await client.until((all) => all.some((f) => f.id === done.body.id))) as unknown as Frame[];
    expect(frames.find((f) => f.id === done.body.command_id)).toMatchObject({
      kind: 'BashCommand',
      command: 'echo stored',
    });
    expect(new Set(frames.map((f) => f.id)).size).toBe(frames.length);
    await client.close();
  });

  it('closes with 4001 for a wrong key', async () => {
    const client = new SocketClient(`${socketBase}?session_api_key=wrong`);
    expect((await client.closed).code).toBe(CLOSE_AUTH_FAILED);
    const framed = new SocketClient(socketBase);
    await framed.opened;
    framed.send({ type: 'auth', session_api_key: 'wrong' });
    expect((await framed.closed).code).toBe(CLOSE_AUTH_FAILED);
  });
});
