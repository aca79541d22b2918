import { ConflictError } from '@bosun/http';
import {
  type ConfirmationResponseRequest,
  Secrets,
  type SetConfirmationPolicyRequest,
  type SetSecurityAnalyzerRequest,
} from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type ConfirmationControl, NotWaitingError } from '../../conversations/confirmation.ts';
import { ConversationBusyError } from '../../conversations/runs.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { addSecrets, setConfirmationPolicy, setSecurityAnalyzer } from '../../conversations/settings.ts';
import { componentRef, conversationCommand } from '../params.ts';

export interface ControlRouteDeps {
  service: ConversationService;
  control: ConfirmationControl;
}

const tags = ['Conversations'];

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
  conversationCommand<SetConfirmationPolicyRequest>(
    app,
    service,
    {
      path: 'confirmation_policy',
      tags,
      summary: 'Set the confirmation policy (and optionally the confirmation deadline)',
      body: componentRef('SetConfirmationPolicyRequest'),
    },
    async (conversation, body) => {
      await setConfirmationPolicy(conversation, body);
      control.sync(conversation);
    },
  );

  conversationCommand<SetSecurityAnalyzerRequest>(
    app,
    service,
    {
      path: 'security_analyzer',
      tags,
      summary: 'Set or remove (null) the security analyzer',
      body: componentRef('SetSecurityAnalyzerRequest'),
    },
    (conversation, body) => setSecurityAnalyzer(conversation, body.security_analyzer),
  );

  conversationCommand<UpdateSecretsRequest>(
    app,
    service,
    {
      path: 'secrets',
      tags,
      summary: 'Add or replace secrets (exported to the terminal, masked in observations, never returned)',
      body: UpdateSecretsRequest,
    },
    (conversation, body) => addSecrets(conversation, body.secrets),
  );

  conversationCommand<ConfirmationResponseRequest>(
    app,
    service,
    {
      path: 'events/respond_to_confirmation',
      tags: ['Events'],
      summary: 'Accept (run) or reject the actions waiting for confirmation (409 when none wait)',
      body: componentRef('ConfirmationResponseRequest'),
      conflicts: true,
    },
    async (conversation, body) => {
      try {
        await control.respond(conversation, body);
      } catch (error) {
        if (error instanceof NotWaitingError || error instanceof ConversationBusyError) {
          throw new ConflictError(error.message);
        }
        throw error;
      }
    },
  );
}
