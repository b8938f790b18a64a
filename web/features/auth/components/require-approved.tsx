import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isApproved } from '#domain/auth/roles.ts';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { useSession } from '../api/session.ts';
import { PendingApprovalScreen } from './pending-approval-screen.tsx';

/**
 * The route guard: a spinner while the session loads; /auth when signed out; the pending screen
 * for pending accounts; admin-only routes send others to /contacts. The server enforces all of this as well.
 */
export function RequireApproved({
  children,
  adminOnly = false,
}: {
  children: ReactNode;
  adminOnly?: boolean;
}) {
  const { data: profile, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <FullPageSpinner />;
  if (!profile) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  if (profile.role === 'pending') return <PendingApprovalScreen email={profile.email} />;
  if (!isApproved(profile.role)) return <Navigate to="/auth" replace />;
  if (adminOnly && profile.role !== 'admin') return <Navigate to="/contacts" replace />;
  return children;
}
