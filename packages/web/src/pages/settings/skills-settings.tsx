import { BosunApiError } from '@bosun/client';
import type { MarketplaceScope } from '@bosun/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApiContext } from '../../api/client.tsx';
import { useOrganizations } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { MarketplaceDialog } from './marketplace-dialog.tsx';
import { MarketplaceGroup } from './marketplace-group.tsx';
import { pendingUpdates } from './marketplace-update.tsx';
import { skillsKeys, useActingMembership, useMarketplaces } from './skills-keys.ts';
import { SkillsAndPluginsTable } from './skills-table.tsx';
import './skills.css';

/** Settings > Skills & Plugins: the marketplaces registered (personal, the organization's, the instance's) and what they bring. */
export function SkillsSettings() {
  const { api, orgId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const list = useMarketplaces();
  const actPersonally = () => {
    setOrgId(null);
    queryClient.invalidateQueries();
  };
  const membership = useActingMembership();
  const organizations = useOrganizations();
  const table = useQuery({
    queryKey: skillsKeys.table(orgId),
    queryFn: () => api.get('/api/v1/skills-and-plugins', { query: { org_id: orgId || undefined } }),
  });
  const [adding, setAdding] = useState(false);
  const organization = organizations.data?.items.find((org) => org.id === orgId);
  const canWriteOrganization = Boolean(orgId && membership.data?.can_manage_marketplaces);
  const items = list.data?.items ?? [];
  const updates = pendingUpdates(table.data?.rows ?? []);
  const orgVersion = list.data?.org_version ?? null;
  const group = (scope: MarketplaceScope) => items.filter((item) => item.scope === scope);

  return (
    <div className="skills-settings">
      <section aria-labelledby="marketplaces-heading">
        <div className="row skills-heading-row">
          <h2 id="marketplaces-heading">Marketplaces</h2>
          <span className="spacer" />
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add Repository
          </Button>
        </div>
        <p className="muted">
          Git repositories that provide plugins: skills, commands, agents, hooks and MCP servers. Turn on Auto-Load to
          load a marketplace’s plugins into every new conversation; running conversations keep what they started with.
        </p>
        {list.isPending ? (
          <Loading what="marketplaces" />
        ) : list.isError && orgId && list.error instanceof BosunApiError && list.error.status === 404 ? (
          <Notice tone="warning">
            The organization you act in no longer exists, or you are no longer one of its members.{' '}
            <Button small onClick={actPersonally}>
              Act as your personal account
            </Button>
          </Notice>
        ) : list.isError ? (
          <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
        ) : (
          <>
            <MarketplaceGroup
              title="Yours"
              headingId="personal-marketplaces"
              items={group('personal')}
              updates={updates}
              orgVersion={orgVersion}
              empty="None of your own yet: Add Repository registers one for your conversations."
            />
            {orgId && (
              <MarketplaceGroup
                title={`${organization?.name ?? 'The organization'}’s`}
                headingId="organization-marketplaces"
                items={group('organization')}
                updates={updates}
                orgVersion={orgVersion}
                note={
                  membership.data && !membership.data.can_manage_marketplaces
                    ? `Read-only: only the organization’s owners and admins change them (you are a ${membership.data.role}).`
                    : 'Every member’s conversations in this organization get them.'
                }
                empty={
                  canWriteOrganization
                    ? 'None yet: Add Repository with the scope Organization registers one for every member.'
                    : 'The organization has none.'
                }
              />
            )}
            <MarketplaceGroup
              title="This instance’s"
              headingId="instance-marketplaces"
              items={group('instance')}
              updates={updates}
              orgVersion={orgVersion}
              note="Configured by the operator (the server’s instance_marketplaces setting): read-only here."
              empty="The operator configured none."
            />
            {!orgId && (organizations.data?.items.length ?? 0) > 0 && (
              <p className="muted small">
                Acting as your personal account: switch to an organization in the header to see and manage its
                marketplaces.
              </p>
            )}
            {!orgId && (organizations.data?.items.length ?? 0) === 0 && (
              <p className="muted small">
                To share marketplaces with a team, <Link to="/organizations">create an organization</Link>.
              </p>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="skills-heading">
        <h2 id="skills-heading">Skills &amp; Plugins</h2>
        <p className="muted">
          What the next conversation gets from these marketplaces and from your skills repository (<code>.agents</code>{' '}
          on GitHub, <code>bosun-config</code> on GitLab and Bitbucket), read at their current commits; a conversation
          on an organization's repository also gets that organization's. Turn a skill or a command off to leave it out
          of your conversations, whatever brings it.
        </p>
        {table.isPending ? (
          <Loading what="skills and plugins (the server reads each marketplace)" />
        ) : table.isError ? (
          <ErrorNotice error={table.error} onRetry={() => table.refetch()} />
        ) : (
          <SkillsAndPluginsTable table={table.data} orgId={orgId} />
        )}
      </section>
      <MarketplaceDialog
        open={adding}
        onOpenChange={setAdding}
        canWriteOrganization={canWriteOrganization}
        organizationName={organization?.name}
        orgVersion={orgVersion}
      />
    </div>
  );
}
