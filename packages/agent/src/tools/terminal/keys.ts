/**
 * Turning the `command` of an `is_input` action into bytes for the terminal: special key names (`C-c`, `UP`,
 * `ENTER`, ...) become their control characters or escape sequences; any other text is typed followed by Enter.
 */

const ESC = '\x1b';

const NAMED_KEYS: Readonly<Record<string, string>> = {
  UP: `${ESC}[A`,
  DOWN: `${ESC}[B`,
  RIGHT: `${ESC}[C`,
  LEFT: `${ESC}[D`,
  HOME: `${ESC}[H`,
  END: `${ESC}[F`,
  PGUP: `${ESC}[5~`,
  PGDN: `${ESC}[6~`,
  TAB: '\t',
  ESC,
  BS: '\x7f',
  ENTER: '\r',
};

/** `C-<letter>` and the other characters a terminal can send with Ctrl (`C-[`, `C-\`, `C-]`, `C-^`, `C-_`, `C-@`). */
const CONTROL_KEY = /^[Cc]-([A-Za-z@[\\\]^_])$/;

/** The bytes for a special key name (surrounding whitespace ignored), or undefined when `text` is not one. */
export function specialKey(text: string): string | undefined {
  const name = text.trim();
  const control = CONTROL_KEY.exec(name);
  if (control) return String.fromCharCode(control[1]!.toUpperCase().charCodeAt(0) & 0x1f);
  return NAMED_KEYS[name.toUpperCase()];
}

/** True for `C-<key>` names: keys that only make sense for a running process (never a shell command). */
export function isControlKey(text: string): boolean {
  return CONTROL_KEY.test(text.trim());
}

/** What to write to the terminal for an `is_input` action: a special key as is, text followed by Enter. */
export function inputBytes(command: string): string {
  return specialKey(command) ?? `${command}\r`;
}
