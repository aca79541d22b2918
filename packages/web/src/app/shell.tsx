import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useApiContext } from '../api/client.tsx';
import { useMe, useOrganizations, useWebClientConfig } from '../api/queries.ts';
import { BrandLink } from '../ui/brand-link.tsx';
import { ActionMenu, type MenuAction } from '../ui/menu.tsx';

/** The frame of every signed-in page: the header (home, settings, organization, who is signed in) and the page. */
export function Shell() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <BrandLink />
        <nav aria-label="Main" className="app-nav">
          <NavLink to="/" end className="tab">
            Conversations
          </NavLink>
          <NavLink to="/plugins" className="tab">
            Plugins
          </NavLink>
          <NavLink to="/settings" className="tab">
            Settings
          </NavLink>
        </nav>
        <span className="spacer" />
        <OrganizationSwitcher />
        <AccountMenu />
      </header>
      <div id="main" className="app-main">
        <Outlet />
      </div>
    </>
  );
}

function OrganizationSwitcher() {
  const { orgId, setOrgId } = useApiContext();
  const organizations = useOrganizations();
  const queryClient = useQueryClient();
  const items = organizations.data?.items ?? [];
  if (items.length === 0) return null;
  const current = items.find((org) => org.id === orgId);
  const choose = (next: string | null) => {
    setOrgId(next);
    queryClient.invalidateQueries();
  };
  const actions: MenuAction[] = [
    { label: `${orgId === null ? '✓ ' : ''}Personal account`, onSelect: () => choose(null) },
    ...items.map((org) => ({ label: `${org.id === orgId ? '✓ ' : ''}${org.name}`, onSelect: () => choose(org.id) })),
  ];
  return (
    <ActionMenu
      label={`${current?.name ?? 'Personal'}: switch organization`}
      trigger={<span className="org-trigger">{current?.name ?? 'Personal'} ▾</span>}
      actions={actions}
    />
  );
}

function AccountMenu() {
  const me = useMe();
  const config = useWebClientConfig();
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const who = me.data?.display_name ?? me.data?.email ?? 'Your account';
  const signOut = async () => {
    if (config.data?.auth_url) {
      // Signed in through an issuer: end that sign-in too (the server redirects through the issuer).
      window.location.assign(`/api/v1/auth/logout?return_to=${encodeURIComponent('/sign-in')}`);
      return;
    }
    await api.post('/api/v1/auth/sign-out').catch(() => undefined);
    queryClient.clear();
    navigate('/sign-in', { replace: true });
  };
  return (
    <ActionMenu
      // The accessible name starts with the visible text (who is signed in), as speech input expects.
      label={`${who}: account menu, signed in`}
      trigger={
        <span className="account-trigger">
          {/* The initial is drawn by CSS: no text of its own, so the visible text is the name alone. */}
          <span className="avatar" aria-hidden="true" data-initial={who.slice(0, 1).toUpperCase()} />
          <span className="account-name">{who}</span>
        </span>
      }
      actions={[
        { label: 'Settings', onSelect: () => navigate('/settings') },
        { label: 'Organizations', onSelect: () => navigate('/organizations') },
        { label: 'Sign out', onSelect: signOut },
      ]}
    />
  );
}
