import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { useDebouncedSearch } from '../../../lib/use-debounced.ts';
import { callReportsExportUrl, useCallReports } from '../api/call-reports-queries.ts';

/**
 * /reports/dashboard ("Call Reports page"): the user's calls, newest first, with a text filter over
 * contact id, notes and outcome, and Export CSV (call_reports.csv of the same filter, streamed by the server).
 */
export function CallReportsPage() {
  const [typed, setTyped] = useState('');
  const search = useDebouncedSearch(typed);
  const reports = useCallReports(search);
  const rows = reports.data?.pages.flatMap((p) => p.reports) ?? [];
  return (
    <Card className="mx-auto w-full max-w-5xl">
      <CardHeader className="flex flex-row flex-wrap items-center gap-3">
        <CardTitle className="text-2xl">Call Reports</CardTitle>
        <Button variant="outline" className="ml-auto" asChild>
          <a href={callReportsExportUrl(search)} download="call_reports.csv">
            <Download /> Export CSV
          </a>
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <SearchInput
          aria-label="Filter call reports"
          placeholder="Filter by contact id, notes or outcome"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        {reports.isPending ? (
          <Spinner />
        ) : reports.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {reports.error.message}
          </p>
        ) : rows.length === 0 ? (
          <p className="rounded-md border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
            {search ? 'No calls match this filter.' : 'No calls yet.'}
          </p>
        ) : (
          <>
            <Table aria-label="Call reports">
              <TableHeader>
                <TableRow>
                  <TableHead>Call ID</TableHead>
                  <TableHead>Contact ID</TableHead>
                  <TableHead>Project ID</TableHead>
                  <TableHead>Outcome</TableHead>
                  <TableHead>Direction</TableHead>
                  <TableHead>Notes</TableHead>
                  <TableHead>Created At</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.callId}>
                    <TableCell className="font-mono text-xs">{r.callId.slice(0, 8)}</TableCell>
                    <TableCell className="font-mono text-xs">{r.contactId?.slice(0, 8) ?? '–'}</TableCell>
                    <TableCell className="font-mono text-xs">{r.projectId?.slice(0, 8) ?? '–'}</TableCell>
                    <TableCell>{r.outcome.replaceAll('-', ' ')}</TableCell>
                    <TableCell>{r.direction === 'inbound' ? 'Incoming' : 'Outgoing'}</TableCell>
                    <TableCell className="max-w-xs truncate" title={r.notes ?? undefined}>
                      {r.notes ?? ''}
                    </TableCell>
                    <TableCell>{new Date(r.createdAt).toLocaleString()}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <ul>
              <ShowMoreItem
                hasNextPage={reports.hasNextPage}
                isFetchingNextPage={reports.isFetchingNextPage}
                fetchNextPage={reports.fetchNextPage}
              />
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
