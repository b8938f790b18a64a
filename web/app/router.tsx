import { createBrowserRouter, Navigate, useLocation, useParams, type RouteObject } from 'react-router';
import type { ReactNode } from 'react';
import { AdminPage } from '../features/admin/components/admin-page.tsx';
import { ContactDetailPage } from '../features/contacts/components/contact-detail-page.tsx';
import { ContactFormPage } from '../features/contacts/components/contact-form-page.tsx';
import { ContactListPage } from '../features/contacts/components/contact-list-page.tsx';
import { AuthPage } from '../features/auth/components/auth-page.tsx';
import { RequireApproved } from '../features/auth/components/require-approved.tsx';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page.tsx';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { NotBuiltYet, NotFoundPage } from '../features/placeholders/not-built-yet.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { OutboxPage } from '../features/email/components/outbox-page.tsx';
import { CallDashboardPage } from '../features/calls/components/call-dashboard-page.tsx';
import { AppShell } from '../features/shell/app-shell.tsx';

/** A short-form route (spec part 2 §2.1) shows the canonical screen, keeping navigation state (DECISIONS.md). */
function RedirectKeepingState({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const location = useLocation();
  const params = useParams();
  return <Navigate to={to(params)} replace state={location.state as unknown} />;
}

const soon = (title: string, what: string, subtitle?: string): ReactNode => (
  <NotBuiltYet title={title} what={what} subtitle={subtitle} />
);

const appRoutes: RouteObject[] = [
  { path: '/contacts', element: <ContactListPage /> },
  { path: '/contacts/new', element: <ContactFormPage /> },
  { path: '/contacts/:id', element: <ContactDetailPage /> },
  { path: '/contacts/:id/edit', element: <ContactFormPage /> },
  { path: '/projects', element: soon('Projects', 'Projects, call queues and campaigns are not built yet.') },
  { path: '/projects/queue/create', element: soon('Create Call Queue', 'Call queues are not built yet.') },
  { path: '/projects/queue/edit/:id', element: soon('Edit Call Queue', 'Call queues are not built yet.') },
  {
    path: '/projects/email/create',
    element: soon('Create Email Campaign', 'E-mail campaigns are not built yet.'),
  },
  {
    path: '/projects/email/edit/:id',
    element: soon('Edit Email Campaign', 'E-mail campaigns are not built yet.'),
  },
  {
    path: '/projects/email-sequence/create',
    element: soon('Create Email Sequence', 'E-mail sequences are not built yet.'),
  },
  {
    path: '/projects/email-sequence/edit/:id',
    element: soon('Edit Email Sequence', 'E-mail sequences are not built yet.'),
  },
  { path: '/projects/sms/create', element: soon('Create SMS Campaign', 'SMS campaigns are not built yet.') },
  { path: '/projects/sms/edit/:id', element: soon('Edit SMS Campaign', 'SMS campaigns are not built yet.') },
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
  { path: '/power-dialer', element: <CallDashboardPage /> },
  { path: '/dialer', element: <Navigate to="/power-dialer" replace /> },
  { path: '/reports', element: soon('Reports', 'Call reports and qualified leads are not built yet.') },
  {
    path: '/reports/dashboard',
    element: soon('Call Reports', 'The call reports list and CSV export are not built yet.'),
  },
  { path: '/settings', element: <SettingsPage /> },
  { path: '/outbox', element: <OutboxPage /> },
  {
    path: '/admin',
    element: (
      <RequireApproved adminOnly>
        <AdminPage />
      </RequireApproved>
    ),
  },
  { path: '*', element: <NotFoundPage /> },
];

export const router = createBrowserRouter([
  { path: '/', element: <LandingPage /> },
  { path: '/auth', element: <AuthPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
  // The pop-out dialers use the same session cookie (DECISIONS.md); they arrive with the calling release.
  {
    path: '/dialer-window',
    element: <div className="p-6">{soon('Browser Dialer', 'The pop-out dialer is not built yet.')}</div>,
  },
  {
    path: '/simple-dialer-window',
    element: <div className="p-6">{soon('Dialer', 'The pop-out dialer is not built yet.')}</div>,
  },
  {
    element: (
      <RequireApproved>
        <AppShell />
      </RequireApproved>
    ),
    children: appRoutes,
  },
]);
