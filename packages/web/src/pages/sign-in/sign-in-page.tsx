import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useApi } from '../../api/client.tsx';
import { keys, useMe, useWebClientConfig } from '../../api/queries.ts';
import { ErrorNotice, Loading, Notice } from '../../ui/feedback.tsx';
import { rememberReturnTo, safePath } from './return-to.ts';
import './sign-in.css';

/** How to sign in on this install: the identity provider's buttons, else the printed one-time link. */
export function SignInPage() {
  const [params] = useSearchParams();
  const returnTo = safePath(params.get('return_to')) ?? '/';
  const api = useApi();
  const me = useMe();
  const config = useWebClientConfig();
  const oidc = Boolean(config.data?.auth_url);
  const methods = useQuery({
    queryKey: keys.loginMethods,
    queryFn: () => api.get('/api/v1/auth/providers'),
    enabled: oidc,
  });
  useEffect(() => rememberReturnTo(returnTo), [returnTo]);

  if (me.data) return <Navigate to={returnTo} replace />;
  return (
    <main className="sign-in" id="main">
      <div className="card sign-in-card">
        <div className="brand sign-in-brand">
          <span className="brand-mark" aria-hidden="true">
            ▲
          </span>
          Bosun
        </div>
        <h1>Sign in</h1>
        {params.get('link') === 'invalid' && (
          <Notice tone="warning">
            That sign-in link did not sign you in: each link works once, for 24 hours. Create a fresh one on the
            server's machine with <code>npx bosun sign-in-link</code>.
          </Notice>
        )}
        {params.get('sign_in') === 'limited' && (
          <Notice tone="warning">
            Too many sign-in attempts from this address: try again in {retryWait(Number(params.get('retry_after')))}.
          </Notice>
        )}
        {config.isPending && <Loading what="how to sign in" />}
        {config.error && <ErrorNotice error={config.error} onRetry={() => config.refetch()} />}
        {config.data && !oidc && <SignInLinkHelp comesBack={returnTo !== '/'} />}
        {oidc && (
          <div className="stack">
            {methods.isPending && <Loading what="sign-in options" />}
            {methods.error && <ErrorNotice error={methods.error} onRetry={() => methods.refetch()} />}
            {methods.data?.map((method) => (
              <a
                key={method.id}
                className="btn btn-primary sign-in-button"
                href={withReturnTo(method.login_url, returnTo)}
              >
                Continue with {method.name}
              </a>
            ))}
          </div>
        )}
      </div>
    </main>
  );
}

/** `comesBack`: a page was asked for before signing in, and the sign-in leads back to it. */
function SignInLinkHelp({ comesBack }: { comesBack: boolean }) {
  return (
    <div className="stack">
      <p>This Bosun signs its owner in with a one-time link.</p>
      <ol className="sign-in-steps">
        <li>
          Open the sign-in link that <code>bosun serve</code> printed when it started (the line{' '}
          <q>First start: sign in as the owner (once) at …</q>).
        </li>
        <li>
          Used or lost it? Create a fresh one on the server's machine: <code>npx bosun sign-in-link</code>
        </li>
      </ol>
      {comesBack && <p className="muted">You will come back to the page you asked for.</p>}
    </div>
  );
}

/** The login route with where to come back to (the server accepts only a path of its own). */
function withReturnTo(loginUrl: string, returnTo: string): string {
  const url = new URL(loginUrl, window.location.origin);
  url.searchParams.set('return_to', returnTo);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}` : url.toString();
}

/** "a minute" and such, for a wait given in seconds (a broken number reads as "a minute"). */
function retryWait(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'a minute';
  if (seconds < 60) return `${Math.ceil(seconds)} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}
