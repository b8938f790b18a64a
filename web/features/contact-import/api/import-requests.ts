import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ImportEventSchema,
  ImportPreviewSchema,
  ImportReportSchema,
  importFormatOf,
  type DuplicateMode,
  type ImportEvent,
  type ImportField,
  type ImportPreview,
  type ImportReport,
} from '#domain/contacts/contact-import.ts';
import { apiFetch, ApiError } from '../../../lib/api-client.ts';

/** How much of a text file the preview needs: its first rows, not the whole file. */
const PREVIEW_BYTES = 256 * 1024;

/** The first rows of a file, read by the server with the same readers the import uses. */
export async function previewImport(file: File): Promise<ImportPreview> {
  const body = importFormatOf(file.name) === 'xlsx' ? file : file.slice(0, PREVIEW_BYTES);
  const response = await fetch(`/api/contacts/imports/preview?fileName=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/octet-stream' },
    body,
  }).catch(() => {
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  });
  const json: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = (json as { message?: string }).message ?? 'The file could not be read.';
    throw new ApiError(response.status, 'HTTP', message);
  }
  // A text file cut at the preview's end may end in half a row: drop the last row when the file went on.
  const preview = ImportPreviewSchema.parse(json);
  return body.size < file.size && preview.rows.length > 1
    ? { ...preview, rows: preview.rows.slice(0, -1) }
    : preview;
}

export type ImportOptions = { mapping: (ImportField | null)[]; header: boolean; duplicates: DuplicateMode };

/**
 * Sends the whole file and follows the server's progress (newline-delimited JSON) as it streams back. XHR rather than
 * fetch, because only XHR reports upload progress, which is the progress bar of a large file.
 */
export function runImport(
  file: File,
  options: ImportOptions,
  on: { uploaded: (fraction: number) => void; event: (event: ImportEvent) => void },
): Promise<ImportReport> {
  const query = new URLSearchParams({
    fileName: file.name,
    header: String(options.header),
    duplicates: options.duplicates,
    mapping: JSON.stringify(options.mapping),
  });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let seen = 0;
    let last: ImportEvent | null = null;
    const readEvents = () => {
      const text = xhr.responseText;
      const end = text.lastIndexOf('\n');
      if (end < seen) return;
      for (const line of text.slice(seen, end).split('\n')) {
        if (!line.trim()) continue;
        const parsed = ImportEventSchema.safeParse(JSON.parse(line));
        if (parsed.success) {
          last = parsed.data;
          on.event(parsed.data);
        }
      }
      seen = end + 1;
    };
    xhr.open('POST', `/api/contacts/imports?${query.toString()}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && on.uploaded(e.loaded / e.total);
    xhr.onprogress = readEvents;
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'The connection was lost during the import.'));
    xhr.onload = () => {
      if (xhr.status !== 200) {
        const body = (() => {
          try {
            return JSON.parse(xhr.responseText) as { message?: string };
          } catch {
            return {};
          }
        })();
        return reject(new ApiError(xhr.status, 'HTTP', body.message ?? 'The import failed.'));
      }
      readEvents();
      const final = last;
      if (final?.type === 'done') resolve(final.report);
      else
        reject(new ApiError(200, 'IMPORT', final?.type === 'error' ? final.message : 'The import failed.'));
    };
    xhr.send(file);
  });
}

export function useRecentImports(enabled: boolean) {
  return useQuery({
    queryKey: ['contacts', 'imports'],
    queryFn: async ({ signal }) =>
      (
        await apiFetch('/api/contacts/imports', {
          schema: z.object({ imports: z.array(ImportReportSchema) }),
          signal,
        })
      ).imports,
    enabled,
  });
}

export async function fetchImportReport(id: string): Promise<ImportReport> {
  return (await apiFetch(`/api/contacts/imports/${id}`, { schema: z.object({ report: ImportReportSchema }) }))
    .report;
}

/** The report as a CSV a person can keep: the counts, then each skipped row and why. */
export function downloadReport(report: ImportReport): void {
  const quote = (v: string | number) => `"${String(v).replaceAll('"', '""')}"`;
  const lines = [
    ['File', report.fileName],
    ['Rows', report.totalRows],
    ['Created', report.created],
    ['Updated', report.updated],
    ['Skipped', report.skipped],
    [],
    ['Row', 'Reason'],
    ...report.skippedRows.map((r) => [r.row, r.reason]),
  ].map((cells) => cells.map(quote).join(','));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([`\uFEFF${lines.join('\n')}\n`], { type: 'text/csv' }));
  link.download = `import_report_${report.fileName.replace(/\.[^.]+$/, '')}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
