import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolInputError, resolveInWorkspace } from '../../src/tools/workspace-path.ts';
import { sandbox } from './support.ts';

describe('resolveInWorkspace', () => {
  it('resolves absolute and workspace-relative paths inside the workspace', async () => {
    const box = await sandbox();
    expect(resolveInWorkspace(box.workspace, 'src/a.ts')).toBe(join(box.workspace, 'src/a.ts'));
    expect(resolveInWorkspace(box.workspace, join(box.workspace, 'x', '..', 'b.ts'))).toBe(join(box.workspace, 'b.ts'));
    expect(resolveInWorkspace(box.workspace, box.workspace)).toBe(box.workspace);
    expect(resolveInWorkspace(box.workspace, '..foo')).toBe(join(box.workspace, '..foo'));
  });

  it('refuses paths that leave the workspace, with ".." or absolutely', async () => {
    const box = await sandbox();
    expect(() => resolveInWorkspace(box.workspace, '../outside/x')).toThrow(ToolInputError);
    expect(() => resolveInWorkspace(box.workspace, 'src/../../x')).toThrow(/outside the workspace/);
    expect(() => resolveInWorkspace(box.workspace, '/etc/passwd')).toThrow(/outside the workspace/);
    expect(() => resolveInWorkspace(box.workspace, `${box.workspace}-sibling/x`)).toThrow(/outside the workspace/);
  });

  it('refuses symbolic links that lead outside, also dangling ones and links inside linked directories', async () => {
    const box = await sandbox();
    await writeFile(join(box.outside, 'secret.txt'), 'secret');
    await symlink(box.outside, box.path('out-dir'));
    await symlink(join(box.outside, 'secret.txt'), box.path('secret-link'));
    await symlink(join(box.outside, 'not-yet.txt'), box.path('dangling'));
    for (const path of ['out-dir', 'out-dir/secret.txt', 'out-dir/new/file.txt', 'secret-link', 'dangling']) {
      expect(() => resolveInWorkspace(box.workspace, path), path).toThrow(/symbolic link .* outside the workspace/);
    }
  });

  it('accepts symbolic links that stay inside the workspace', async () => {
    const box = await sandbox();
    await mkdir(box.path('real'));
    await symlink(box.path('real'), box.path('alias'));
    await symlink('real/missing.txt', box.path('dangling-inside'));
    expect(resolveInWorkspace(box.workspace, 'alias/x.ts')).toBe(box.path('alias/x.ts'));
    expect(resolveInWorkspace(box.workspace, 'dangling-inside')).toBe(box.path('dangling-inside'));
  });

  it('accepts a workspace given through a symbolic link', async () => {
    const box = await sandbox();
    const linked = join(box.root, 'linked-workspace');
    await symlink(box.workspace, linked);
    expect(resolveInWorkspace(linked, 'a.txt')).toBe(join(linked, 'a.txt'));
  });

  it('reports symbolic link loops as a problem of the path', async () => {
    const box = await sandbox();
    await symlink(box.path('loop-b'), box.path('loop-a'));
    await symlink(box.path('loop-a'), box.path('loop-b'));
    expect(() => resolveInWorkspace(box.workspace, 'loop-a/x')).toThrow(/symbolic links/);
  });
});
