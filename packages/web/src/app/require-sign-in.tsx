import { BosunApiError } from '@bosun/client';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useApiContext } from '../api/client.tsx';
import { isSignedOut } from '../api/errors.ts';
import { useMe } from '../api/queries.ts';
import { takeReturnTo } from '../pages/sign-in/return-to.ts';
import { ErrorNotice, Loading } from '../ui/feedback.tsx';

/** Pages for signed-in people: a signed-out visitor goes to the sign-in page, which brings them back here after. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const me = useMe();
  const { orgId, setOrgId } = useApiContext();
  const location = useLocation();
  const navigate = useNavigate();
  // The organization this browser acted in is no longer the person's (they left, it was deleted): act as themselves.
  const strandedInOrg = orgId !== null && me.error instanceof BosunApiError && me.error.status === 403;
  useEffect(() => {
    if (strandedInOrg) setOrgId(null);
  }, [strandedInOrg, setOrgId]);
  useEffect(() => {
    // Back from the printed sign-in link (which lands on `/`): on to the page asked for before.
    if (me.data && location.pathname === '/') {
      const next = takeReturnTo();
      if (next) navigate(next, { replace: true });
    }
  }, [me.data, location.pathname, navigate]);
  if (me.isPending || strandedInOrg) return <Loading what="your account" />;
  if (me.error) {
    if (isSignedOut(me.error)) {
      const here = `${location.pathname}${location.search}${location.hash}`;
      return <Navigate to={`/sign-in?return_to=${encodeURIComponent(here)}`} replace />;
    }
    return (
      <main className="page page-narrow">
        <ErrorNotice error={me.error} onRetry={() => me.refetch()} />
      </main>
    );
  }
  return <>{children}</>;
}
