import { lazy, Suspense } from 'react';
import type { MergeContact } from '#domain/email/merge-fields.ts';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

// Fetched when the dialog first opens: the contact screens do not pay for the form up front.
const SendEmailForm = lazy(async () => ({ default: (await import('./send-email-form.tsx')).SendEmailForm }));

export type EmailRecipient = MergeContact & { id: string };

/**
 * Send Email: the recipient read-only, a template picker when the user has templates
 * (choosing one fills subject and message, merge fields filled for this contact), Subject and Message required,
 * 'Sending...' while it goes. The toast says honestly whether it was sent or kept in the outbox (decision 000).
 */
export function SendEmailDialog({
  contact,
  open,
  onOpenChange,
}: {
  contact: EmailRecipient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        {open && (
          <Suspense fallback={<Spinner />}>
            <SendEmailForm contact={contact} onDone={() => onOpenChange(false)} />
          </Suspense>
        )}
      </DialogContent>
    </Dialog>
  );
}
