import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type LlmReplay, startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SecretsKeyring } from '../../packages/agent-server/src/store/sealed-secrets.ts';
import { type E2EServer, type ServerOptions, llmConfig, restartableServer } from './support.ts';
import { finish } from './turns.ts';

/** Every secret a conversation record can hold; none may be readable in the database files. */
const SECRETS = {
  llmKey: 'sk-llm-key-7f3a9c2e',
  awsSecret: 'aws-secret-4d2e8b1f',
  condenserKey: 'condenser-key-3f9a6d',
  conversationSecret: 'db-password-91c4e7',
  mcpEnv: 'mcp-env-value-5b7d0a',
  mcpHeader: 'mcp-header-value-2a6f',
  mcpBearer: 'mcp-bearer-token-8e1c',
};

const newKey = () => randomBytes(32).toString('base64');

/** A scripted LLM that answers only requests carrying the conversation's api_key (else 401, as a provider). */
async function keyedLlm(): Promise<LlmReplay> {
  const llm = await startLlmReplay({
    script: { turns: [finish(), finish(), finish(), finish()] },
    apiKey: SECRETS.llmKey,
  });
  onTestFinished(() => llm.close());
  return llm;
}

/** A conversation holding every kind of secret (MCP servers disabled: only their configuration matters here). */
async function secretConversation(server: E2EServer, llm: LlmReplay): Promise<string> {
  const llmSettings = { ...llmConfig(llm), api_key: SECRETS.llmKey, aws_secret_access_key: SECRETS.awsSecret };
  const created = await server.startConversation(llm, {
    extra: {
      agent: {
        llm: llmSettings,
        tools: [{ name: 'terminal' }],
        condenser: { kind: 'LLMSummarizingCondenser', llm: { ...llmSettings, api_key: SECRETS.condenserKey } },
        mcp_config: {
          local: { command: 'true', env: { TOKEN: SECRETS.mcpEnv }, enabled: false },
          remote: {
            url: 'http://127.0.0.1:9/mcp',
            headers: { 'X-Key': SECRETS.mcpHeader },
            auth: { strategy: 'bearer', value: SECRETS.mcpBearer },
            enabled: false,
          },
        },
      },
      secrets: { DB_PASSWORD: SECRETS.conversationSecret },
    },
  });
  return created.id;
}

/** The bytes of the database and of its WAL (and shared-memory index), as a reader of the data directory sees. */
function databaseBytes(dataDir: string): string {
  return ['bosun.db', 'bosun.db-wal', 'bosun.db-shm']
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

function expectNoSecretIn(bytes: string): void {
  for (const [name, value] of Object.entries(SECRETS)) expect(bytes.includes(value), name).toBe(false);
}

/** Runs the conversation once more: it finishes only if its api_key reached the LLM (else a 401 errors it). */
async function runOnce(server: E2EServer, id: string): Promise<void> {
  await server.sendMessage(id, 'Once more.');
  await server.waitForStatus(id, 'finished');
}

/**
 * A server on `settings` (a test may change them before it starts the server again) holding a conversation with
 * every kind of secret.
 */
async function serverWithSecrets(settings: ServerOptions = {}) {
  const llm = await keyedLlm();
  const stack = await restartableServer(settings);
  await stack.start();
  return { stack, id: await secretConversation(stack.server, llm) };
}

/** The `data` column of every conversation row, read with SQLite directly. */
function storedRecords(dataDir: string): string[] {
  const db = new DatabaseSync(join(dataDir, 'bosun.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT data FROM conversations ORDER BY id').all() as unknown as { data: string }[]).map(
      (r) => r.data,
    );
  } finally {
    db.close();
  }
}

describe('secrets at rest', () => {
  it('keeps no secret readable in bosun.db or its WAL; the conversation runs with them after a restart', async () => {
    const { stack, id } = await serverWithSecrets({ secretsKey: { key: newKey() } });
    await runOnce(stack.server, id);

    const bytes = databaseBytes(stack.server.dataDir);
    expect(bytes).toContain(id);
    expectNoSecretIn(bytes);

    await stack.restart();
    await runOnce(stack.server, id);
    expectNoSecretIn(databaseBytes(stack.server.dataDir));
    // Nor in any other file the server keeps (agent state, recordings, fetched sources).
    const files = readdirSync(stack.server.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) expectNoSecretIn(readFileSync(join(file.parentPath, file.name)).toString('latin1'));
  });

  it('seals, on first start, the plain secrets of a database written before sealing existed', async () => {
    const settings: ServerOptions = { secretsKey: { key: newKey() } };
    const { stack, id } = await serverWithSecrets(settings);
    const record = (await stack.server.api<Record<string, unknown>>('GET', `/api/conversations/${id}`)).body;
    await stack.stop();
    // What the code before sealing wrote: the record as plain JSON (here recovered from the sealed row).
    const plain = plainRecord(stack.server.dataDir, settings, id);
    expect(plain).toContain(SECRETS.llmKey);
    writePlainRecord(stack.server.dataDir, id, plain);
    expect(databaseBytes(stack.server.dataDir)).toContain(SECRETS.llmKey);

    await stack.start();
    expectNoSecretIn(databaseBytes(stack.server.dataDir));
    expect((await stack.server.api('GET', `/api/conversations/${id}`)).body).toEqual(record);
    await runOnce(stack.server, id);
  });

  it('refuses to start with a wrong key, saying so, and leaves the sealed data untouched', async () => {
    const settings: ServerOptions = { secretsKey: { key: newKey() } };
    const { stack, id } = await serverWithSecrets(settings);
    await stack.stop();
    const before = storedRecords(stack.server.dataDir);

    const right = settings.secretsKey;
    settings.secretsKey = { key: newKey() };
    await expect(stack.start()).rejects.toThrow(/sealed with another secrets key/);
    expect(storedRecords(stack.server.dataDir)).toEqual(before);

    settings.secretsKey = right;
    await stack.start();
    await runOnce(stack.server, id);
  });

  it('rotates the key: started with the previous key too, it re-seals everything with the new one', async () => {
    const oldKey = newKey();
    const settings: ServerOptions = { secretsKey: { key: oldKey } };
    const { stack, id } = await serverWithSecrets(settings);
    await stack.stop();
    const before = storedRecords(stack.server.dataDir);

    const rotated = newKey();
    settings.secretsKey = { key: rotated, previousKeys: [oldKey] };
    await stack.start();
    await stack.stop();
    const after = storedRecords(stack.server.dataDir);
    expect(after).toHaveLength(before.length);
    for (const [i, data] of after.entries()) expect(data).not.toBe(before[i]);

    // The old key is no longer needed, nor accepted on its own.
    settings.secretsKey = { key: rotated };
    await stack.start();
    await runOnce(stack.server, id);
    await stack.stop();
    settings.secretsKey = { key: oldKey };
    await expect(stack.start()).rejects.toThrow(/sealed with another secrets key/);
  });

  it('without a configured key, generates one into <data-dir>/secrets.key (mode 0600) and keeps using it', async () => {
    const { stack, id } = await serverWithSecrets();
    const keyFile = join(stack.server.dataDir, 'secrets.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    const key = readFileSync(keyFile, 'utf8');

    await stack.restart();
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    await runOnce(stack.server, id);
    expectNoSecretIn(databaseBytes(stack.server.dataDir));
  });
});

/** The record of `id` in clear, opened with the key of `settings`. */
function plainRecord(dataDir: string, settings: ServerOptions, id: string): string {
  const keyring = new SecretsKeyring(Buffer.from(settings.secretsKey?.key ?? '', 'base64'));
  const [data] = storedRecords(dataDir);
  return keyring.openRecord(id, data as string);
}

function writePlainRecord(dataDir: string, id: string, data: string): void {
  const db = new DatabaseSync(join(dataDir, 'bosun.db'));
  try {
    // Updated twice, as the old code did on every change: the first version is left in the file's free space.
    const update = db.prepare('UPDATE conversations SET data = ? WHERE id = ?');
    update.run(`${data}${' '.repeat(700)}`, id);
    update.run(data, id);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
