/**
 * Writes the client's types of the app server's and the agent server's operations from each server's own OpenAPI
 * document: `npm run generate:client`. A route added or changed on a server is then typed in `@bosun/client` by
 * running it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAgentServer, idleRunner } from '@bosun/agent-server';
import { appServerConfig, startAppServer } from '@bosun/app-server';
import { type ApiModuleOptions, type OpenApiDocument, apiModuleOf } from './api-module.ts';

const BIOME = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const COMMAND = 'npm run generate:client';

const clientFile = (path: string) => fileURLToPath(new URL(`../../packages/client/src/${path}`, import.meta.url));
export const APP_SERVER_API_FILE = clientFile('app-server/app-server-api.ts');
export const AGENT_SERVER_API_FILE = clientFile('agent-server/agent-server-api.ts');

/** Runs `use` with a directory removed after. */
async function inTemporaryDirectory<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-client-api-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The app server's `/openapi.json`, from one started in this process on embedded defaults. */
export function appServerDocument(): Promise<OpenApiDocument> {
  return inTemporaryDirectory(async (dataDir) => {
    const config = appServerConfig({ data_dir: dataDir, port: 0, log_level: 'silent' });
    const running = await startAppServer(config, { logStream: { write: () => true } });
    try {
      const answer = await running.server.app.inject({ method: 'GET', url: '/openapi.json' });
      return answer.json() as OpenApiDocument;
    } finally {
      await running.close();
    }
  });
}

/** The agent server's `/openapi.json`, from one built in this process (its agent never runs). */
export function agentServerDocument(): Promise<OpenApiDocument> {
  return inTemporaryDirectory(async (dataDir) => {
    const server = await buildAgentServer({ dataDir, runner: idleRunner });
    try {
      return (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    } finally {
      await server.close();
    }
  });
}

/** The module's text formatted as the repository formats code (as the file at `file` must hold it). */
function formattedModule(document: OpenApiDocument, options: ApiModuleOptions, file: string): string {
  return execFileSync(process.execPath, [BIOME, 'format', `--stdin-file-path=${file}`], {
    input: apiModuleOf(document, options),
    encoding: 'utf8',
  });
}

/** The text `APP_SERVER_API_FILE` must hold. */
export async function appServerApiModule(): Promise<string> {
  const options = {
    name: 'AppServerApi',
    description: 'Every operation of the app server, by path and method: its path parameters, query, body and answer.',
    command: COMMAND,
  };
  return formattedModule(await appServerDocument(), options, APP_SERVER_API_FILE);
}

/** The text `AGENT_SERVER_API_FILE` must hold. */
export async function agentServerApiModule(): Promise<string> {
  const options = {
    name: 'AgentServerApi',
    description:
      'Every operation of the agent server, by path and method: its path parameters, query, body and answer.',
    command: COMMAND,
    // The server stores every event with its id and timestamp.
    namedTypes: { Event: 'P.StoredEvent' },
  };
  return formattedModule(await agentServerDocument(), options, AGENT_SERVER_API_FILE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, module] of [
    [APP_SERVER_API_FILE, appServerApiModule],
    [AGENT_SERVER_API_FILE, agentServerApiModule],
  ] as const) {
    writeFileSync(file, await module());
    console.log(`wrote ${file}`);
  }
  process.exit(0);
}
