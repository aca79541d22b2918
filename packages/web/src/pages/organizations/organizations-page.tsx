import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useApiContext } from '../../api/client.tsx';
import { keys, useOrganizations } from '../../api/queries.ts';
import { Button } from '../../ui/button.tsx';
import { Badge, ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { fieldErrors } from '../../ui/field-errors.ts';
import { Field } from '../../ui/field.tsx';
import { relativeTime, timeProps } from '../../ui/time.ts';
import { type OrganizationsNotice, ROLE_LABEL, ROLE_TONE } from './roles.ts';
import './organizations.css';

/** `/organizations`: the person's organizations with their role, and a new one. */
export default function OrganizationsPage() {
  const organizations = useOrganizations();
  const { orgId } = useApiContext();
  const location = useLocation();
  const notice = (location.state as OrganizationsNotice | null)?.notice;
  const items = organizations.data?.items ?? [];
  return (
    <main className="page page-narrow organizations">
      <h1>Organizations</h1>
      <p className="muted">
        An organization shares marketplaces with its members; its owners and admins manage who belongs to it. Choose the
        organization you act in with the switcher in the header.
      </p>
      {notice && <Notice tone="success">{notice}</Notice>}
      <section aria-labelledby="your-organizations">
        <h2 id="your-organizations">Yours</h2>
        <div className="card">
          {organizations.isPending ? (
            <Loading what="organizations" />
          ) : organizations.isError ? (
            <ErrorNotice error={organizations.error} onRetry={() => organizations.refetch()} />
          ) : items.length === 0 ? (
            <p className="muted">You belong to no organization yet. Create one below, then add its members.</p>
          ) : (
            <ul className="org-list">
              {items.map((org) => (
                <li key={org.id} className="org-item">
                  <Link to={`/organizations/${org.id}`} className="org-name">
                    {org.name}
                  </Link>
                  <Badge tone={ROLE_TONE[org.role]}>{ROLE_LABEL[org.role]}</Badge>
                  {org.id === orgId && <Badge tone="success">Acting in it</Badge>}
                  <span className="spacer" />
                  <span className="muted small">
                    Created <time {...timeProps(org.created_at)}>{relativeTime(org.created_at)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <NewOrganization />
    </main>
  );
}

function NewOrganization() {
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => api.post('/api/v1/organizations', { body: { name: name.trim() } }),
    onSuccess: async (org) => {
      await queryClient.invalidateQueries({ queryKey: keys.organizations });
      navigate(`/organizations/${org.id}`);
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <section aria-labelledby="new-organization">
      <h2 id="new-organization">New organization</h2>
      <form className="card" onSubmit={submit}>
        <div className="row inline-form org-inline-form">
          <Field label="Name" hint="You will be its owner." error={errors.name}>
            <input
              className="input"
              value={name}
              maxLength={255}
              onChange={(event) => {
                setName(event.target.value);
                if (create.isError) create.reset();
              }}
            />
          </Field>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
            Create organization
          </Button>
        </div>
        {create.isError && !errors.name && <ErrorNotice error={create.error} />}
      </form>
    </section>
  );
}
