import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Upload } from 'lucide-react';
import {
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  IMPORT_MESSAGES,
  importFormatOf,
  ImportMappingSchema,
  suggestMapping,
  type DuplicateMode,
  type ImportEvent,
  type ImportField,
  type ImportPreview,
  type ImportReport,
} from '#domain/contacts/contact-import.ts';
import { Button } from '../../../components/ui/button.tsx';
import { DialogFooter } from '../../../components/ui/dialog.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { downloadReport, previewImport, runImport } from '../api/import-requests.ts';
import { ImportReportView } from './import-report-view.tsx';

export type ImportStep =
  | { name: 'choose' }
  | { name: 'reading'; file: File }
  | { name: 'mapping'; file: File; preview: ImportPreview }
  | { name: 'running'; file: File; uploaded: number; progress: ImportEvent | null }
  | { name: 'report'; report: ImportReport };

/** The steps inside the import dialog: choose, map, run, report. Loaded when the dialog first opens. */
export function ImportSteps({
  step,
  setStep,
  onDone,
  onClose,
}: {
  step: ImportStep;
  setStep: (step: ImportStep) => void;
  onDone: (report: ImportReport) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!importFormatOf(file.name)) {
      const [title, description] = IMPORT_MESSAGES.invalidType.split(': ');
      toast.error(title ?? 'Invalid file type', { description });
      return;
    }
    if (file.size === 0) return toast.error(IMPORT_MESSAGES.noData);
    setStep({ name: 'reading', file });
    try {
      setStep({ name: 'mapping', file, preview: await previewImport(file) });
    } catch (error) {
      toast.error('Failed to import contacts', { description: (error as Error).message });
      setStep({ name: 'choose' });
    }
  };

  const start = async (
    file: File,
    options: { mapping: (ImportField | null)[]; header: boolean; duplicates: DuplicateMode },
  ) => {
    setStep({ name: 'running', file, uploaded: 0, progress: null });
    let uploaded = 0;
    let progress: ImportEvent | null = null;
    try {
      const report = await runImport(file, options, {
        uploaded: (fraction) => {
          uploaded = fraction;
          setStep({ name: 'running', file, uploaded, progress });
        },
        event: (event) => {
          progress = event;
          setStep({ name: 'running', file, uploaded, progress });
        },
      });
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      toast.success('Contacts imported', {
        description: `${report.created.toLocaleString()} created, ${report.updated.toLocaleString()} updated, ${report.skipped.toLocaleString()} skipped.`,
      });
      setStep({ name: 'report', report });
      onDone(report);
    } catch (error) {
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      toast.error('Failed to import contacts', { description: (error as Error).message });
      setStep({ name: 'choose' });
    }
  };

  switch (step.name) {
    case 'choose':
      return (
        <label className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border border-dashed border-border p-10 text-center hover:bg-muted/40">
          <Upload className="size-8 text-muted-foreground" />
          <span className="font-medium">Choose a file</span>
          <span className="text-sm text-muted-foreground">
            A first row naming the columns helps; without one, columns are read as first name, last name,
            phone, e-mail, company.
          </span>
          <input
            type="file"
            className="sr-only"
            aria-label="File to import"
            accept=".csv,.txt,.xlsx,.vcf,.vcard,text/csv,text/vcard"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
        </label>
      );
    case 'reading':
      return (
        <div className="flex items-center gap-3 p-6 text-sm text-muted-foreground">
          <Spinner /> Reading {step.file.name}…
        </div>
      );
    case 'mapping':
      return (
        <MappingStep
          file={step.file}
          preview={step.preview}
          onBack={() => setStep({ name: 'choose' })}
          onStart={start}
        />
      );
    case 'running':
      return <RunningStep file={step.file} uploaded={step.uploaded} progress={step.progress} />;
    case 'report':
      return (
        <>
          <ImportReportView report={step.report} />
          <DialogFooter>
            <Button variant="outline" onClick={() => downloadReport(step.report)}>
              Download report
            </Button>
            <Button onClick={onClose}>Done</Button>
          </DialogFooter>
        </>
      );
  }
}

function MappingStep({
  file,
  preview,
  onBack,
  onStart,
}: {
  file: File;
  preview: ImportPreview;
  onBack: () => void;
  onStart: (
    file: File,
    options: { mapping: (ImportField | null)[]; header: boolean; duplicates: DuplicateMode },
  ) => void;
}) {
  const [header, setHeader] = useState(preview.header !== null);
  const [mapping, setMapping] = useState<(ImportField | null)[]>(preview.mapping);
  const [duplicates, setDuplicates] = useState<DuplicateMode>('skip');
  const columns = Array.from({ length: preview.columnCount }, (_, i) => i);
  const dataRows = header || !preview.header ? preview.rows : [preview.header, ...preview.rows];
  const check = ImportMappingSchema.safeParse(mapping);

  const toggleHeader = (on: boolean) => {
    setHeader(on);
    setMapping(suggestMapping(on ? preview.header : null, preview.columnCount));
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <span className="font-medium">{file.name}</span>{' '}
        <span className="text-muted-foreground">
          ({(file.size / 1024).toLocaleString(undefined, { maximumFractionDigits: 0 })} KB). Choose the field
          each column fills; the first rows are shown as they will be read.
        </span>
      </p>
      <div className="max-h-80 overflow-auto rounded-md border border-border">
        <table className="w-full text-sm" aria-label="Column mapping">
          <thead className="sticky top-0 bg-card">
            <tr>
              {columns.map((i) => (
                <th key={i} className="p-2 text-left align-bottom font-normal">
                  {header && preview.header?.[i] && (
                    <div className="mb-1 truncate text-xs text-muted-foreground">{preview.header[i]}</div>
                  )}
                  <NativeSelect
                    aria-label={`Column ${i + 1}${preview.header?.[i] && header ? ` (${preview.header[i]})` : ''}`}
                    value={mapping[i] ?? ''}
                    onChange={(e) => {
                      const next = [...mapping];
                      next[i] = (e.target.value || null) as ImportField | null;
                      setMapping(next);
                    }}
                  >
                    <option value="">Don’t import</option>
                    {IMPORT_FIELDS.map((f) => (
                      <option key={f} value={f}>
                        {IMPORT_FIELD_LABELS[f]}
                      </option>
                    ))}
                  </NativeSelect>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dataRows.map((row, r) => (
              <tr key={r} className="border-t border-border">
                {columns.map((i) => (
                  <td key={i} className="max-w-48 truncate p-2">
                    {row[i]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-6 text-sm">
        {preview.header && (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={header}
              onChange={(e) => toggleHeader(e.target.checked)}
            />
            First row names the columns
          </label>
        )}
        <fieldset className="flex flex-wrap items-center gap-4">
          <legend className="sr-only">Contacts already in your list</legend>
          <span className="text-muted-foreground">Contacts already here (same e-mail or phone):</span>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="duplicates"
              checked={duplicates === 'skip'}
              onChange={() => setDuplicates('skip')}
            />
            Skip them
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="duplicates"
              checked={duplicates === 'update'}
              onChange={() => setDuplicates('update')}
            />
            Update them
          </label>
        </fieldset>
      </div>
      {!check.success && (
        <p role="alert" className="text-sm text-destructive">
          {check.error.issues[0]?.message}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onBack}>
          Choose another file
        </Button>
        <Button disabled={!check.success} onClick={() => onStart(file, { mapping, header, duplicates })}>
          Import
        </Button>
      </DialogFooter>
    </div>
  );
}

function RunningStep({
  file,
  uploaded,
  progress,
}: {
  file: File;
  uploaded: number;
  progress: ImportEvent | null;
}) {
  const counts = progress?.type === 'progress' ? progress : null;
  const queueing = counts?.phase === 'queueing';
  const percent = Math.round((queueing ? counts.queued : uploaded) * 100);
  return (
    <div className="flex flex-col gap-3 py-4" aria-live="polite">
      <p className="text-sm font-medium">
        {queueing ? `Adding the new contacts to All Synced Contacts… ${percent}%` : `Importing ${file.name}…`}
      </p>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-muted-foreground">
        {counts
          ? `${counts.read.toLocaleString()} rows read · ${counts.created.toLocaleString()} created · ${counts.updated.toLocaleString()} updated · ${counts.skipped.toLocaleString()} skipped`
          : `${percent}% sent`}
      </p>
      <p className="text-xs text-muted-foreground">
        You can keep this window open; the import goes on on the server.
      </p>
    </div>
  );
}
