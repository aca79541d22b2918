import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/** One sandbox's resource limits, already multiplied by its resource factor. */
export interface ResourceLimits {
  memoryBytes: number;
  /** CPUs' worth of time per period (a rate, not a total). */
  cpus: number;
  processes: number;
}

type Controller = 'memory' | 'pids' | 'cpu';
const CONTROLLERS: Controller[] = ['memory', 'pids', 'cpu'];

/** Where each controller can be used by this process: a directory under which it may create children. */
interface Hierarchy {
  version: 1 | 2;
  /** The directory of this process's own cgroup in that hierarchy. */
  base: string;
}

/**
 * Control groups for sandboxes, under this process's own cgroup (never beside it: a sandbox stays inside whatever
 * limits the runtime itself lives under). Works with cgroup v1 (one hierarchy per controller) and with a cgroup v2
 * hierarchy whose controllers this process may enable for its children; what is not writable is not enforced,
 * and `enforced` / `notEnforced` say which.
 */
export class Cgroups {
  readonly enforced: string[] = [];
  readonly notEnforced: string[] = [];

  private constructor(private readonly hierarchies: Partial<Record<Controller, Hierarchy>>) {
    for (const controller of CONTROLLERS) {
      const found = hierarchies[controller];
      if (found) this.enforced.push(`${controller} (cgroup v${found.version})`);
      else this.notEnforced.push(`${controller} cgroup: no writable ${controller} controller here`);
    }
  }

  static async probe(): Promise<Cgroups> {
    const found: Partial<Record<Controller, Hierarchy>> = {};
    const own = ownCgroups();
    for (const mount of cgroupMounts()) {
      if (mount.version === 1) {
        for (const controller of CONTROLLERS.filter((name) => mount.controllers.includes(name))) {
          const path = own.v1.get(controller);
          if (path !== undefined && !found[controller] && (await writable(join(mount.dir, path)))) {
            found[controller] = { version: 1, base: join(mount.dir, path) };
          }
        }
      } else if (own.v2 !== undefined) {
        const base = join(mount.dir, own.v2);
        for (const controller of await delegated(base)) found[controller] ??= { version: 2, base };
      }
    }
    await sweepStale(Object.values(found).map((hierarchy) => hierarchy.base));
    return new Cgroups(found);
  }

  /** A group's name: the runtime's pid in it, so that what a killed runtime left behind is known to be stale. */
  static nameFor(id: string): string {
    return `bosun-${process.pid}-${id}`;
  }

  get any(): boolean {
    return this.enforced.length > 0;
  }

  /** Creates the sandbox's groups with its limits; the files a process writes its pid to, to join them. */
  async create(name: string, limits: ResourceLimits): Promise<SandboxCgroups> {
    // Also here: a group whose processes were still dying when the runtime opened is empty by now.
    await sweepStale(Object.values(this.hierarchies).map((hierarchy) => hierarchy.base));
    const groups = new Map<Controller, { dir: string; version: 1 | 2 }>();
    for (const controller of CONTROLLERS) {
      const hierarchy = this.hierarchies[controller];
      if (!hierarchy) continue;
      const dir = join(hierarchy.base, name);
      await mkdir(dir, { recursive: true });
      groups.set(controller, { dir, version: hierarchy.version });
    }
    const set = new SandboxCgroups(groups);
    await set.limit(limits);
    return set;
  }
}

const CPU_PERIOD_US = 100_000;

export class SandboxCgroups {
  constructor(private readonly groups: Map<Controller, { dir: string; version: 1 | 2 }>) {}

  /** One `cgroup.procs` per distinct group directory (v2 has one for every controller). */
  get procsFiles(): string[] {
    return [...new Set([...this.groups.values()].map(({ dir }) => join(dir, 'cgroup.procs')))];
  }

  async limit(limits: ResourceLimits): Promise<void> {
    const memory = this.groups.get('memory');
    if (memory?.version === 1) {
      await writeFile(join(memory.dir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // Memory and swap together, where swap accounting exists: swapping out must not get round the limit.
      const memsw = join(memory.dir, 'memory.memsw.limit_in_bytes');
      if (existsSync(memsw)) await writeFile(memsw, String(limits.memoryBytes));
    } else if (memory) {
      await writeFile(join(memory.dir, 'memory.max'), String(limits.memoryBytes));
      const swap = join(memory.dir, 'memory.swap.max');
      if (existsSync(swap)) await writeFile(swap, '0');
    }
    const pids = this.groups.get('pids');
    if (pids) await writeFile(join(pids.dir, 'pids.max'), String(limits.processes));
    await this.limitCpu(limits.cpus);
  }

  /** The CPUs its processes may use together (a rate: 0.5 is half of one). */
  async limitCpu(cpus: number): Promise<void> {
    const cpu = this.groups.get('cpu');
    const quota = Math.round(cpus * CPU_PERIOD_US);
    if (cpu?.version === 1) {
      await writeFile(join(cpu.dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
      await writeFile(join(cpu.dir, 'cpu.cfs_quota_us'), String(quota));
    } else if (cpu) {
      await writeFile(join(cpu.dir, 'cpu.max'), `${quota} ${CPU_PERIOD_US}`);
    }
  }

  /** Whether the kernel killed a process of the sandbox for exceeding its memory limit. */
  async oomKilled(): Promise<boolean> {
    const memory = this.groups.get('memory');
    if (!memory) return false;
    const file = join(memory.dir, memory.version === 1 ? 'memory.oom_control' : 'memory.events');
    const text = await readFile(file, 'utf8').catch(() => '');
    return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0) > 0;
  }

  /** Removes the groups once their processes are gone (the kernel frees them a moment after they exit). */
  async remove(): Promise<void> {
    for (const { dir } of this.groups.values()) {
      for (let attempt = 0; ; attempt++) {
        try {
          await rmdir(dir);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') break;
          if (code !== 'EBUSY' || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    }
  }
}

interface CgroupMount {
  dir: string;
  version: 1 | 2;
  controllers: string[];
}

function cgroupMounts(): CgroupMount[] {
  const text = readFileSync('/proc/self/mounts', 'utf8');
  return text.split('\n').flatMap((line) => {
    const [, dir, type, options = ''] = line.split(' ');
    if (!dir || (type !== 'cgroup' && type !== 'cgroup2')) return [];
    return [{ dir: unescapeMountPath(dir), version: type === 'cgroup' ? 1 : 2, controllers: options.split(',') }];
  });
}

function ownCgroups(): { v1: Map<string, string>; v2: string | undefined } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [id, controllers = '', path] = line.split(':');
    if (path === undefined) continue;
    if (id === '0' && controllers === '') v2 = path;
    for (const controller of controllers.split(',')) v1.set(controller, path);
  }
  return { v1, v2 };
}

/** The v2 controllers this process can hand to a child group of its own cgroup. */
async function delegated(base: string): Promise<Controller[]> {
  const available = await readFile(join(base, 'cgroup.controllers'), 'utf8').catch(() => '');
  const wanted = CONTROLLERS.filter((name) => available.split(/\s+/).includes(name));
  const control = join(base, 'cgroup.subtree_control');
  const enabled: Controller[] = [];
  for (const controller of wanted) {
    // Refused when this process's own group holds processes (v2 allows controllers only on leaves' parents).
    const ok = await writeFile(control, `+${controller}`).then(
      () => true,
      () => false,
    );
    if (ok) enabled.push(controller);
  }
  return enabled;
}

/** Removes the (empty) groups of runtimes that are gone; a group with processes cannot be removed, and stays. */
async function sweepStale(bases: string[]): Promise<void> {
  for (const base of new Set(bases)) {
    for (const name of await readdir(base).catch(() => [] as string[])) {
      const pid = Number(/^bosun-(\d+)-/.exec(name)?.[1]);
      if (pid && !processAlive(pid)) await rmdir(join(base, name)).catch(() => {});
    }
  }
}

async function writable(dir: string): Promise<boolean> {
  const probe = join(dir, `bosun-probe-${process.pid}`);
  try {
    await mkdir(probe);
    await rmdir(probe);
    return true;
  } catch {
    return false;
  }
}

function unescapeMountPath(path: string): string {
  return path.replace(/\\(\d{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
