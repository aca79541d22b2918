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
const PluginsPage = lazy(() => import('../pages/plugins/plugins-page.tsx'));
const PluginPage = lazy(() => import('../pages/plugins/plugin-page.tsx'));
const LaunchPage = lazy(() => import('../pages/launch/launch-page.tsx'));
const OrganizationsPage = lazy(() => import('../pages/organizations/organizations-page.tsx'));
const OrganizationPage = lazy(() => import('../pages/organizations/organization-page.tsx'));
const SharedConversationPage = lazy(() => import('../pages/shared/shared-conversation-page.tsx'));

/** Every page has a URL a person can bookmark and share. */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  // Anyone with the link reads a conversation its owner made public: no sign-in.
  { path: '/shared/conversations/:conversationId', element: <Suspended page={<SharedConversationPage />} /> },
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
      { path: 'plugins', element: <Suspended page={<PluginsPage />} /> },
      { path: 'plugins/:pluginId', element: <Suspended page={<PluginPage />} /> },
      { path: 'launch', element: <Suspended page={<LaunchPage />} /> },
      { path: 'organizations', element: <Suspended page={<OrganizationsPage />} /> },
      { path: 'organizations/:orgId', element: <Suspended page={<OrganizationPage />} /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
