import { type SqliteFile, inTransaction } from '@bosun/database';
import { SEALED_PREFIX_LENGTH, SecretsKeyError, type SecretsKeyring, sealingKeyId } from './sealed-secrets.ts';
import { type SecretsKeyOptions, loadSecretsKeyring } from './secrets-key.ts';

/** The sealing prefix of a record (`sealed:v1:<key id>:`), as indexed. */
const SEALING = `substr(data, 1, ${SEALED_PREFIX_LENGTH})`;

/**
 * Opens the conversation records of `db` for sealing: loads the key, refuses a key that cannot open what is
 * stored (before changing anything), and seals with the current key every record still in clear (written
 * before sealing existed) or sealed with a previous key (a rotation). Returns the keyring.
 */
export function openSealedRecords(db: SqliteFile, dataDir: string, options: SecretsKeyOptions): SecretsKeyring {
  const keyring = loadSecretsKeyring(dataDir, options, () => sealedKeyIds(db));
  // An index on the sealing prefix finds the records not sealed with the current key (none, on a normal start)
  // without reading every record; SQLite keeps it up to date whatever version of Bosun writes.
  db.exec(`CREATE INDEX IF NOT EXISTS conversations_by_sealing ON conversations (${SEALING})`);
  const stale = db
    .prepare(`SELECT id, data FROM conversations WHERE ${SEALING} < @prefix OR ${SEALING} > @prefix`)
    .all({ prefix: keyring.prefix }) as { id: string; data: string }[];
  const unknown = new Set(stale.map((row) => sealingKeyId(row.data)).filter((id) => id && !keyring.has(id)));
  if (unknown.size > 0) {
    throw new SecretsKeyError(
      [
        `bosun.db holds conversations sealed with another secrets key (key id ${[...unknown].join(', ')})`,
        `than the one configured (key id ${keyring.keyId}). Start with the key they were sealed with;`,
        'to change keys, give the old one in BOSUN_SECRETS_KEY_PREVIOUS once.',
      ].join(' '),
    );
  }
  if (stale.length > 0) reseal(db, keyring, stale);
  return keyring;
}

function sealedKeyIds(db: SqliteFile): Set<string> {
  const heads = db
    .prepare("SELECT DISTINCT substr(data, 1, 40) AS head FROM conversations WHERE data LIKE 'sealed:%'")
    .all() as { head: string }[];
  return new Set(heads.map((row) => sealingKeyId(row.head)).filter((id): id is string => id !== undefined));
}

/**
 * Seals the records with the current key, then rebuilds the database (VACUUM) and empties the WAL: their old
 * forms (in clear, or sealed with a key being retired) must not linger in free pages or WAL frames.
 */
function reseal(db: SqliteFile, keyring: SecretsKeyring, rows: { id: string; data: string }[]): void {
  const update = db.prepare('UPDATE conversations SET data = ? WHERE id = ?');
  inTransaction(db, () => {
    for (const row of rows) update.run(keyring.sealRecord(row.id, keyring.openRecord(row.id, row.data)), row.id);
  });
  db.exec('VACUUM');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}
