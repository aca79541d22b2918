/**
 * A forgiving reader of shell command lines, just deep enough to rate their risk: it splits a line into simple
 * commands (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses), removes quotes, and collects what runs
 * inside them (`$(...)`, backticks, `<(...)`), where their output goes (`>`, `>>`, `&>`, ...) and heredoc
 * bodies. It never fails: input it cannot make sense of still yields words (the analyzer rates what it does
 * not know as UNKNOWN, never as LOW by accident).
 */

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<<`, `<<<`, `<>`. */
  op: string;
  /** The word after the operator (the file), unquoted; undefined for `2>&1`-style duplications. */
  target?: string;
}

export interface SimpleCommand {
  /** The words, quotes removed. A substitution stays in its word as written (`$(...)`), so it reads as unknown. */
  words: string[];
  redirects: Redirect[];
  /** Commands run by substitutions inside this command (`$(...)`, backticks, `<(...)`, `>(...)`). */
  substitutions: string[];
  /** Text fed on standard input by a heredoc or here-string. */
  stdin?: string;
  /** This command reads the output of the previous one (`a | b`). */
  piped: boolean;
}

const OPERATOR_CHARS = new Set([';', '&', '|', '\n', '(', ')']);
const SPACE = new Set([' ', '\t', '\r']);

class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }
  next(): string {
    return this.text[this.pos++] ?? '';
  }
}

/** Reads from `open` (already consumed) to its matching `close`, skipping quoted parts; returns the inside. */
function readBalanced(reader: Reader, open: string, close: string): string {
  const start = reader.pos;
  let depth = 1;
  while (!reader.done) {
    const c = reader.next();
    if (c === '\\') reader.next();
    else if (c === "'") {
      while (!reader.done && reader.next() !== "'");
    } else if (c === '"') {
      while (!reader.done) {
        const d = reader.next();
        if (d === '\\') reader.next();
        else if (d === '"') break;
      }
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return reader.text.slice(start, reader.pos - 1);
  }
  return reader.text.slice(start);
}

function readBackticks(reader: Reader): string {
  let inner = '';
  while (!reader.done) {
    const c = reader.next();
    if (c === '\\' && reader.peek() === '`') inner += reader.next();
    else if (c === '`') break;
    else inner += c;
  }
  return inner;
}

interface Word {
  text: string;
}

/** Splits `text` into simple commands. Heredoc bodies are attached to their command, not read as commands. */
export function parseShell(text: string): SimpleCommand[] {
  const reader = new Reader(text);
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [], substitutions: [], piped: false };
  let word: Word | undefined;
  let pendingRedirect: string | undefined;
  const heredocs: { command: SimpleCommand; delimiter: string; stripTabs: boolean }[] = [];

  const endWord = () => {
    if (!word) return;
    if (pendingRedirect !== undefined) {
      current.redirects.push({ op: pendingRedirect, target: word.text });
      if (pendingRedirect === '<<<') current.stdin = `${current.stdin ?? ''}${word.text}\n`;
      pendingRedirect = undefined;
    } else current.words.push(word.text);
    word = undefined;
  };
  const endCommand = (piped: boolean) => {
    endWord();
    if (pendingRedirect !== undefined) {
      current.redirects.push({ op: pendingRedirect });
      pendingRedirect = undefined;
    }
    if (current.words.length || current.redirects.length || current.substitutions.length) commands.push(current);
    current = { words: [], redirects: [], substitutions: [], piped };
  };
  const append = (chars: string) => {
    word ??= { text: '' };
    word.text += chars;
  };
  const readHeredocBodies = () => {
    for (const heredoc of heredocs.splice(0)) {
      const lines: string[] = [];
      while (!reader.done) {
        const end = reader.text.indexOf('\n', reader.pos);
        const line = reader.text.slice(reader.pos, end < 0 ? undefined : end);
        reader.pos = end < 0 ? reader.text.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === heredoc.delimiter) break;
        lines.push(line);
      }
      heredoc.command.stdin = `${heredoc.command.stdin ?? ''}${lines.join('\n')}\n`;
    }
  };

  while (!reader.done) {
    const c = reader.peek();
    if (SPACE.has(c)) {
      reader.next();
      endWord();
      continue;
    }
    if (c === '\\') {
      reader.next();
      const escaped = reader.next();
      if (escaped !== '\n') append(escaped);
      continue;
    }
    if (c === '#' && !word) {
      while (!reader.done && reader.peek() !== '\n') reader.next();
      continue;
    }
    if (c === "'") {
      reader.next();
      let inner = '';
      while (!reader.done && reader.peek() !== "'") inner += reader.next();
      reader.next();
      append(inner);
      continue;
    }
    if (c === '"') {
      reader.next();
      let inner = '';
      while (!reader.done && reader.peek() !== '"') {
        const d = reader.next();
        if (d === '\\' && ['"', '\\', '$', '`', '\n'].includes(reader.peek())) {
          const escaped = reader.next();
          if (escaped !== '\n') inner += escaped;
        } else if (d === '$' && reader.peek() === '(' && reader.peek(1) !== '(') {
          reader.next();
          const sub = readBalanced(reader, '(', ')');
          current.substitutions.push(sub);
          inner += `$(${sub})`;
        } else if (d === '`') {
          const sub = readBackticks(reader);
          current.substitutions.push(sub);
          inner += `\`${sub}\``;
        } else inner += d;
      }
      reader.next();
      append(inner);
      continue;
    }
    if (c === '$' && reader.peek(1) === '(') {
      reader.pos += 2;
      if (reader.peek() === '(') {
        reader.next();
        append(`$((${readBalanced(reader, '(', ')')})`);
        continue;
      }
      const sub = readBalanced(reader, '(', ')');
      current.substitutions.push(sub);
      append(`$(${sub})`);
      continue;
    }
    if (c === '`') {
      reader.next();
      const sub = readBackticks(reader);
      current.substitutions.push(sub);
      append(`\`${sub}\``);
      continue;
    }
    if ((c === '<' || c === '>') && reader.peek(1) === '(') {
      // Process substitution: its command runs; the word stands for a file name.
      reader.pos += 2;
      const sub = readBalanced(reader, '(', ')');
      current.substitutions.push(sub);
      append(`${c}(${sub})`);
      continue;
    }
    if (c === '>' || c === '<' || (c === '&' && reader.peek(1) === '>')) {
      // An fd number right before the operator (`2>`) belongs to it; any other word ends here.
      if (word && !/^\d+$/.test(word.text)) endWord();
      word = undefined;
      let op = reader.next();
      while (!reader.done && '<>|'.includes(reader.peek()) && op.length < 3) {
        if (reader.peek() === '|' && op !== '>') break;
        op += reader.next();
      }
      if (reader.peek() === '&' && (op === '>' || op === '<' || op === '>>')) {
        // `2>&1`, `>&2`, `<&-`: a duplication, no file.
        reader.next();
        while (/[\d-]/.test(reader.peek())) reader.next();
        current.redirects.push({ op });
        continue;
      }
      endWord();
      if (op === '<<') {
        const stripTabs = reader.peek() === '-';
        if (stripTabs) reader.next();
        while (SPACE.has(reader.peek())) reader.next();
        let delimiter = '';
        while (!reader.done && !SPACE.has(reader.peek()) && !OPERATOR_CHARS.has(reader.peek())) {
          const d = reader.next();
          if (d !== "'" && d !== '"' && d !== '\\') delimiter += d;
        }
        current.redirects.push({ op: '<<', target: delimiter });
        heredocs.push({ command: current, delimiter, stripTabs });
        continue;
      }
      pendingRedirect = op;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      reader.next();
      if (c === '|') {
        if (reader.peek() === '|') {
          reader.next();
          endCommand(false);
        } else {
          if (reader.peek() === '&') reader.next();
          endCommand(true);
        }
      } else if (c === '&' && reader.peek() === '&') {
        reader.next();
        endCommand(false);
      } else if (c === ';' && reader.peek() === ';') {
        reader.next();
        endCommand(false);
      } else {
        endCommand(false);
        if (c === '\n') readHeredocBodies();
      }
      continue;
    }
    append(reader.next());
  }
  endCommand(false);
  readHeredocBodies();
  return commands;
}
