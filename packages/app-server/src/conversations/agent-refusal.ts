import { BosunApiError } from '@bosun/client';

/** What an agent server's refusal says. */
export function whyNot(error: unknown): string {
  if (error instanceof BosunApiError) {
    const detail = typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail);
    return `${error.status} ${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
