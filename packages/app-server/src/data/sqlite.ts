import { join } from 'node:path';

/** The app's SQLite file inside the data directory. */
export const SQLITE_FILE = 'app.db';

/** Where the app's SQLite database is for a data directory. */
export function sqlitePath(dataDir: string): string {
  return join(dataDir, SQLITE_FILE);
}
