import { InputError } from '@bosun/http';
import {
  type LaunchDecoded,
  type LaunchLink,
  type LaunchLinkRequest,
  type LaunchProblem,
  MAX_LAUNCH_MESSAGE,
  buildLaunchLink,
  decodeLaunchLink,
} from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';

const route = routeOptions('Launch links');

// No length limit here: the decoder's own, with its clear message, applies (Node bounds a URL at 16 KiB anyway).
const DecodeQuery = Type.Object(
  {
    plugins: Type.String({
      description: 'The `plugins` parameter of a launch link: base64 (standard or URL-safe) of a JSON array.',
    }),
    message: Type.Optional(Type.String({ maxLength: MAX_LAUNCH_MESSAGE * 4, description: 'Its `message`.' })),
  },
  { additionalProperties: false },
);
type DecodeQuery = { plugins: string; message?: string };

/**
 * Launch links (`/launch?plugins=...&message=...`), built and read by the one pair of functions the web UI uses
 * too. They read no one's data, but are behind sign-in like the rest of `/api/v1` (so is OpenHands' `/launch`).
 */
export const launchApi: ApiRoutes = (api, context) => {
  api.post<{ Body: LaunchLinkRequest }>(
    '/launch/link',
    route('The launch link of plugin references and a first message (for badges and documentation)', {
      description: 'Every invalid reference is a 422 item with its place (`["body", "plugins", 2, "ref"]`).',
      body: shape('LaunchLinkRequest'),
      response: { 200: 'LaunchLink' },
    }),
    async (request): Promise<LaunchLink> => {
      const { plugins, message = null, base_url } = request.body;
      const built = buildLaunchLink(plugins, { message, baseUrl: base_url ?? context.publicUrl(), at: ['body'] });
      if (built.url === null) throw new InputError(built.problems.map(asValidationError));
      return { url: built.url, problems: [] };
    },
  );

  api.get<{ Querystring: DecodeQuery }>(
    '/launch/decode',
    route('What a launch link holds: its plugin references, message and every problem', {
      description: 'Problems are data here (a 200): the answer says what is wrong with the link.',
      querystring: DecodeQuery,
      response: { 200: 'LaunchDecoded' },
    }),
    async (request): Promise<LaunchDecoded> => {
      const { plugins, message } = request.query;
      const query = new URLSearchParams({ plugins, ...(message === undefined ? {} : { message }) });
      return decodeLaunchLink(`?${query}`);
    },
  );
};

const asValidationError = ({ loc, msg }: LaunchProblem) => ({ loc, msg, type: 'value_error' });
