import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { unzipped } from '../../../test/support/unzip.ts';
import { call } from './support/http.ts';
import { startRequest } from './support/server.ts';
import { tempDirPerFile, testServerPerFile } from './support/shared-server.ts';

type Json = Record<string, unknown>;
const KEY = 'files-key';
const headers = { 'X-Session-API-Key': KEY };

const workspace = tempDirPerFile('bosun-files-ws-');
const outside = tempDirPerFile('bosun-files-outside-');
beforeAll(async () => {
  await writeFile(join(outside, 'secret.txt'), 'outside');
  await symlink(outside, join(workspace, 'escape'));
});
// The data directory inside the workspace: still out of reach.
const server = testServerPerFile({
  dataDir: join(workspace, '.data'),
  workspaceRoot: workspace,
  sessionApiKeys: [KEY],
});

function upload(
  path: string,
  content: string | Uint8Array,
  field = 'file',
  extraHeaders: Record<string, string> = headers,
) {
  const form = new FormData();
  form.append(field, new Blob([content]), 'name.bin');
  return fetch(`${server.url}/api/file/upload?path=${encodeURIComponent(path)}`, {
    method: 'POST',
    body: form,
    headers: extraHeaders,
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Json }));
}
const download = (path: string) =>
  fetch(`${server.url}/api/file/download?path=${encodeURIComponent(path)}`, { headers });

describe('file upload and download', () => {
  it('uploads into new directories, replaces a file, and downloads it back as an attachment', async () => {
    const path = join(workspace, 'new', 'dir', 'data.bin');
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    expect(await upload(path, bytes)).toEqual({ status: 200, body: { success: true } });
    expect(new Uint8Array(await readFile(path))).toEqual(bytes);
    expect((await upload(path, 'second')).status).toBe(200);
    const reply = await download(path);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/octet-stream');
    expect(reply.headers.get('content-disposition')).toContain('attachment; filename="data.bin"');
    expect(await reply.text()).toBe('second');
    expect(await readdir(join(workspace, 'new', 'dir'))).toEqual(['data.bin']);
  });

  it('never reaches outside the workspace: .., a symbolic link, /proc, the data directory', async () => {
    const escapes = [
      join(workspace, '..', 'escaped.txt'),
      join(workspace, 'escape', 'secret.txt'),
      join(workspace, 'escape', 'planted.txt'),
      '/proc/self/environ',
      join(workspace, '.data', 'planted.txt'),
      join(workspace, '.data', 'secrets.key'),
    ];
    for (const path of escapes) {
      const up = await upload(path, 'planted');
      expect(up.status, path).toBe(403);
      expect(up.body).toEqual({ detail: expect.stringContaining('outside the workspace') });
      const down = await download(path);
      expect(down.status, path).toBe(403);
    }
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readdir(join(workspace, '.data'))).not.toContain('planted.txt');
  });

  it('answers 422 for a relative path, a directory or a missing field; 404 for a missing file', async () => {
    const relative = await upload('relative.txt', 'x');
    expect(relative.status).toBe(422);
    expect((relative.body.detail as Json[])[0]).toMatchObject({ loc: ['query', 'path'], msg: 'Path must be absolute' });
    expect((await upload(workspace, 'x')).status).toBe(422);
    const wrongField = await upload(join(workspace, 'nofield.txt'), 'x', 'other');
    expect(wrongField.status).toBe(422);
    await expect(readFile(join(workspace, 'nofield.txt'))).rejects.toThrow();
    const notMultipart = await call(server.url, `/api/file/upload?path=${join(workspace, 'j.txt')}`, {
      method: 'POST',
      json: { file: 'x' },
      headers,
    });
    expect(notMultipart.status).toBe(422);
    const missing = await download(join(workspace, 'missing.txt'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: expect.stringContaining('File not found') });
    await mkdir(join(workspace, 'adir'), { recursive: true });
    expect((await download(join(workspace, 'adir'))).status).toBe(422);
    expect((await call(server.url, '/api/file/download', { headers })).status).toBe(422);
  });

  it('answers 401 without the key, and writes nothing', async () => {
    const path = join(workspace, 'unauthorized.txt');
    expect((await upload(path, 'x', 'file', {})).status).toBe(401);
    await expect(readFile(path)).rejects.toThrow();
    expect((await fetch(`${server.url}/api/file/download?path=${path}`)).status).toBe(401);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await fetch(`${server.url}/api/file/download-trajectory/${id}`)).status).toBe(401);
  });
});

describe('trajectory download', () => {
  it("zips the conversation's info and events, in order; 404 for an unknown conversation", async () => {
    const started = await call<Json>(server.url, '/api/conversations', {
      method: 'POST',
      json: startRequest({ workspace: { working_dir: workspace } }),
      headers,
    });
    expect(started.status).toBe(201);
    const id = String(started.body.id);
    const sent = await call(server.url, `/api/conversations/${id}/events`, {
      method: 'POST',
      json: { content: [{ type: 'text', text: 'hello trajectory' }] },
      headers,
    });
    expect(sent.status).toBe(200);
    const reply = await fetch(`${server.url}/api/file/download-trajectory/${id}`, { headers });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/zip');
    expect(reply.headers.get('content-disposition')).toContain(`trajectory-${id}.zip`);
    const files = await unzipped(new Uint8Array(await reply.arrayBuffer()));
    const state = JSON.parse(files['base_state.json'] as string) as Json;
    expect(state.id).toBe(id);
    expect(JSON.stringify(state)).not.toContain('sk-test-secret');
    const names = Object.keys(files)
      .filter((name) => name.startsWith('events/'))
      .sort();
    expect(names[0]).toMatch(/^events\/event-00000-/);
    expect(names.some((name) => files[name]?.includes('hello trajectory'))).toBe(true);
    const unknown = await fetch(`${server.url}/api/file/download-trajectory/${crypto.randomUUID()}`, { headers });
    expect(unknown.status).toBe(404);
  });
});
