import { useState } from 'react';
import { toast } from 'sonner';
import { exportFileName } from '#domain/contacts/contact-csv.ts';
import type { ParsedContactFilter, ContactTab } from '#domain/contacts/contact-list.schema.ts';

export type ExportScope =
  | { kind: 'all' }
  | { kind: 'filter'; filter: ParsedContactFilter; tab: ContactTab }
  | { kind: 'ids'; ids: string[] };

function requestFor(scope: ExportScope): [string, RequestInit] {
  if (scope.kind === 'ids') {
    return [
      '/api/contacts/export',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: scope.ids }),
      },
    ];
  }
  const params = new URLSearchParams({ scope: scope.kind });
  if (scope.kind === 'filter') {
    params.set('tab', scope.tab);
    for (const [key, value] of Object.entries(scope.filter))
      if (value !== undefined && value !== '' && value !== 'all' && value !== false)
        params.set(key, String(value));
  }
  return [`/api/contacts/export?${params.toString()}`, { method: 'GET' }];
}

/**
 * Downloads contacts as contacts_backup_{date}.csv, the date in the browser's own day. The server
 * streams the file; the toast comes once it has all arrived: 'Export Successful' or 'Export Failed'.
 */
export function useExportContacts() {
  const [exporting, setExporting] = useState(false);
  const run = async (scope: ExportScope) => {
    setExporting(true);
    try {
      const [url, init] = requestFor(scope);
      const response = await fetch(url, { ...init, credentials: 'same-origin' });
      if (!response.ok) throw new Error(`export answered ${response.status}`);
      const blob = await response.blob();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = exportFileName(new Date());
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      toast.success('Export Successful', { description: `Saved ${link.download}.` });
    } catch {
      toast.error('Export Failed', {
        description: 'There was an error exporting your contacts. Please try again.',
      });
    } finally {
      setExporting(false);
    }
  };
  return { exportContacts: (scope: ExportScope) => void run(scope), exporting };
}
