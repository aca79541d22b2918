import { DEFAULTED_REQUEST_PROPERTIES } from '@bosun/client';
import { describe, expect, it } from 'vitest';
import { agentServerDocument } from '../../scripts/client-api/generate.ts';
import { type OpenApiDocument, defaultedRequestProperties } from './openapi-contract.ts';

describe("the agent server client and the agent server's OpenAPI document", () => {
  it('leaves optional in request types exactly the properties the server fills in with a default', async () => {
    const document = (await agentServerDocument()) as OpenApiDocument;
    expect([...DEFAULTED_REQUEST_PROPERTIES].sort()).toEqual(defaultedRequestProperties(document));
  });
});
