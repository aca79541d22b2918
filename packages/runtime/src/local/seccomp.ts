/**
 * A seccomp filter (classic BPF, as bwrap's `--seccomp FD` takes it) that refuses the system calls a sandbox has
 * no use for and that widen the kernel surface it can reach: new namespaces (the way to a root of one's own),
 * mounts, keyrings, eBPF, perf events, userfaultfd, io_uring, kernel modules, kexec, reboot, swap, accounting,
 * quotas, file handles, raw I/O ports. Only for x86-64, whose numbers were checked against the kernel headers
 * here; elsewhere there is no filter (and the runtime says so).
 */

const AUDIT_ARCH_X86_64 = 0xc000003e;
/** x32 system calls carry this bit: refused whole, or they would get round the numbers below. */
const X32_SYSCALL_BIT = 0x40000000;

const X86_64_REFUSED = {
  unshare: 272,
  setns: 308,
  mount: 165,
  umount2: 166,
  pivot_root: 155,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
  keyctl: 250,
  add_key: 248,
  request_key: 249,
  bpf: 321,
  perf_event_open: 298,
  userfaultfd: 323,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  kexec_load: 246,
  kexec_file_load: 320,
  init_module: 175,
  finit_module: 313,
  delete_module: 176,
  reboot: 169,
  swapon: 167,
  swapoff: 168,
  acct: 163,
  quotactl: 179,
  open_by_handle_at: 304,
  lookup_dcookie: 212,
  iopl: 172,
  ioperm: 173,
};
const X86_64_CLONE = 56;
/** Its flags are in memory a filter cannot read: refused as unknown, so that the C library falls back to clone. */
const X86_64_CLONE3 = 435;
/** clone() flags that make namespaces. */
const CLONE_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

/** The classic BPF instructions the filter uses: load a word of the data, compare and jump, return. */
const OP = { LD_W_ABS: 0x20, JEQ_K: 0x15, JGE_K: 0x35, JSET_K: 0x45, RET_K: 0x06 } as const;
/** What the filter returns: run the call, or fail it with an errno (`ERRNO | errno`). */
const RET = { ALLOW: 0x7fff0000, ERRNO: 0x00050000 } as const;
const ERRNO = { EPERM: 1, ENOSYS: 38 } as const;
/** Offsets in `struct seccomp_data`: the call's number, the architecture, the low half of its first argument. */
const DATA = { NR: 0, ARCH: 4, ARG0: 16 } as const;

interface Instruction {
  code: number;
  k: number;
  /** Where to go when true / false: a label, or undefined for the next instruction. */
  whenTrue?: string;
  whenFalse?: string;
  label?: string;
}

/** The refused calls' names, for what the runtime reports. */
export const REFUSED_CALLS = [...Object.keys(X86_64_REFUSED), 'clone with namespace flags', 'clone3'];

const programs = new Map<string, Buffer | undefined>();

/**
 * The filter for this machine, or undefined where there is none; assembled once per architecture (every sandbox
 * lookup reports its isolation, so it is asked for on each request the app proxies to a sandbox).
 */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  if (!programs.has(arch)) programs.set(arch, assembledFor(arch));
  return programs.get(arch);
}

function assembledFor(arch: string): Buffer | undefined {
  if (arch !== 'x64') return undefined;
  const { LD_W_ABS, JEQ_K, JGE_K, JSET_K, RET_K } = OP;
  const program: Instruction[] = [
    { code: LD_W_ABS, k: DATA.ARCH },
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, whenFalse: 'unknown' },
    { code: LD_W_ABS, k: DATA.NR },
    { code: JGE_K, k: X32_SYSCALL_BIT, whenTrue: 'unknown' },
    ...Object.values(X86_64_REFUSED).map((nr) => ({ code: JEQ_K, k: nr, whenTrue: 'refuse' })),
    { code: JEQ_K, k: X86_64_CLONE3, whenTrue: 'unknown' },
    { code: JEQ_K, k: X86_64_CLONE, whenFalse: 'allow' },
    { code: LD_W_ABS, k: DATA.ARG0 },
    { code: JSET_K, k: CLONE_NEW_NAMESPACES, whenTrue: 'refuse' },
    { code: RET_K, k: RET.ALLOW, label: 'allow' },
    { code: RET_K, k: RET.ERRNO | ERRNO.EPERM, label: 'refuse' },
    { code: RET_K, k: RET.ERRNO | ERRNO.ENOSYS, label: 'unknown' },
  ];
  return assemble(program);
}

function assemble(program: Instruction[]): Buffer {
  const at = new Map(program.flatMap((instruction, index) => (instruction.label ? [[instruction.label, index]] : [])));
  const offset = (from: number, label: string | undefined) => {
    if (label === undefined) return 0;
    const target = at.get(label);
    if (target === undefined || target <= from || target - from - 1 > 255) throw new Error(`bad jump to ${label}`);
    return target - from - 1;
  };
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(offset(index, instruction.whenTrue), index * 8 + 2);
    bytes.writeUInt8(offset(index, instruction.whenFalse), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
