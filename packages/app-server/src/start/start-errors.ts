/** The configuration cannot be used: one line per problem, each naming the key. */
export class AppServerConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** The server cannot start for a reason its operator can fix (its message says which): no stack trace needed. */
export class StartError extends Error {}

/** The server could not listen where it was told to (the address is in use, not local, not permitted). */
export class ListenError extends StartError {}
