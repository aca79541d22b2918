import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const OPENHANDS = JSON.parse(
  readFileSync(new URL('./fixtures/openhands-operations.json', import.meta.url), 'utf8'),
) as {
  operations: { method: string; path: string }[];
};

/** The operation cell (`METHOD /path`) of each row of the compatibility table. */
function tableOperations(): string[] {
  return README.split('\n').flatMap((line) => {
    const match = /^\| `([A-Z]+ \/[^`]*)`/.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

describe('the compatibility table of the README', () => {
  it("has a row for every operation of OpenHands' OpenAPI document, each saying same, differs or not applicable", () => {
    const rows = tableOperations();
    expect(OPENHANDS.operations).toHaveLength(44);
    const missing = OPENHANDS.operations.map((o) => `${o.method} ${o.path}`).filter((op) => !rows.includes(op));
    expect(missing).toEqual([]);
    for (const line of README.split('\n').filter((l) => /^\| `[A-Z]+ \//.test(l))) {
      expect(line.split('|')[2]?.trim(), line).toMatch(/^(same|differs|not applicable)/);
    }
  });
});
