/** What this package logs through (pino's shape: an object, then the message). */
export interface DatabaseLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  debug?(fields: object, message: string): void;
}
