import type Database from 'better-sqlite3';
import { SecretsKeyError, type SecretsKeyring, sealingKeyId } from './sealed-secrets.ts';
import { type SecretsKeyOptions, loadSecretsKeyring } from './secrets-key.ts';

/**
 * Opens the conversation records of `db` for sealing: loads the key, refuses a key that cannot open what is
 * stored (before changing anything), and seals with the current key every record still in clear (written
 * before sealing existed) or sealed with a previous key (a rotation). Returns the keyring.
 */
export function openSealedRecords(db: Database.Database, dataDir: string, options: SecretsKeyOptions): SecretsKeyring {
  const keyIds = sealedKeyIds(db);
  const keyring = loadSecretsKeyring(dataDir, options, keyIds);
  const unknown = [...keyIds].filter((id) => !keyring.has(id));
  if (unknown.length > 0) {
    throw new SecretsKeyError(
      [
        `bosun.db holds conversations sealed with another secrets key (key id ${unknown.join(', ')})`,
        `than the one configured (key id ${keyring.keyId}). Start with the key they were sealed with;`,
        'to change keys, give the old one in BOSUN_SECRETS_KEY_PREVIOUS once.',
      ].join(' '),
    );
  }
  resealRecords(db, keyring);
  return keyring;
}

function sealedKeyIds(db: Database.Database): Set<string> {
  const heads = db
    .prepare("SELECT DISTINCT substr(data, 1, 40) AS head FROM conversations WHERE data LIKE 'sealed:%'")
    .all() as { head: string }[];
  return new Set(heads.map((row) => sealingKeyId(row.head)).filter((id): id is string => id !== undefined));
}

/**
 * Seals with the current key each record that is not, then rebuilds the database (VACUUM) and empties the WAL:
 * the old forms of the records (in clear, or sealed with a key being retired) must not linger in free pages
 * or WAL frames. Runs only when something had to be sealed again, so a normal start costs one scan.
 */
function resealRecords(db: Database.Database, keyring: SecretsKeyring): number {
  const rows = db
    .prepare('SELECT id, data FROM conversations WHERE substr(data, 1, ?) <> ?')
    .all(keyring.prefix.length, keyring.prefix) as { id: string; data: string }[];
  if (rows.length === 0) return 0;
  const update = db.prepare('UPDATE conversations SET data = ? WHERE id = ?');
  db.transaction(() => {
    for (const row of rows) update.run(keyring.sealRecord(row.id, keyring.openRecord(row.id, row.data)), row.id);
  })();
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return rows.length;
}
