import { ConflictError } from '@bosun/http';
import {
  type ConfirmationResponseRequest,
  Secrets,
  type SetConfirmationPolicyRequest,
  type SetSecurityAnalyzerRequest,
  Success,
} from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type ConfirmationControl, NotWaitingError } from '../conversations/confirmation.ts';
import { ConversationBusyError } from '../conversations/runs.ts';
import type { ConversationService } from '../conversations/service.ts';
import { addSecrets, setConfirmationPolicy, setSecurityAnalyzer } from '../conversations/settings.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from './params.ts';

export interface ControlRouteDeps {
  service: ConversationService;
  control: ConfirmationControl;
}

const tags = ['Conversations'];
const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

const UpdateSecretsRequest = Type.Object(
  {
    secrets: Type.Unsafe({
      ...Secrets,
      propertyNames: { minLength: 1, maxLength: 256 },
      description: 'Secrets by name: a string, or `{"value": ...}`. Added to (or replacing) the existing ones.',
    }),
  },
  { additionalProperties: false, description: 'Add or replace secrets.' },
);
type UpdateSecretsRequest = { secrets: Static<typeof Secrets> };

/**
 * Control over the agent of a conversation: its confirmation policy (and deadline), its security analyzer, its
 * secrets, and the answer to actions waiting for confirmation. Each change is recorded in the log as a
 * `ConversationStateUpdateEvent` (secrets by name only) and shows in the conversation's info.
 */
export function controlRoutes(app: FastifyInstance, { service, control }: ControlRouteDeps): void {
  app.post<{ Body: SetConfirmationPolicyRequest }>(
    '/api/conversations/:conversation_id/confirmation_policy',
    {
      schema: {
        tags,
        summary: 'Set the confirmation policy (and optionally the confirmation deadline)',
        params: ConversationIdParams,
        body: ref('SetConfirmationPolicyRequest'),
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const conversation = conversationOf(service, request);
      await setConfirmationPolicy(conversation, request.body);
      control.sync(conversation);
      return { success: true };
    },
  );

  app.post<{ Body: SetSecurityAnalyzerRequest }>(
    '/api/conversations/:conversation_id/security_analyzer',
    {
      schema: {
        tags,
        summary: 'Set or remove (null) the security analyzer',
        params: ConversationIdParams,
        body: ref('SetSecurityAnalyzerRequest'),
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await setSecurityAnalyzer(conversationOf(service, request), request.body.security_analyzer);
      return { success: true };
    },
  );

  app.post<{ Body: UpdateSecretsRequest }>(
    '/api/conversations/:conversation_id/secrets',
    {
      schema: {
        tags,
        summary: 'Add or replace secrets (exported to the terminal, masked in observations, never returned)',
        params: ConversationIdParams,
        body: UpdateSecretsRequest,
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await addSecrets(conversationOf(service, request), request.body.secrets);
      return { success: true };
    },
  );

  app.post<{ Body: ConfirmationResponseRequest }>(
    '/api/conversations/:conversation_id/events/respond_to_confirmation',
    {
      schema: {
        tags: ['Events'],
        summary: 'Accept (run) or reject the actions waiting for confirmation (409 when none wait)',
        params: ConversationIdParams,
        body: ref('ConfirmationResponseRequest'),
        response: { 200: Success, 404: NotFoundResponse, 409: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const conversation = conversationOf(service, request);
      try {
        await control.respond(conversation, request.body);
      } catch (error) {
        if (error instanceof NotWaitingError || error instanceof ConversationBusyError) {
          throw new ConflictError(error.message);
        }
        throw error;
      }
      return { success: true };
    },
  );
}
