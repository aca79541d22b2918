import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { legacyApi } from '../../src/http/legacy/index.ts';
import { NOT_APPLICABLE_ROUTES } from '../../src/http/not-applicable.ts';
import { buildAppServer } from '../../src/index.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const OPENHANDS = JSON.parse(
  readFileSync(new URL('../fixtures/openhands-app-operations.json', import.meta.url), 'utf8'),
) as { operations: { method: string; path: string }[] };

/** The rows of the README's tables: the operation cell (`METHOD /path`) and the next. */
function rows(): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of README.split('\n')) {
    const match = /^\| `([A-Z]+ \/[^`]*)` \| (.*) \|$/.exec(line);
    if (match?.[1] && match[2]) found.set(match[1], match[2]);
  }
  return found;
}

describe('the compatibility table of the README', () => {
  it('has a row for every /api/v1 and health operation of OpenHands’ app, each saying same, differs or not applicable', () => {
    const table = rows();
    expect(OPENHANDS.operations).toHaveLength(68);
    const missing = OPENHANDS.operations.map((o) => `${o.method} ${o.path}`).filter((op) => !table.has(op));
    expect(missing).toEqual([]);
    for (const { method, path } of OPENHANDS.operations) {
      expect(table.get(`${method} ${path}`), path).toMatch(/^(same|differs|not applicable)/);
    }
  });

  it('says not applicable (501) for each route Bosun answers so', () => {
    const table = rows();
    expect(NOT_APPLICABLE_ROUTES.length).toBeGreaterThan(0);
    for (const route of NOT_APPLICABLE_ROUTES) expect(table.get(route), route).toMatch(/^not applicable \(501\)/);
  });

  it('has a row for every legacy route the server serves', async () => {
    const server = await buildAppServer({ apiRoutes: [], socketRoutes: [legacyApi], config: { log_level: 'silent' } });
    try {
      const document = (await server.app.inject('/openapi.json')).json() as { paths: Record<string, object> };
      const legacy = Object.entries(document.paths)
        .filter(([path]) => !path.startsWith('/api/v1/') && path.startsWith('/api/'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
      expect(legacy.length).toBeGreaterThan(15);
      const table = rows();
      expect(legacy.filter((route) => !table.has(route))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
