import { createBrowserRouter, Navigate, useLocation, useParams, type RouteObject } from 'react-router';
import type { ComponentType } from 'react';
import { RequireApproved } from '../features/auth/components/require-approved.tsx';
import { NotFoundPage } from '../features/placeholders/not-found-page.tsx';
import { FullPageSpinner } from '../components/ui/spinner.tsx';

/*
 * Every screen is its own chunk, fetched when the route is first visited (decision 012): the first load carries
 * only React, the router, the query client and the screen asked for. The landing page never downloads the
 * dialer, the importer or the admin screen.
 */
const screen = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

const contactList = screen(
  async () => (await import('../features/send-to-campaign/contacts-screen.tsx')).ContactsScreen,
);
const contactForm = screen(
  async () => (await import('../features/contacts/components/contact-form-page.tsx')).ContactFormPage,
);
const contactDetail = screen(
  async () => (await import('../features/contacts/components/contact-detail-page.tsx')).ContactDetailPage,
);

const queueEditor = screen(
  async () => (await import('../features/queues/components/queue-editor-page.tsx')).QueueEditorPage,
);

const dialerWindow = (simple: boolean) => async () => {
  const { DialerWindowPage } = await import('../features/dialer/components/dialer-window-page.tsx');
  return {
    element: (
      <RequireApproved>
        <DialerWindowPage simple={simple} />
      </RequireApproved>
    ),
  };
};

/** A short-form route shows the canonical screen, keeping navigation state (decision 000). */
function RedirectKeepingState({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const location = useLocation();
  const params = useParams();
  return <Navigate to={to(params)} replace state={location.state as unknown} />;
}

const appRoutes: RouteObject[] = [
  { path: '/contacts', lazy: contactList },
  { path: '/contacts/new', lazy: contactForm },
  { path: '/contacts/:id', lazy: contactDetail },
  { path: '/contacts/:id/edit', lazy: contactForm },
  {
    path: '/projects',
    lazy: screen(async () => (await import('../features/project-board/projects-page.tsx')).ProjectsPage),
  },
  {
    path: '/projects/project/:id',
    lazy: screen(async () => (await import('../features/project-board/project-page.tsx')).ProjectPage),
  },
  { path: '/projects/queue/create', lazy: queueEditor },
  { path: '/projects/queue/edit/:id', lazy: queueEditor },
  {
    path: '/projects/email/create',
    lazy: screen(
      async () =>
        (await import('../features/campaigns/components/email-campaign-create-page.tsx'))
          .EmailCampaignCreatePage,
    ),
  },
  {
    path: '/projects/email/edit/:id',
    lazy: screen(
      async () => (await import('../features/campaigns/components/channel-pages.tsx')).EmailCampaignPage,
    ),
  },
  {
    path: '/projects/email-sequence/create',
    lazy: screen(
      async () =>
        (await import('../features/campaigns/components/email-campaign-create-page.tsx'))
          .EmailSequenceCreatePage,
    ),
  },
  {
    path: '/projects/email-sequence/edit/:id',
    lazy: screen(
      async () => (await import('../features/campaigns/components/channel-pages.tsx')).EmailCampaignPage,
    ),
  },
  {
    path: '/projects/sms/create',
    lazy: screen(
      async () =>
        (await import('../features/campaigns/components/sms-campaign-create-page.tsx')).SmsCampaignCreatePage,
    ),
  },
  {
    path: '/projects/sms/edit/:id',
    lazy: screen(
      async () => (await import('../features/campaigns/components/channel-pages.tsx')).SmsCampaignPage,
    ),
  },
  { path: '/create-queue', element: <RedirectKeepingState to={() => '/projects/queue/create'} /> },
  {
    path: '/edit-queue/:id',
    element: <RedirectKeepingState to={(p) => `/projects/queue/edit/${p.id ?? ''}`} />,
  },
  { path: '/create-email-campaign', element: <RedirectKeepingState to={() => '/projects/email/create'} /> },
  {
    path: '/edit-email-campaign/:id',
    element: <RedirectKeepingState to={(p) => `/projects/email/edit/${p.id ?? ''}`} />,
  },
  { path: '/create-sms-campaign', element: <RedirectKeepingState to={() => '/projects/sms/create'} /> },
  {
    path: '/edit-sms-campaign/:id',
    element: <RedirectKeepingState to={(p) => `/projects/sms/edit/${p.id ?? ''}`} />,
  },
  {
    path: '/create-email-sequence',
    element: <RedirectKeepingState to={() => '/projects/email-sequence/create'} />,
  },
  {
    path: '/power-dialer',
    lazy: screen(
      async () => (await import('../features/dialer/components/call-dashboard-page.tsx')).CallDashboardPage,
    ),
  },
  { path: '/dialer', element: <Navigate to="/power-dialer" replace /> },
  {
    path: '/reports',
    lazy: screen(async () => (await import('../features/reports/components/reports-page.tsx')).ReportsPage),
  },
  {
    path: '/reports/dashboard',
    lazy: screen(
      async () => (await import('../features/reports/components/call-reports-page.tsx')).CallReportsPage,
    ),
  },
  {
    path: '/settings',
    lazy: screen(async () => (await import('../features/settings/settings-page.tsx')).SettingsPage),
  },
  {
    path: '/outbox',
    lazy: screen(async () => (await import('../features/email/components/outbox-page.tsx')).OutboxPage),
  },
  {
    path: '/admin',
    lazy: async () => {
      const { AdminPage } = await import('../features/admin/components/admin-page.tsx');
      return {
        element: (
          <RequireApproved adminOnly>
            <AdminPage />
          </RequireApproved>
        ),
      };
    },
  },
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter([
  {
    path: '/',
    lazy: screen(async () => (await import('../features/landing/landing-page.tsx')).LandingPage),
    hydrateFallbackElement: <FullPageSpinner />,
  },
  {
    path: '/auth',
    lazy: screen(async () => (await import('../features/auth/components/auth-page.tsx')).AuthPage),
    hydrateFallbackElement: <FullPageSpinner />,
  },
  {
    path: '/reset-password',
    lazy: screen(
      async () => (await import('../features/auth/components/reset-password-page.tsx')).ResetPasswordPage,
    ),
    hydrateFallbackElement: <FullPageSpinner />,
  },
  // The pop-out dialers: same session cookie as the app (decision 000), no shell around them.
  { path: '/dialer-window', lazy: dialerWindow(false), hydrateFallbackElement: <FullPageSpinner /> },
  { path: '/simple-dialer-window', lazy: dialerWindow(true), hydrateFallbackElement: <FullPageSpinner /> },
  {
    lazy: async () => {
      const { AppShell } = await import('../features/shell/app-shell.tsx');
      return {
        element: (
          <RequireApproved>
            <AppShell />
          </RequireApproved>
        ),
      };
    },
    hydrateFallbackElement: <FullPageSpinner />,
    children: appRoutes,
  },
]);
