import { describe, expect, it } from 'vitest';
import { seccompProgram } from '../src/local/seccomp.ts';

/** The instructions of a classic BPF program: [code, jt, jf, k]. */
function instructions(program: Buffer): number[][] {
  const found: number[][] = [];
  for (let at = 0; at < program.length; at += 8) {
    found.push([
      program.readUInt16LE(at),
      program.readUInt8(at + 2),
      program.readUInt8(at + 3),
      program.readUInt32LE(at + 4),
    ]);
  }
  return found;
}

describe('seccomp filter', () => {
  it('checks the architecture first, refuses x32 calls and ends in returns only', () => {
    const program = seccompProgram('x64');
    expect(program).toBeDefined();
    const all = instructions(program as Buffer);
    expect(all[0]).toEqual([0x20, 0, 0, 4]);
    expect(all[1]?.[3]).toBe(0xc000003e);
    expect(all).toContainEqual([0x35, expect.any(Number), 0, 0x40000000]);
    // unshare, setns, mount, bpf, io_uring_setup are each refused.
    for (const nr of [272, 308, 165, 321, 425])
      expect(all.some(([code, , , k]) => code === 0x15 && k === nr)).toBe(true);
    expect(all.slice(-3).map(([code, , , k]) => [code, k])).toEqual([
      [0x06, 0x7fff0000],
      [0x06, 0x00050001],
      [0x06, 0x00050026],
    ]);
    // Every jump lands inside the program (jumps are the BPF_JMP class).
    all.forEach(([code, jt, jf], index) => {
      if (((code ?? 0) & 0x07) !== 0x05) return;
      expect(index + 1 + (jt ?? 0)).toBeLessThan(all.length);
      expect(index + 1 + (jf ?? 0)).toBeLessThan(all.length);
    });
  });

  it('has no filter for an architecture whose numbers it does not know', () => {
    expect(seccompProgram('arm64')).toBeUndefined();
  });
});
