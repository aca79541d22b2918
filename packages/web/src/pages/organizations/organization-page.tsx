import { BosunApiError } from '@bosun/client';
import type { OrgMe, OrgMemberResponse, OrgResponse, OrgRole } from '@bosun/protocol';
import { type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useApiContext } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { ROLE_LABEL, ROLE_TONE } from './roles.ts';
import './organizations.css';

const orgKeys = {
  org: (id: string) => ['organization', id] as const,
  me: (id: string) => ['org-membership', id] as const,
  members: (id: string) => ['organization', id, 'members'] as const,
  marketplaces: (id: string) => ['marketplaces', 'organization', id] as const,
};

/** `/organizations/:orgId`: its name, members and roles, marketplaces, and leaving or deleting it. */
export default function OrganizationPage() {
  const { orgId = '' } = useParams();
  const { api } = useApiContext();
  const org = useQuery({ queryKey: orgKeys.org(orgId), queryFn: () => api.getOrganization(orgId), retry: false });
  const me = useQuery({ queryKey: orgKeys.me(orgId), queryFn: () => api.myMembership(orgId), retry: false });
  if (org.isPending || me.isPending) {
    return (
      <main className="page page-narrow">
        <Loading what="the organization" />
      </main>
    );
  }
  if (org.isError || me.isError) {
    const error = org.error ?? me.error;
    const missing = error instanceof BosunApiError && error.status === 404;
    return (
      <main className="page page-narrow">
        <h1>{missing ? 'Organization not found' : 'Organization'}</h1>
        {missing ? (
          <Notice tone="warning">
            There is no organization at this address that you belong to.{' '}
            <Link to="/organizations">Your organizations</Link>
          </Notice>
        ) : (
          <ErrorNotice error={error} onRetry={() => (org.isError ? org.refetch() : me.refetch())} />
        )}
      </main>
    );
  }
  return <Organization org={org.data} me={me.data} />;
}

function Organization({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { orgId: actingId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const actAs = () => {
    setOrgId(org.id);
    queryClient.invalidateQueries();
  };
  return (
    <main className="page page-narrow organizations">
      <p className="breadcrumb">
        <Link to="/organizations">Organizations</Link>
      </p>
      <div className="row org-title-row">
        <h1>{org.name}</h1>
        <Badge tone={ROLE_TONE[me.role]}>You: {ROLE_LABEL[me.role]}</Badge>
        <span className="spacer" />
        {actingId === org.id ? (
          <Badge tone="success">Acting in it</Badge>
        ) : (
          <Button small onClick={actAs}>
            Act in this organization
          </Button>
        )}
      </div>
      {me.can_rename && <Rename org={org} />}
      <Members org={org} me={me} />
      <Marketplaces
        org={org}
        me={me}
        onManage={() => {
          if (actingId !== org.id) actAs();
          navigate('/settings/skills');
        }}
      />
      <Leave org={org} me={me} />
      {me.can_delete && <Delete org={org} />}
    </main>
  );
}

function Rename({ org }: { org: OrgResponse }) {
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const [name, setName] = useState(org.name);
  const [saved, setSaved] = useState(false);
  const rename = useMutation({
    mutationFn: () => api.renameOrganization(org.id, { name: name.trim() }),
    onSuccess: async () => {
      setSaved(true);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orgKeys.org(org.id) }),
        queryClient.invalidateQueries({ queryKey: keys.organizations }),
      ]);
    },
  });
  const errors = fieldErrors(rename.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && name.trim() !== org.name) rename.mutate();
  };
  return (
    <section aria-labelledby="org-name-heading">
      <h2 id="org-name-heading">Name</h2>
      <form className="card" onSubmit={submit}>
        <div className="row inline-form org-inline-form">
          <Field label="Organization name" error={errors.name}>
            <input
              className="input"
              value={name}
              maxLength={255}
              onChange={(event) => {
                setName(event.target.value);
                setSaved(false);
                if (rename.isError) rename.reset();
              }}
            />
          </Field>
          <Button type="submit" busy={rename.isPending} disabled={!name.trim() || name.trim() === org.name}>
            Rename
          </Button>
        </div>
        {rename.isError && !errors.name && <ErrorNotice error={rename.error} />}
        {saved && <Notice tone="success">Renamed.</Notice>}
      </form>
    </section>
  );
}

/** The roles the caller may give: owners give any, admins give admin or member. */
const rolesFor = (me: OrgMe): OrgRole[] => (me.can_manage_owners ? ['owner', 'admin', 'member'] : ['admin', 'member']);

function Members({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { api } = useApiContext();
  const pages = useInfiniteQuery({
    queryKey: orgKeys.members(org.id),
    queryFn: ({ pageParam }) => api.listMembers(org.id, { limit: 50, ...(pageParam ? { page_id: pageParam } : {}) }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.next_page_id ?? undefined,
  });
  const members = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <div className="card">
        {pages.isPending ? (
          <Loading what="members" />
        ) : pages.isError && members.length === 0 ? (
          <ErrorNotice error={pages.error} onRetry={() => pages.refetch()} />
        ) : (
          <ul className="settings-list member-list">
            {members.map((member) => (
              <MemberRow key={member.user_id} org={org} me={me} member={member} />
            ))}
          </ul>
        )}
        {pages.hasNextPage && (
          <Button busy={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()}>
            Load more
          </Button>
        )}
        {!me.can_manage_members && (
          <p className="muted small">Only the organization’s owners and admins add members and change roles.</p>
        )}
      </div>
      {me.can_manage_members && <AddMember org={org} me={me} />}
    </section>
  );
}

function MemberRow({ org, me, member }: { org: OrgResponse; me: OrgMe; member: OrgMemberResponse }) {
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const self = member.user_id === me.user_id;
  const who = member.display_name ?? member.email ?? member.user_id;
  // Only an owner changes or removes an owner; admins manage admins and members.
  const manageable = me.can_manage_members && !self && (member.role !== 'owner' || me.can_manage_owners);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orgKeys.members(org.id) }),
      queryClient.invalidateQueries({ queryKey: orgKeys.me(org.id) }),
    ]);
  const setRole = useMutation({
    mutationFn: (role: OrgRole) => api.setMemberRole(org.id, member.user_id, role),
    onSuccess: refresh,
  });
  return (
    <li className="settings-item member-item">
      <div className="settings-item-main">
        <strong>{who}</strong>
        {self && <span className="muted"> (you)</span>}
        {member.email && member.email !== who && <div className="muted small">{member.email}</div>}
        <div className="muted small">
          Joined <time {...timeProps(member.joined_at)}>{relativeTime(member.joined_at)}</time>
        </div>
      </div>
      <div className="row settings-item-actions">
        {manageable ? (
          <select
            className="select member-role"
            aria-label={`Role of ${who}`}
            value={member.role}
            disabled={setRole.isPending}
            onChange={(event) => setRole.mutate(event.target.value as OrgRole)}
          >
            {rolesFor(me).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABEL[role]}
              </option>
            ))}
          </select>
        ) : (
          <Badge tone={ROLE_TONE[member.role]}>{ROLE_LABEL[member.role]}</Badge>
        )}
        {manageable && (
          <Button small variant="danger" onClick={() => setRemoving(true)} aria-label={`Remove ${who}`}>
            Remove
          </Button>
        )}
      </div>
      {setRole.isError && (
        <div className="member-error">
          <ErrorNotice error={setRole.error} />
        </div>
      )}
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={`Remove ${who} from ${org.name}?`}
        confirm="Remove"
        onConfirm={async () => {
          await api.removeMember(org.id, member.user_id);
          await refresh();
        }}
      >
        They lose its marketplaces in new conversations; their own conversations, settings and secrets stay theirs.
      </ConfirmDialog>
    </li>
  );
}

function AddMember({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const [who, setWho] = useState('');
  const [role, setRole] = useState<OrgRole>('member');
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () => {
      const text = who.trim();
      return api.addMember(org.id, text.includes('@') ? { email: text, role } : { user_id: text, role });
    },
    onSuccess: async (member) => {
      setAdded(member.display_name ?? member.email ?? member.user_id);
      setWho('');
      await queryClient.invalidateQueries({ queryKey: orgKeys.members(org.id) });
    },
  });
  const errors = fieldErrors(add.error);
  const fieldError = errors.email ?? errors.user_id;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (who.trim()) add.mutate();
  };
  return (
    <form className="card add-member" onSubmit={submit} aria-labelledby="add-member-heading">
      <h3 id="add-member-heading">Add a member</h3>
      <div className="row inline-form org-inline-form">
        <Field label="E-mail or user id" hint="Someone who has signed in to Bosun before." error={fieldError}>
          <input
            className="input"
            value={who}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => {
              setWho(event.target.value);
              setAdded(null);
              if (add.isError) add.reset();
            }}
          />
        </Field>
        <Field label="Their role">
          <select className="select" value={role} onChange={(event) => setRole(event.target.value as OrgRole)}>
            {rolesFor(me).map((option) => (
              <option key={option} value={option}>
                {ROLE_LABEL[option]}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" variant="primary" busy={add.isPending} disabled={!who.trim()}>
          Add member
        </Button>
      </div>
      {add.isError &&
        !fieldError &&
        (add.error instanceof BosunApiError && add.error.status === 404 ? (
          <Notice tone="error">
            No Bosun user has this e-mail address or id: they sign in to Bosun once, then you add them.
          </Notice>
        ) : (
          <ErrorNotice error={add.error} />
        ))}
      {added && <Notice tone="success">{added} is a member now.</Notice>}
    </form>
  );
}

function Marketplaces({ org, me, onManage }: { org: OrgResponse; me: OrgMe; onManage(): void }) {
  const { api } = useApiContext();
  const list = useQuery({
    queryKey: orgKeys.marketplaces(org.id),
    queryFn: () => api.listMarketplaces(org.id),
  });
  const items = (list.data?.items ?? []).filter((item) => item.scope === 'organization');
  return (
    <section aria-labelledby="org-marketplaces-heading">
      <h2 id="org-marketplaces-heading">Marketplaces</h2>
      <div className="card">
        <p className="muted small">
          Every member’s conversations in this organization get them (with Auto-Load, loaded at each start).
        </p>
        {list.isPending ? (
          <Loading what="marketplaces" />
        ) : list.isError ? (
          <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
        ) : items.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <ul className="settings-list">
            {items.map((item) => (
              <li key={item.name} className="settings-item">
                <div className="settings-item-main">
                  <strong>{item.name}</strong> <code className="small">{item.source}</code>
                  {item.ref && <span className="muted small"> at {item.ref}</span>}
                </div>
                {item.auto_load ? <Badge tone="success">Auto-Load on</Badge> : <Badge>Auto-Load off</Badge>}
              </li>
            ))}
          </ul>
        )}
        <div className="row form-actions">
          <Button onClick={onManage}>
            {me.can_manage_marketplaces ? 'Manage marketplaces' : 'See its skills and plugins'}
          </Button>
          <span className="muted small">In Settings › Skills &amp; Plugins, acting in {org.name}.</span>
        </div>
      </div>
    </section>
  );
}

function Leave({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { api, orgId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const leave = async () => {
    await api.leaveOrganization(org.id);
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

function Delete({ org }: { org: OrgResponse }) {
  const { api, orgId, setOrgId } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const members = useQuery({
    queryKey: [...orgKeys.members(org.id), 'count'],
    queryFn: () => api.countMembers(org.id),
    enabled: open,
  });
  const marketplaces = useQuery({
    queryKey: orgKeys.marketplaces(org.id),
    queryFn: () => api.listMarketplaces(org.id),
    enabled: open,
  });
  const marketplaceCount = marketplaces.data?.items.filter((item) => item.scope === 'organization').length;
  const remove = async () => {
    const result = await api.deleteOrganization(org.id);
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
