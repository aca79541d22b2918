import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxStatus } from '@bosun/protocol';
import type { LocalSpec } from './launcher.ts';

/** What the runtime keeps of a sandbox across its own restarts: never its session key. */
export interface SandboxRecord {
  id: string;
  spec: LocalSpec;
  createdAt: string;
  status: SandboxStatus;
  statusDetail: string | null;
}

const FILE = 'sandbox.json';

/**
 * Saves the record beside the sandbox's directories (readable by the runtime alone: the spec's environment may
 * hold credentials, as OpenHands' runtime API keeps it in its database), replacing the old one whole.
 */
export async function saveRecord(dir: string, record: SandboxRecord): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o711 });
  const temporary = join(dir, `.${FILE}.${process.pid}`);
  await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
  await rename(temporary, join(dir, FILE));
}

/** The records under `root`, skipping what is not one (a directory being removed, a file cut short). */
export async function loadRecords(root: string): Promise<SandboxRecord[]> {
  const records: SandboxRecord[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const text = await readFile(join(root, name, FILE), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    try {
      const record = JSON.parse(text) as SandboxRecord;
      if (record.id === name && typeof record.spec?.sessionId === 'string') records.push(record);
    } catch {
      // Not a record: left as it is.
    }
  }
  return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
