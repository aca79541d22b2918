import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiProvider } from './api/client.tsx';
import { isSignedOut } from './api/errors.ts';
import { router } from './app/router.tsx';
import './ui/theme.css';
import './app/app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // Server state is kept fresh by the event WebSocket and by invalidation after each change, not by polling.
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !isSignedOut(error) && count < 2,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiProvider>
        <RouterProvider router={router} />
      </ApiProvider>
    </QueryClientProvider>
  </StrictMode>,
);
