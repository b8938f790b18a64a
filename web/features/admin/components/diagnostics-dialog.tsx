import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { useDiagnostics } from '../api/admin-queries.ts';

/** Debug DB: an admin-only look at the database (admin). */
export function DiagnosticsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const diagnostics = useDiagnostics(open);
  const d = diagnostics.data;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Database diagnostics</DialogTitle>
          <DialogDescription>Read from the database just now.</DialogDescription>
        </DialogHeader>
        {diagnostics.isPending && <Spinner />}
        {diagnostics.isError && (
          <p role="alert" className="text-sm text-destructive">
            Database unreachable: {diagnostics.error.message}
          </p>
        )}
        {d && (
          <div className="flex flex-col gap-3 text-sm">
            <dl className="grid grid-cols-2 gap-2">
              <dt className="text-muted-foreground">Database reachable</dt>
              <dd>{d.databaseReachable ? 'Yes' : 'No'}</dd>
              <dt className="text-muted-foreground">Server version</dt>
              <dd>PostgreSQL {d.serverVersion}</dd>
              <dt className="text-muted-foreground">Migration level</dt>
              <dd>
                {d.migrationLevel ?? 'none'} ({d.migrationsApplied} applied)
              </dd>
            </dl>
            <Table aria-label="Row counts">
              <TableHeader>
                <TableRow>
                  <TableHead>Table</TableHead>
                  <TableHead className="text-right">Rows</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.rowCounts.map((r) => (
                  <TableRow key={r.table}>
                    <TableCell className="font-mono">{r.table}</TableCell>
                    <TableCell className="text-right">{r.rows.toLocaleString()}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
