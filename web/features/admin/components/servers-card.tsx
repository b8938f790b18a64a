import { NO_BACKGROUND_JOBS_MESSAGE } from '#domain/admin/server-instances.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { useServerInstances } from '../api/admin-queries.ts';

/**
 * Shown at the top of /admin when no running server runs background jobs (decision 050): campaigns, bulk calls and
 * webhooks would otherwise wait without a word.
 */
export function BackgroundJobsAlert() {
  const servers = useServerInstances();
  if (!servers.data || servers.data.backgroundJobsRunning) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
    >
      {NO_BACKGROUND_JOBS_MESSAGE}
    </p>
  );
}

/** The server processes on this database (decision 050): which are running, which run background jobs. */
export function ServersCard() {
  const servers = useServerInstances();
  const data = servers.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Servers</CardTitle>
        <CardDescription>
          The server processes that used this database in the last week. Background jobs (campaign sends, bulk
          calls, webhooks, syncs) run on those started with BACKGROUND_JOBS=on.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {servers.isError && (
          <p role="alert" className="text-sm text-destructive">
            Could not read the servers: {servers.error.message}
          </p>
        )}
        {data && (
          <Table aria-label="Servers">
            <TableHeader>
              <TableRow>
                <TableHead>Host</TableHead>
                <TableHead>Process</TableHead>
                <TableHead>Started</TableHead>
                <TableHead>Last seen</TableHead>
                <TableHead>Background jobs</TableHead>
                <TableHead>State</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.instances.map((instance) => (
                <TableRow key={instance.id}>
                  <TableCell className="font-mono">{instance.hostname}</TableCell>
                  <TableCell>{instance.pid}</TableCell>
                  <TableCell>{formatMoment(instance.startedAt)}</TableCell>
                  <TableCell>{formatMoment(instance.lastSeenAt)}</TableCell>
                  <TableCell>{instance.runsBackgroundJobs ? 'Runs them' : 'Off'}</TableCell>
                  <TableCell>
                    <Badge variant={instance.running ? 'green' : 'grey'}>
                      {instance.running ? 'Running' : 'Stopped'}
                    </Badge>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
