/** The database could not be opened: unreachable, missing, or in a state this code cannot use. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/** The PostgreSQL database named in the URL does not exist and creating it was not allowed. */
export class DatabaseMissingError extends DatabaseOpenError {
  override name = 'DatabaseMissingError';
}

/** The database's schema was migrated by a newer Bosun than this one. */
export class SchemaTooNewError extends DatabaseOpenError {
  override name = 'SchemaTooNewError';
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

/** A secrets key that is malformed, missing, or not the one the data was sealed with. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/** A change that conflicts with the stored state (the routes answer 409 with the message). */
export class DataConflictError extends Error {
  override name = 'DataConflictError';
}

/** The user already has a custom secret by this name. */
export class SecretNameTakenError extends DataConflictError {
  override name = 'SecretNameTakenError';
  constructor(readonly secretName: string) {
    super(`a secret named ${secretName} already exists`);
  }
}

/** Another user already has this email address. */
export class EmailTakenError extends DataConflictError {
  override name = 'EmailTakenError';
  constructor() {
    super('a user with this email address already exists');
  }
}

/** The user is already a member of the organization. */
export class AlreadyMemberError extends DataConflictError {
  override name = 'AlreadyMemberError';
  constructor() {
    super('the user is already a member of this organization');
  }
}

/** The change would leave the organization without an owner. */
export class LastOwnerError extends DataConflictError {
  override name = 'LastOwnerError';
  constructor() {
    super('the last owner of an organization can neither leave nor be demoted: make another member owner first');
  }
}

/** A page id that this code did not hand out (the routes answer 422). */
export class InvalidPageIdError extends Error {
  override name = 'InvalidPageIdError';
  constructor() {
    super('page_id is not a page id returned by a previous search');
  }
}
