import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BwrapPlan, bwrapArgs, workingDirProblem } from '../src/local/bwrap-args.ts';
import { egressRoutes } from '../src/local/launcher.ts';
import { sandboxLayout } from '../src/local/layout.ts';

/** The pairs `flag src dest` of bwrap's arguments, as [flag, src, dest]. */
function mounts(args: string[]): string[][] {
  const found: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] as string;
    if (['--bind', '--ro-bind', '--ro-bind-try', '--symlink'].includes(flag)) found.push(args.slice(i, i + 3));
    if (['--tmpfs', '--dir', '--proc', '--dev', '--remount-ro'].includes(flag)) found.push(args.slice(i, i + 2));
    if (flag === '--') break;
  }
  return found;
}

describe('bwrap arguments', () => {
  let installation: string;
  let plan: BwrapPlan;

  beforeAll(async () => {
    installation = await mkdtemp(join(tmpdir(), 'bosun-install-'));
    await mkdir(join(installation, '.bosun'));
    plan = {
      layout: sandboxLayout('/srv/sandboxes', 'abc'),
      workingDir: '/workspace',
      readOnlyPaths: [installation, join(installation, 'node_modules'), '/usr/bin/node'],
      hiddenPaths: [join(installation, '.bosun'), '/srv/elsewhere'],
      network: { mode: 'none' },
      egress: [],
      infoFd: 3,
      socat: '/usr/bin/socat',
      command: ['/usr/bin/node', 'bosun.js', 'agent-server'],
    };
  });
  afterAll(() => rm(installation, { recursive: true, force: true }));

  it('binds an allow-list, never the host root, and only the sandbox directories writable', () => {
    const found = mounts(bwrapArgs(plan));
    expect(found.filter(([flag]) => flag === '--bind')).toEqual([
      ['--bind', '/srv/sandboxes/abc/workspace', '/workspace'],
      ['--bind', '/srv/sandboxes/abc/data', '/var/lib/bosun'],
      ['--bind', '/srv/sandboxes/abc/home', '/home/sandbox'],
    ]);
    expect(found.some(([flag, source]) => flag !== '--remount-ro' && source === '/')).toBe(false);
    expect(found).toContainEqual(['--ro-bind', installation, installation]);
    // Inside an outer path: bound once, with it; under /usr: already there.
    expect(found.some(([, source]) => source === join(installation, 'node_modules'))).toBe(false);
    expect(found.some(([, source]) => source === '/usr/bin/node')).toBe(false);
    expect(found.at(-1)).toEqual(['--remount-ro', '/']);
  });

  it('hides what must not be seen inside what is bound, after binding it', () => {
    const args = bwrapArgs(plan);
    const hidden = args.findIndex((arg, i) => arg === '--tmpfs' && args[i + 1] === join(installation, '.bosun'));
    expect(hidden).toBeGreaterThan(args.indexOf(installation));
    expect(args).not.toContain('/srv/elsewhere');
  });

  it('hides a hidden path under a system directory too', () => {
    const args = bwrapArgs({ ...plan, hiddenPaths: ['/usr/share/doc'] });
    expect(args.join(' ')).toContain('--tmpfs /usr/share/doc --remount-ro /usr/share/doc');
  });

  it('unshares the network unless open, and bridges the agent server only then', () => {
    const closed = bwrapArgs(plan);
    expect(closed).toContain('--unshare-net');
    expect(closed.join(' ')).toContain('UNIX-LISTEN:/run/bosun/agent.sock');
    expect(closed).not.toContain('/etc/resolv.conf');
    const open = bwrapArgs({ ...plan, network: { mode: 'open' } });
    expect(open).not.toContain('--unshare-net');
    expect(open).toContain('/etc/resolv.conf');
    expect(open.slice(open.indexOf('--') + 1)).toEqual(plan.command);
    for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts']) {
      expect(open).toContain(flag);
    }
  });

  it('gives bwrap the seccomp filter last, before the command', () => {
    const args = bwrapArgs({ ...plan, seccompFd: 4 });
    expect(args.slice(args.indexOf('--') - 2, args.indexOf('--'))).toEqual(['--seccomp', '4']);
    expect(bwrapArgs(plan)).not.toContain('--seccomp');
  });

  it('keeps a workspace off the system and its own mounts', () => {
    expect(workingDirProblem('/workspace')).toBeUndefined();
    expect(workingDirProblem('/home/user/project')).toBeUndefined();
    expect(workingDirProblem('workspace')).toBe('must be an absolute path');
    expect(workingDirProblem('/')).toBe('must not be /');
    expect(workingDirProblem('/usr/src')).toBe('must not be or contain /usr');
    expect(workingDirProblem('/var/lib/bosun/x')).toBe('must not be or contain /var/lib/bosun');
    expect(workingDirProblem('/run')).toBe('must not be or contain /run/bosun');
  });
});

describe('allow-list routes', () => {
  it('gives each name one loopback address of its own, and loopback hosts 127.0.0.1', () => {
    const routes = egressRoutes({
      mode: 'allow',
      hosts: [
        { host: 'api.example.com', port: 443 },
        { host: 'localhost', port: 4000 },
        { host: 'api.example.com', port: 8443 },
        { host: 'git.example.com', port: 443 },
      ],
    });
    expect(routes.map(({ address, socket }) => [address, socket])).toEqual([
      ['127.0.1.1', '0.sock'],
      ['127.0.0.1', '1.sock'],
      ['127.0.1.1', '2.sock'],
      ['127.0.1.2', '3.sock'],
    ]);
  });
});
