import type { OrgMe, OrgResponse } from '@bosun/protocol';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useApiContext } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { orgKeys } from './org-keys.ts';

export function Leave({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { api, orgId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const leave = async () => {
    await api.post('/api/v1/organizations/{org_id}/leave', { params: { org_id: org.id } });
    if (orgId === org.id) setOrgId(null);
    navigate('/organizations', { state: { notice: `You left ${org.name}.` } });
    forget(queryClient, org.id);
  };
  return (
    <section aria-labelledby="leave-heading">
      <h2 id="leave-heading">Leave</h2>
      <div className="card row org-danger-row">
        <p className="muted small">
          {me.can_leave
            ? 'You lose its marketplaces; your conversations, settings and secrets stay yours.'
            : 'You are its last owner: make another member an owner before you leave.'}
        </p>
        <span className="spacer" />
        <Button disabled={!me.can_leave} onClick={() => setOpen(true)}>
          Leave organization
        </Button>
      </div>
      <ConfirmDialog open={open} onOpenChange={setOpen} title={`Leave ${org.name}?`} confirm="Leave" onConfirm={leave}>
        Only an owner or admin can add you back.
      </ConfirmDialog>
    </section>
  );
}
export function Delete({ org }: { org: OrgResponse }) {
  const { api, orgId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const members = useQuery({
    queryKey: [...orgKeys.members(org.id), 'count'],
    queryFn: () => api.get('/api/v1/organizations/{org_id}/members/count', { params: { org_id: org.id } }),
    enabled: open,
  });
  const marketplaces = useQuery({
    queryKey: orgKeys.marketplaces(org.id),
    queryFn: () => api.get('/api/v1/marketplaces', { query: { org_id: org.id } }),
    enabled: open,
  });
  const marketplaceCount = marketplaces.data?.items.filter((item) => item.scope === 'organization').length;
  const remove = async () => {
    const result = await api.delete('/api/v1/organizations/{org_id}', { params: { org_id: org.id } });
    if (orgId === org.id) setOrgId(null);
    const { removed, kept } = result;
    navigate('/organizations', {
      state: {
        notice: `${org.name} was deleted with ${plural(removed.memberships, 'membership')}, ${plural(removed.api_keys, 'API key')} bound to it and ${plural(removed.marketplaces, 'marketplace')}; ${plural(kept.conversations, 'conversation')} started in it stay with their owners.`,
      },
    });
    forget(queryClient, org.id);
  };
  return (
    <section aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete</h2>
      <div className="card row org-danger-row">
        <p className="muted small">Only owners delete an organization. It cannot be undone.</p>
        <span className="spacer" />
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete organization
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${org.name}?`}
        confirm={`Delete ${org.name}`}
        onConfirm={remove}
      >
        <span className="delete-what">
          Goes with it: every membership ({members.data === undefined ? '…' : plural(members.data, 'member')}), the API
          keys bound to it, and its registered marketplaces (
          {marketplaceCount === undefined ? '…' : plural(marketplaceCount, 'marketplace')}). Stays: the conversations
          started in it (each its owner’s, in no organization), and each member’s own settings, secrets, LLM profiles,
          personal marketplaces and other API keys.
        </span>
      </ConfirmDialog>
    </section>
  );
}

/** After leaving or deleting it: its queries dropped (not fetched again into a 404), the rest refreshed. */
function forget(queryClient: QueryClient, orgId: string) {
  queryClient.removeQueries({ queryKey: ['organization', orgId] });
  queryClient.removeQueries({ queryKey: orgKeys.me(orgId) });
  queryClient.removeQueries({ queryKey: orgKeys.marketplaces(orgId) });
  void queryClient.invalidateQueries();
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
