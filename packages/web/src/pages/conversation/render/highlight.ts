import hljs from 'highlight.js/lib/common';

/** Past this size, text is shown plain: highlighting it would block the page. */
const MAX_HIGHLIGHT = 200_000;

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  json: 'json',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  md: 'markdown',
  html: 'xml',
  xml: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  swift: 'swift',
  lua: 'lua',
  pl: 'perl',
  r: 'r',
  diff: 'diff',
  patch: 'diff',
  dockerfile: 'dockerfile',
  makefile: 'makefile',
};

/** The highlight.js language of a file path or a code fence's name, if it knows it. */
export function languageOf(pathOrName: string | undefined): string | undefined {
  if (!pathOrName) return undefined;
  const lower = pathOrName.toLowerCase();
  if (hljs.getLanguage(lower)) return lower;
  const base = lower.split('/').pop() ?? lower;
  const ext = base.includes('.') ? (base.split('.').pop() ?? '') : base;
  const name = EXTENSIONS[ext];
  return name && hljs.getLanguage(name) ? name : undefined;
}

/** The code as highlighted HTML (escaped), or undefined when it is too large or the language is unknown. */
export function highlight(code: string, language: string | undefined): string | undefined {
  if (code.length > MAX_HIGHLIGHT || !language) return undefined;
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
