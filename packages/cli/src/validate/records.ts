/**
 * Splits a file of events into records with the line each starts on: a JSON array of events, or JSON Lines
 * (one event per line, blank lines ignored). Syntax errors become records with `syntaxError` set, so one bad
 * line never hides the others.
 */
export interface EventRecord {
  /** 1-based line where the record starts. */
  line: number;
  value?: unknown;
  syntaxError?: string;
}

export function readRecords(text: string): EventRecord[] {
  const start = firstNonSpace(text);
  if (start >= 0 && text[start] === '[') return readArray(text);
  return readLines(text);
}

function firstNonSpace(text: string, from = 0): number {
  for (let i = from; i < text.length; i++) if (!/\s/.test(text[i] as string)) return i;
  return -1;
}

function readLines(text: string): EventRecord[] {
  const records: EventRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    try {
      records.push({ line: i + 1, value: JSON.parse(line) });
    } catch (error) {
      records.push({ line: i + 1, syntaxError: (error as Error).message });
    }
  }
  return records;
}

function readArray(text: string): EventRecord[] {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? lineAt(text, Number(position[1])) : 1;
    return [{ line, syntaxError: message }];
  }
  if (!Array.isArray(values)) return [{ line: 1, value: values }];
  const lines = elementLines(text);
  return values.map((value, i) => ({ line: lines[i] ?? 1, value }));
}

/** The line on which each top-level element of a (valid) JSON array starts. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingElement = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') line++;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    if (depth === 1 && expectingElement && char !== ']') {
      lines.push(line);
      expectingElement = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth++;
      if (depth === 1) expectingElement = true;
    } else if (char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 1) expectingElement = true;
  }
  return lines;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}
