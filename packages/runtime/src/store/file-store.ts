import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SandboxRecord, SandboxStore } from './sandbox-store.ts';

const FILE = 'sandbox.json';

/**
 * Each record in `<root>/<id>/sandbox.json`, beside the sandbox's directories, mode 0600 (the spec's environment may
 * hold credentials): a runtime without a database.
 */
export class FileSandboxStore<Spec extends { sessionId: string }> implements SandboxStore<Spec> {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The records under the root, skipping what is not one (a directory being removed, a file cut short). */
  async load(): Promise<SandboxRecord<Spec>[]> {
    const records: SandboxRecord<Spec>[] = [];
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
      const text = await readFile(join(this.root, name, FILE), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      try {
        const record = JSON.parse(text) as SandboxRecord<Spec>;
        if (record.id === name && typeof record.spec?.sessionId === 'string') {
          records.push({ ...record, changedAt: record.changedAt ?? record.createdAt, pool: record.pool ?? null });
        }
      } catch {
        // Not a record: left as it is.
      }
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Replaces the old record whole (written aside, then renamed over it). */
  async save(record: SandboxRecord<Spec>): Promise<void> {
    const dir = join(this.root, record.id);
    await mkdir(dir, { recursive: true, mode: 0o711 });
    const temporary = join(dir, `.${FILE}.${process.pid}`);
    await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
    await rename(temporary, join(dir, FILE));
  }

  async remove(id: string): Promise<void> {
    await rm(join(this.root, id, FILE), { force: true });
  }

  async close(): Promise<void> {}
}
