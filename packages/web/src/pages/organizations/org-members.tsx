import { BosunApiError } from '@bosun/client';
import type { OrgMe, OrgMemberResponse, OrgResponse, OrgRole } from '@bosun/protocol';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApiContext } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { orgKeys } from './org-keys.ts';
import { ROLE_LABEL, ROLE_TONE } from './roles.ts';

/** The roles the caller may give: owners give any, admins give admin or member. */
const rolesFor = (me: OrgMe): OrgRole[] => (me.can_manage_owners ? ['owner', 'admin', 'member'] : ['admin', 'member']);
export function Members({ org, me }: { org: OrgResponse; me: OrgMe }) {
  const { api } = useApiContext();
  const pages = useInfiniteQuery({
    queryKey: orgKeys.members(org.id),
    queryFn: ({ pageParam }) =>
      api.get('/api/v1/organizations/{org_id}/members', {
        params: { org_id: org.id },
        query: { limit: 50, ...(pageParam ? { page_id: pageParam } : {}) },
      }),
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
    mutationFn: (role: OrgRole) =>
      api.patch('/api/v1/organizations/{org_id}/members/{user_id}', {
        params: { org_id: org.id, user_id: member.user_id },
        body: { role },
      }),
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
          await api.delete('/api/v1/organizations/{org_id}/members/{user_id}', {
            params: { org_id: org.id, user_id: member.user_id },
          });
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
      return api.post('/api/v1/organizations/{org_id}/members', {
        params: { org_id: org.id },
        body: text.includes('@') ? { email: text, role } : { user_id: text, role },
      });
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
