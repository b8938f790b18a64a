import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Upload } from 'lucide-react';
import type { ImportReport } from '#domain/contacts/contact-import.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import type { ImportStep } from './import-steps.tsx';

// The steps are fetched when the dialog first opens: screens that offer Import do not pay for it up front.
const ImportSteps = lazy(async () => ({ default: (await import('./import-steps.tsx')).ImportSteps }));

/**
 * The one import flow (issue 4; spec part 2 §2.6, §5.6), for the contacts page now and the dialer and create-queue
 * screens later: choose a CSV, Excel or vCard file; check how its columns map to contact fields on its first rows;
 * choose what happens to contacts already there; watch it run; read (and download) the report.
 */
export function ImportContactsDialog({
  trigger,
  onImported,
}: {
  trigger?: ReactNode;
  onImported?: (report: ImportReport) => void;
}) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<ImportStep>({ name: 'choose' });
  const running = step.name === 'running';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (running) return; // the import goes on; closing would hide it
        setOpen(next);
        if (!next) setStep({ name: 'choose' });
      }}
    >
      <DialogTrigger asChild>
        {trigger ?? (
          <Button variant="outline">
            <Upload /> Import
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>Import Contacts</DialogTitle>
          <DialogDescription>
            CSV, Excel (.xlsx) or vCard (.vcf) files, exported from a spreadsheet, another CRM or a phone.
          </DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Spinner />}>
          <ImportSteps
            step={step}
            setStep={setStep}
            onDone={(report) => {
              onImported?.(report);
            }}
            onClose={() => {
              setOpen(false);
              setStep({ name: 'choose' });
            }}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
