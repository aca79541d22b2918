import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOfList, pageQuery } from '../../http/pages.ts';
import { routeOptions } from '../../http/route-options.ts';
import { callerOf } from '../../marketplaces/routes/marketplaces.ts';
import { type ConversationSkillsDeps, conversationSkills } from '../skills.ts';

const route = routeOptions('Skills');

/** `GET /skills/search`: the skills a new conversation of the caller loads, from its Auto-Load marketplaces. */
export function skillsSearchRoutes(deps: ConversationSkillsDeps): ApiRoutes {
  return (app) => {
    app.get<{ Querystring: { page_id?: string; limit?: number } }>(
      '/skills/search',
      route('The skills a new conversation of the caller loads (its Auto-Load marketplaces’ plugins)', {
        description:
          'Composed for the caller in the organization the request acts in (instance < organization < personal), ' +
          'each marketplace read at its commit now, as the Skills & Plugins table reads it; turned-off skills are ' +
          'listed with `disabled`. Built-in skills of the agent are not: the app does not load them.',
        querystring: Type.Object(pageQuery, { additionalProperties: false }),
        response: { 200: 'SkillPage' },
      }),
      async (request) => {
        const caller = callerOf(request);
        const skills = await conversationSkills(deps, caller.userId, caller.orgId);
        return pageOfList(skills, (skill) => skill, request.query);
      },
    );
  };
}
