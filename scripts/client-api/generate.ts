/**
 * Writes the client's types of the app server's operations from the app server's own OpenAPI document:
 * `npm run generate:client`. A route added or changed on the server is then typed in `@bosun/client` by running it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appServerConfig, startAppServer } from '@bosun/app-server';
import { type OpenApiDocument, apiModuleOf } from './api-module.ts';

const BIOME = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');

export const APP_SERVER_API_FILE = fileURLToPath(
  new URL('../../packages/client/src/app-server/app-server-api.ts', import.meta.url),
);

/** The app server's `/openapi.json`, from one started in this process on embedded defaults in a directory removed after. */
export async function appServerDocument(): Promise<OpenApiDocument> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bosun-client-api-'));
  try {
    const config = appServerConfig({ data_dir: dataDir, port: 0, log_level: 'silent' });
    const running = await startAppServer(config, { logStream: { write: () => true } });
    try {
      const answer = await running.server.app.inject({ method: 'GET', url: '/openapi.json' });
      return answer.json() as OpenApiDocument;
    } finally {
      await running.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The text `APP_SERVER_API_FILE` must hold: the module, formatted as the repository formats code. */
export async function appServerApiModule(): Promise<string> {
  const text = apiModuleOf(await appServerDocument(), {
    name: 'AppServerApi',
    description: 'Every operation of the app server, by path and method: its path parameters, query, body and answer.',
    command: 'npm run generate:client',
  });
  return execFileSync(process.execPath, [BIOME, 'format', `--stdin-file-path=${APP_SERVER_API_FILE}`], {
    input: text,
    encoding: 'utf8',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(APP_SERVER_API_FILE, await appServerApiModule());
  console.log(`wrote ${APP_SERVER_API_FILE}`);
  process.exit(0);
}
