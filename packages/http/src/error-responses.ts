/**
 * Every operation of the OpenAPI document answers its client errors in one shape: 422 with the list of
 * validation problems (`HTTPValidationError`), any other 4xx with `{"detail": "..."}` (`HTTPError`). Each
 * operation gets a `4XX` response for the errors any route can give (400, 404, 413, 415, 431, ...), one that
 * takes input (a body or parameters) a `422`, and its own 4xx responses point at the same component.
 */
export function documentErrorResponses(document: { paths?: Record<string, Record<string, unknown>> }): void {
  const content = (id: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${id}` } } });
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const responses = operation.responses as Record<string, { description?: string; content?: unknown }>;
      const takesInput =
        'requestBody' in operation || ((operation as { parameters?: unknown[] }).parameters ?? []).length;
      if (takesInput) responses['422'] ??= { description: 'Validation Error' };
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('4')) continue;
        response.content = content(status === '422' ? 'HTTPValidationError' : 'HTTPError');
      }
      responses['4XX'] ??= { description: 'Client error: `{"detail": "..."}`.', content: content('HTTPError') };
    }
  }
}
