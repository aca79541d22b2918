import type { UserInfo } from '@bosun/protocol';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { notFound } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../authenticate.ts';
import type { IdentityRouteDeps } from './deps.ts';

const route = routeOptions('Users');

/** `GET /api/v1/users/me`: who the caller is, and the organization the request acts in. */
export function userRoutes({ users, organizations }: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    app.get('/users/me', route('The caller', { response: { 200: 'UserInfo' } }), async (request, reply) => {
      const { userId, org } = principalOf(request);
      const [user, organization] = await Promise.all([users.get(userId), org ? organizations.get(org.id) : undefined]);
      if (!user) return notFound(reply, 'User');
      const info: UserInfo = {
        id: user.id,
        email: user.email,
        display_name: user.name,
        created_at: user.created_at,
        org_id: organization?.id ?? null,
        org_name: organization?.name ?? null,
        role: org?.role ?? null,
      };
      return info;
    });
  };
}
