import { readFile, readdir } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder, importSpecifiers } from './support/imports.ts';

/**
 * The arrows between packages ("The shape" in the architecture notes): every import of every package's sources
 * points down the table below, never into another package's files (only `@bosun/<name>`, which is its
 * `index.ts`). package.json declarations are checked apart (dependencies.test.ts): a declared dependency may
 * still break an arrow.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCOPE = '@bosun/';

interface Rule {
  /** The packages (folders of packages/) its sources may import; `everything` for the command line. */
  imports: readonly string[] | 'everything';
  why: string;
}

/** What each package's sources may import of the others; nothing lists `cli`, so nothing depends on it. */
const RULES: Readonly<Record<string, Rule>> = {
  protocol: { imports: [], why: 'the wire model stands below everything' },
  sealing: { imports: [], why: 'sealing secrets at rest needs nothing of Bosun' },
  database: { imports: [], why: 'connections and migrations know no domain' },
  'llm-replay': { imports: [], why: 'the scripted LLM server stands alone, for tests, benchmarks and demos' },
  http: { imports: ['protocol'], why: 'what both servers share over HTTP' },
  sources: { imports: ['protocol'], why: 'where skills and plugins come from runs no agent' },
  agent: { imports: ['protocol', 'sources'], why: 'the agent as a library, usable without any server' },
  // http, sealing and database: the servers' shared HTTP stack, the agent server's secrets at rest, its SQLite files.
  'agent-server': {
    imports: ['protocol', 'sources', 'agent', 'http', 'sealing', 'database'],
    why: 'HTTP and WebSocket over agent',
  },
  client: { imports: ['protocol'], why: 'the typed client of both servers, in Node and in browsers' },
  runtime: {
    imports: ['client', 'protocol', 'http', 'database', 'sealing'],
    why: 'sandboxes behind one interface, their agent servers reached through client',
  },
  'app-server': {
    imports: ['client', 'protocol', 'runtime', 'sources', 'http', 'database', 'sealing'],
    why: 'the app server never imports agent or agent-server: it talks to sandboxes over HTTP through client',
  },
  web: { imports: ['client', 'protocol'], why: 'the browser application talks only through client' },
  cli: { imports: 'everything', why: 'the bosun command may depend on everything' },
};

interface SourceFile {
  /** From the repository's root, with `/`: `packages/<name>/src/...`. */
  path: string;
  source: string;
}

/** Every import of `files` that breaks `rules`, each naming the file, the import and the rule. */
function forbiddenImports(files: readonly SourceFile[], rules: Readonly<Record<string, Rule>>): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const owner = file.path.split('/')[1] as string;
    for (const specifier of new Set(importSpecifiers(file.source))) {
      const problem = breach(owner, file.path, specifier, rules);
      if (problem) problems.push(`${file.path}: import '${specifier}' ${problem}`);
    }
  }
  return problems;
}

function breach(
  owner: string,
  path: string,
  specifier: string,
  rules: Readonly<Record<string, Rule>>,
): string | undefined {
  if (specifier.startsWith('.')) {
    const target = posix.normalize(posix.join(posix.dirname(path), specifier));
    if (target.startsWith(`packages/${owner}/`)) return undefined;
    return `reaches into another package's files (${target}): import the package, which exports its API from its index.ts`;
  }
  if (!specifier.startsWith(SCOPE)) return undefined;
  const [name, ...deep] = specifier.slice(SCOPE.length).split('/');
  if (deep.length)
    return `is a deep import into the internals of ${SCOPE}${name}: import '${SCOPE}${name}' (its index.ts)`;
  const rule = rules[owner];
  if (!rule) return `comes from ${owner}, which the dependency table does not list`;
  if (name === owner || rule.imports === 'everything' || rule.imports.includes(name as string)) return undefined;
  const allowed = rule.imports.length ? rule.imports.join(', ') : 'no other package';
  return `breaks the rule "${owner} imports ${allowed}" (${rule.why})`;
}

/** A cycle of the table (`a -> b -> a`), or null when its arrows all point one way. */
function cycleIn(rules: Readonly<Record<string, Rule>>): string[] | null {
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string[] | null => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return null;
    const rule = rules[name];
    const next = rule?.imports === 'everything' ? Object.keys(rules).filter((n) => n !== name) : (rule?.imports ?? []);
    for (const target of next) {
      const cycle = visit(target, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return null;
  };
  for (const name of Object.keys(rules)) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return null;
}

async function packageNames(): Promise<string[]> {
  const entries = await readdir(join(ROOT, 'packages'), { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

async function packageSources(): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const name of await packageNames()) {
    for (const file of await filesUnder(join(ROOT, 'packages', name, 'src'), /\.tsx?$/)) {
      files.push({ path: relative(ROOT, file).split(sep).join('/'), source: await readFile(file, 'utf8') });
    }
  }
  return files;
}

describe('the dependency rule', () => {
  it('every import of every package’s sources follows the arrows, and none reaches into another package', async () => {
    const files = await packageSources();
    expect(files.length).toBeGreaterThan(500);
    expect(forbiddenImports(files, RULES)).toEqual([]);
  });

  it('lists every package once, by the folder its @bosun/ name is, and its arrows point one way', async () => {
    const names = await packageNames();
    expect(Object.keys(RULES).sort()).toEqual([...names].sort());
    for (const name of names) {
      const manifest = JSON.parse(await readFile(join(ROOT, 'packages', name, 'package.json'), 'utf8'));
      expect(manifest.name).toBe(`${SCOPE}${name}`);
    }
    for (const [name, rule] of Object.entries(RULES)) {
      if (rule.imports === 'everything') continue;
      expect(
        rule.imports.filter((target) => !(target in RULES) || target === 'cli'),
        name,
      ).toEqual([]);
    }
    expect(cycleIn(RULES)).toBeNull();
  });
});

describe('the dependency rule’s checker', () => {
  it('names each forbidden import: a wrong arrow, a deep import, a path into another package, a dynamic import', () => {
    const files: SourceFile[] = [
      {
        path: 'packages/app-server/src/conversations/run.ts',
        source: "import { Agent } from '@bosun/agent';\nimport { parse } from '@bosun/protocol';\n",
      },
      { path: 'packages/sources/src/skills/load.ts', source: "const agent = await import('@bosun/agent');\n" },
      {
        path: 'packages/agent/src/loop/step.ts',
        source: [
          "export { Event } from '@bosun/protocol/src/events/index.ts';",
          "import type {\n  Skill,\n} from '../../../sources/src/skills/types.ts';",
          "import { runStep } from './run.ts';",
          "import { GitCache } from '@bosun/sources';",
          "import { spawn } from 'node:child_process';",
        ].join('\n'),
      },
      { path: 'packages/runtime/src/local.ts', source: "import type { Config } from '@bosun/cli';\n" },
      {
        path: 'packages/cli/src/main.ts',
        source: "import { serve } from '@bosun/app-server';\nimport '@bosun/agent';\n",
      },
    ];
    expect(forbiddenImports(files, RULES)).toEqual([
      `packages/app-server/src/conversations/run.ts: import '@bosun/agent' breaks the rule "app-server imports client, protocol, runtime, sources, http, database, sealing" (${RULES['app-server']?.why})`,
      `packages/sources/src/skills/load.ts: import '@bosun/agent' breaks the rule "sources imports protocol" (${RULES.sources?.why})`,
      "packages/agent/src/loop/step.ts: import '@bosun/protocol/src/events/index.ts' is a deep import into the internals of @bosun/protocol: import '@bosun/protocol' (its index.ts)",
      "packages/agent/src/loop/step.ts: import '../../../sources/src/skills/types.ts' reaches into another package's files (packages/sources/src/skills/types.ts): import the package, which exports its API from its index.ts",
      `packages/runtime/src/local.ts: import '@bosun/cli' breaks the rule "runtime imports client, protocol, http, database, sealing" (${RULES.runtime?.why})`,
    ]);
  });

  it('finds a cycle in a table', () => {
    const rules = { a: { imports: ['b'], why: '' }, b: { imports: ['c'], why: '' }, c: { imports: ['a'], why: '' } };
    expect(cycleIn(rules)).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleIn({ ...rules, c: { imports: [], why: '' } })).toBeNull();
  });
});
