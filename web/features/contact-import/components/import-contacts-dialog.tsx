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
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import type { ImportStep } from './import-steps.tsx';

// The steps are fetched when the dialog first opens: screens that offer Import do not pay for it up front.
const ImportSteps = lazy(async () => ({ default: (await import('./import-steps.tsx')).ImportSteps }));

/**
 * The one import flow, for the contacts page now and the dialer and create-queue
 * screens later: choose a CSV, Excel or vCard file; check how its columns map to contact fields on its first rows;
 * choose what happens to contacts already there; watch it run; read (and download) the report.
 */
export function ImportContactsDialog({
  trigger,
  onImported,
  sources,
}: {
  trigger?: ReactNode;
  onImported?: (report: ImportReport) => void;
  /**
   * The dialer's import: tabs of its own before 'CSV File' (Saved Contacts, Call Queues), and
   * what the 'Mobile Device' tab shows above the file pick (a QR code that opens the dialer on the phone).
   */
  sources?: { tabs: { value: string; label: string; content: ReactNode }[]; mobileIntro: ReactNode };
}) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<ImportStep>({ name: 'choose' });
  const running = step.name === 'running';
  const steps = (
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
  );
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
        {sources ? (
          <Tabs defaultValue={sources.tabs[0]?.value ?? 'csv'}>
            <TabsList>
              {sources.tabs.map((t) => (
                <TabsTrigger key={t.value} value={t.value}>
                  {t.label}
                </TabsTrigger>
              ))}
              <TabsTrigger value="csv">CSV File</TabsTrigger>
              <TabsTrigger value="mobile">Mobile Device</TabsTrigger>
            </TabsList>
            {sources.tabs.map((t) => (
              <TabsContent key={t.value} value={t.value}>
                {t.content}
              </TabsContent>
            ))}
            <TabsContent value="csv">{steps}</TabsContent>
            <TabsContent value="mobile" className="flex flex-col gap-4">
              {sources.mobileIntro}
              <p className="text-sm text-muted-foreground">
                Or export your phone's contacts as a .vcf (vCard) or .csv file and pick it here.
              </p>
              {steps}
            </TabsContent>
          </Tabs>
        ) : (
          steps
        )}
      </DialogContent>
    </Dialog>
  );
}
