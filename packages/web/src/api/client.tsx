import { AppServerClient } from '@bosun/client';
import { type ReactNode, createContext, useContext, useMemo, useState } from 'react';

const ORG_KEY = 'bosun.org';

interface ApiContext {
  api: AppServerClient;
  /** The organization requests act in (`X-Org-Id`); null: the person's own account. */
  orgId: string | null;
  setOrgId(orgId: string | null): void;
}

const Context = createContext<ApiContext | undefined>(undefined);

/** The app server's client at this page's origin (the session cookie authenticates), acting in the chosen organization. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const [orgId, setOrg] = useState<string | null>(() => localStorage.getItem(ORG_KEY));
  const value = useMemo<ApiContext>(
    () => ({
      api: new AppServerClient({ baseUrl: window.location.origin, ...(orgId ? { orgId } : {}) }),
      orgId,
      setOrgId(next) {
        if (next) localStorage.setItem(ORG_KEY, next);
        else localStorage.removeItem(ORG_KEY);
        setOrg(next);
      },
    }),
    [orgId],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useApiContext(): ApiContext {
  const context = useContext(Context);
  if (!context) throw new Error('useApi outside ApiProvider');
  return context;
}

export const useApi = (): AppServerClient => useApiContext().api;
