/** An error whose `name` is its class's name, so that logs and checks see the concrete kind. */
class NamedError extends Error {
  override name = this.constructor.name;
}

/** The database could not be opened: unreachable, missing, or in a state this code cannot use. */
export class DatabaseOpenError extends NamedError {}

/** The PostgreSQL database named in the URL does not exist and creating it was not allowed. */
export class DatabaseMissingError extends DatabaseOpenError {}

/** The database's schema was migrated by a newer Bosun than this one. */
export class SchemaTooNewError extends DatabaseOpenError {
  constructor(
    readonly databaseVersion: string,
    readonly newestKnownVersion: string,
  ) {
    super(
      [
        `the database schema is at version ${databaseVersion}, newer than the newest this Bosun knows`,
        `(${newestKnownVersion}): a newer Bosun has upgraded it. Run that newer version (or a later one);`,
        'to go back to this version, restore the backup taken before the upgrade (schemas are never downgraded).',
      ].join(' '),
    );
  }
}
