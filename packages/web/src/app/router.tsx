import { lazy } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { SignInPage } from '../pages/sign-in/sign-in-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RequireSignIn } from './require-sign-in.tsx';
import { Shell } from './shell.tsx';
import { Suspended } from './suspended.tsx';

// Each page is its own chunk: the first load carries the frame and the page opened, not the whole product.
const HomePage = lazy(() => import('../pages/home/home-page.tsx'));
const ConversationPage = lazy(() => import('../pages/conversation/conversation-page.tsx'));
const SettingsPage = lazy(() => import('../pages/settings/settings-page.tsx'));

/** Every page has a URL a person can bookmark and share. */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  {
    element: (
      <RequireSignIn>
        <Shell />
      </RequireSignIn>
    ),
    children: [
      { index: true, element: <Suspended page={<HomePage />} /> },
      { path: 'conversations', element: <Navigate to="/" replace /> },
      { path: 'conversations/:conversationId', element: <Suspended page={<ConversationPage />} /> },
      { path: 'settings/*', element: <Suspended page={<SettingsPage />} /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
