import { HttpError } from '@bosun/http';
import { RuntimeUnavailableError, SandboxNotFoundError } from '@bosun/runtime';

/** What `operation` answers, or undefined when the runtime no longer has the sandbox. */
export async function orUnknown<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof SandboxNotFoundError) return undefined;
    throw error;
  }
}

/** The runtime out of reach, as the app answers: 503 with why, nothing changed (other errors go on as they are). */
export function unavailable(error: unknown): never {
  if (error instanceof RuntimeUnavailableError) {
    throw new HttpError(503, `${error.message}; nothing was changed, try again later`, { 'retry-after': '10' });
  }
  throw error;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
