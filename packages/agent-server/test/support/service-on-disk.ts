import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResolvedStartRequest, StartConversationRequest, parse } from '@bosun/protocol';
import { afterEach, beforeEach } from 'vitest';
import type { Conversation } from '../../src/conversations/conversation.ts';
import { ConversationService } from '../../src/conversations/service.ts';
import { Store } from '../../src/store/store.ts';
import { startRequest } from './server.ts';

/** A conversation service over a real SQLite store, in process; tests may reopen `store` and `service`. */
export interface ServiceOnDisk {
  dataDir: string;
  store: Store;
  service: ConversationService;
  /** A new conversation with the default start request. */
  newConversation(): Promise<Conversation>;
}

export const resolvedStartRequest = (): ResolvedStartRequest =>
  parse(StartConversationRequest, startRequest()) as ResolvedStartRequest;

/** A fresh data directory, store and service for each test of the calling file, closed and removed after it. */
export function serviceOnDiskPerTest(prefix: string): ServiceOnDisk {
  const disk = {
    async newConversation() {
      return (await disk.service.create(resolvedStartRequest())).conversation;
    },
  } as ServiceOnDisk;
  beforeEach(async () => {
    disk.dataDir = await mkdtemp(join(tmpdir(), prefix));
    disk.store = new Store(disk.dataDir);
    disk.service = new ConversationService(disk.store, { idleTtlMs: 60_000 });
  });
  afterEach(async () => {
    await disk.service.close();
    disk.store.close();
    await rm(disk.dataDir, { recursive: true, force: true });
  });
  return disk;
}
