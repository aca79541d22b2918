import { BosunApiError } from '@bosun/client';
import type { OrgMe, OrgResponse } from '@bosun/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useApiContext } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { orgKeys } from './org-keys.ts';
import { Delete, Leave } from './org-leave-delete.tsx';
import { Members } from './org-members.tsx';
import { ROLE_LABEL, ROLE_TONE } from './roles.ts';
import './organizations.css';

/** `/organizations/:orgId`: its name, members and roles, marketplaces, and leaving or deleting it. */
export default function OrganizationPage() {
  const { orgId = '' } = useParams();
  const { api } = useApiContext();
  const org = useQuery({
    queryKey: orgKeys.org(orgId),
    queryFn: () => api.get('/api/v1/organizations/{org_id}', { params: { org_id: orgId } }),
    retry: false,
  });
  const me = useQuery({
    queryKey: orgKeys.me(orgId),
    queryFn: () => api.get('/api/v1/organizations/{org_id}/me', { params: { org_id: orgId } }),
    retry: false,
  });
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
    mutationFn: () =>
      api.patch('/api/v1/organizations/{org_id}', { params: { org_id: org.id }, body: { name: name.trim() } }),
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
function Marketplaces({ org, me, onManage }: { org: OrgResponse; me: OrgMe; onManage(): void }) {
  const { api } = useApiContext();
  const list = useQuery({
    queryKey: orgKeys.marketplaces(org.id),
    queryFn: () => api.get('/api/v1/marketplaces', { query: { org_id: org.id } }),
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
