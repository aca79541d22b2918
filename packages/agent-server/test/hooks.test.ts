import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;
const KEY = 'hooks-key';
const headers = { 'X-Session-API-Key': KEY };

const workspace = tempDirPerFile('bosun-hooks-ws-');
const server = testServerPerFile({ workspaceRoot: workspace, sessionApiKeys: [KEY] });

async function project(name: string, hooksFile?: string): Promise<string> {
  const dir = join(workspace, name);
  await mkdir(join(dir, '.openhands'), { recursive: true });
  if (hooksFile !== undefined) await writeFile(join(dir, '.openhands', 'hooks.json'), hooksFile);
  return dir;
}
const hooks = (json: unknown, extra = headers) =>
  call<Json>(server.url, '/api/hooks', { method: 'POST', json, headers: extra });

const CONFIG = {
  pre_tool_use: [{ matcher: 'terminal', hooks: [{ type: 'command', command: './check.sh', timeout: 10 }] }],
  Stop: [{ hooks: [{ command: 'echo done' }] }],
};

describe('POST /api/hooks', () => {
  it("answers the project's .openhands/hooks.json, also in the {hooks: ...} wrapper", async () => {
    const dir = await project('plain', JSON.stringify(CONFIG));
    const reply = await hooks({ project_dir: dir });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hook_config).toMatchObject(CONFIG);
    const wrapped = await project('wrapped', JSON.stringify({ hooks: { PreToolUse: CONFIG.pre_tool_use } }));
    expect((await hooks({ project_dir: wrapped })).body.hook_config).toMatchObject({
      hooks: { PreToolUse: CONFIG.pre_tool_use },
    });
  });

  it('answers null without a hooks file; the workspace is the default project', async () => {
    expect((await hooks({ project_dir: await project('none') })).body).toEqual({ hook_config: null });
    expect((await hooks({})).body).toEqual({ hook_config: null });
    // No body at all: every field has a default.
    expect((await call(server.url, '/api/hooks', { method: 'POST', headers })).body).toEqual({ hook_config: null });
    await mkdir(join(workspace, '.openhands'), { recursive: true });
    await writeFile(join(workspace, '.openhands', 'hooks.json'), JSON.stringify(CONFIG));
    expect((await hooks({})).body.hook_config).toMatchObject(CONFIG);
    expect((await hooks({ project_dir: null })).body.hook_config).toMatchObject(CONFIG);
  });

  it('answers 422 naming the file for invalid JSON, an unknown event or a bad matcher', async () => {
    const cases: [string, string][] = [
      ['bad-json', '{ not json'],
      ['unknown-event', JSON.stringify({ OnLunch: [] })],
      ['bad-matcher', JSON.stringify({ PreToolUse: [{ matcher: '/(/', hooks: [{ command: 'x' }] }] })],
    ];
    for (const [name, text] of cases) {
      const reply = await hooks({ project_dir: await project(name, text) });
      expect(reply.status, name).toBe(422);
      const detail = reply.body.detail as { loc: unknown[] }[];
      expect(detail[0]?.loc.slice(0, 2), name).toEqual(['file', join('.openhands', 'hooks.json')]);
    }
  });

  it('keeps the project inside the workspace; 422 for bad input; 401 without the key', async () => {
    expect((await hooks({ project_dir: '/etc' })).status).toBe(403);
    expect((await hooks({ project_dir: 'relative' })).status).toBe(422);
    expect((await hooks({ project_dir: 3 })).status).toBe(422);
    expect((await hooks({ other: true })).status).toBe(422);
    const unauthorized = await hooks({}, {} as typeof headers);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ detail: 'Unauthorized' });
  });
});
