import { describe, expect, it } from 'vitest';
import { fromOpenHandsPath } from '../../src/conversations/conversation-workspace.ts';

describe('OpenHands’ /workspace/project paths in a conversation’s workspace', () => {
  it('are under the working directory, or under where the selected repository is cloned', () => {
    expect(fromOpenHandsPath('/workspace/project/a/b.md', '/data/s1/workspace', null)).toBe(
      '/data/s1/workspace/a/b.md',
    );
    expect(fromOpenHandsPath('/workspace/project', '/data/s1/workspace', null)).toBe('/data/s1/workspace');
    const repoDir = '/data/s1/workspace/widgets';
    expect(fromOpenHandsPath('/workspace/project/widgets/README.md', repoDir, 'acme/widgets')).toBe(
      '/data/s1/workspace/widgets/README.md',
    );
  });

  it('leave other paths as they are (relative ones, other absolute ones, look-alikes)', () => {
    for (const path of ['README.md', '/etc/passwd', '/workspace/projects/x', '/workspace/project2/x']) {
      expect(fromOpenHandsPath(path, '/data/s1/workspace', null)).toBe(path);
    }
  });
});
