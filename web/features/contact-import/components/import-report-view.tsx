import type { ImportReport } from '#domain/contacts/contact-import.ts';

const SHOWN_SKIPPED = 100;

/** An import's final report: created, updated and skipped, with the reason for each skipped row. */
export function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <section aria-label="Import report" className="flex flex-col gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(
          [
            ['Rows read', report.totalRows],
            ['Created', report.created],
            ['Updated', report.updated],
            ['Skipped', report.skipped],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-md border border-border p-3">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold">{value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {report.skippedRows.length > 0 && (
        <div className="max-h-64 overflow-auto rounded-md border border-border">
          <table className="w-full text-sm" aria-label="Skipped rows">
            <thead className="sticky top-0 bg-card text-left">
              <tr>
                <th className="p-2 font-medium">Row</th>
                <th className="p-2 font-medium">Reason</th>
              </tr>
            </thead>
            <tbody>
              {report.skippedRows.slice(0, SHOWN_SKIPPED).map((r) => (
                <tr key={r.row} className="border-t border-border">
                  <td className="p-2 tabular-nums">{r.row}</td>
                  <td className="p-2">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report.skippedRows.length > SHOWN_SKIPPED && (
        <p className="text-xs text-muted-foreground">
          The first {SHOWN_SKIPPED} skipped rows are shown; the downloaded report has
          {report.skipped > report.skippedRows.length
            ? ` the first ${report.skippedRows.length.toLocaleString()}`
            : ' them all'}
          .
        </p>
      )}
    </section>
  );
}
