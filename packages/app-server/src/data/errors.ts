/** An error whose `name` is its class's name, so that logs and checks see the concrete kind. */
class NamedError extends Error {
  override name = this.constructor.name;
}

export { DatabaseMissingError, DatabaseOpenError, SchemaTooNewError } from '@bosun/database';
export { SecretsKeyError } from '@bosun/sealing';

/** A change that conflicts with the stored state (the routes answer 409 with the message). */
export class DataConflictError extends NamedError {}

/** A conflict that always says the same thing. */
function conflictSaying(message: string) {
  return class extends DataConflictError {
    constructor() {
      super(message);
    }
  };
}

/** The user already has a custom secret by this name. */
export class SecretNameTakenError extends DataConflictError {
  constructor(readonly secretName: string) {
    super(`a secret named ${secretName} already exists`);
  }
}

/** Another user already has this email address. */
export class EmailTakenError extends conflictSaying('a user with this email address already exists') {}

/** The user is already a member of the organization. */
export class AlreadyMemberError extends conflictSaying('the user is already a member of this organization') {}

/** The change would leave the organization without an owner. */
export class LastOwnerError extends conflictSaying(
  'the last owner of an organization can neither leave nor be demoted: make another member owner first',
) {}

/** A page id that this code did not hand out (the routes answer 422). */
export class InvalidPageIdError extends NamedError {
  constructor() {
    super('page_id is not a page id returned by a previous search');
  }
}

/** A marketplace of this name is registered already where the new one would compose. */
export class MarketplaceNameTakenError extends DataConflictError {
  constructor(readonly marketplaceName: string) {
    super(`a marketplace named ${marketplaceName} is registered already`);
  }
}

/** An organization's marketplaces changed since the version the writer read. */
export class StaleMarketplacesError extends conflictSaying(
  "the organization's marketplaces changed since the version you read: read them again (org_version) and retry",
) {}
