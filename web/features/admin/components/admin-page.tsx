import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Database, RefreshCw } from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useSession } from '../../auth/public.ts';
import { useLiveStatus } from '../../realtime/public.ts';
import { useAdminStats } from '../api/admin-queries.ts';
import { AccountsCard } from './accounts-card.tsx';
import { DiagnosticsDialog } from './diagnostics-dialog.tsx';
import { PendingUsersCard } from './pending-users-card.tsx';
import { BackgroundJobsAlert, ServersCard } from './servers-card.tsx';
import { SystemOutboxCard } from './system-outbox-card.tsx';
import { useNewSignupAlert } from './use-new-signup-alert.ts';

const LIVE_LABEL = {
  live: 'Live updates on',
  connecting: 'Connecting…',
  offline: 'Live updates off',
} as const;

/** /admin: user management. */
export function AdminPage() {
  const { data: me } = useSession();
  const stats = useAdminStats();
  const live = useLiveStatus();
  const showBadge = useNewSignupAlert();
  const [debugOpen, setDebugOpen] = useState(false);
  const queryClient = useQueryClient();

  const handleRefresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['profiles'] });
    if (stats.isError) toast.error('Error fetching data', { description: stats.error.message });
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">User Management</h1>
          <p className="text-muted-foreground">Approve new accounts and manage your team's access.</p>
        </div>
        {showBadge && (
          <Badge variant="yellow" role="status" className="animate-pulse">
            New approval needed!
          </Badge>
        )}
        <div className="ml-auto flex items-center gap-2">
          <span
            role="status"
            aria-label="Live status"
            className="flex items-center gap-1.5 text-sm text-muted-foreground"
          >
            <span
              className={`size-2 rounded-full ${live === 'live' ? 'bg-green-500' : live === 'connecting' ? 'bg-yellow-500' : 'bg-slate-500'}`}
            />
            {LIVE_LABEL[live]}
          </span>
          <Button variant="outline" size="sm" onClick={() => void handleRefresh()}>
            <RefreshCw /> Refresh
          </Button>
          <Button variant="outline" size="sm" onClick={() => setDebugOpen(true)}>
            <Database /> Debug DB
          </Button>
        </div>
      </div>
      <BackgroundJobsAlert />
      {stats.isError && (
        <p role="alert" className="text-sm text-destructive">
          Error fetching data: {stats.error.message}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard title="Total Users" value={stats.data?.totalUsers} />
        <StatCard title="Pending Approval" value={stats.data?.pendingApproval} />
        <StatCard title="Approved Users" value={stats.data?.approvedUsers} />
      </div>
      <PendingUsersCard />
      <AccountsCard selfId={me?.id ?? ''} />
      <SystemOutboxCard />
      <ServersCard />
      <DiagnosticsDialog open={debugOpen} onOpenChange={setDebugOpen} />
    </div>
  );
}

function StatCard({ title, value }: { title: string; value: number | undefined }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold" aria-label={title}>
          {value ?? '–'}
        </p>
      </CardContent>
    </Card>
  );
}
