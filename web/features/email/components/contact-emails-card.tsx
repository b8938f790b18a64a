import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useContactEmails } from '../api/email-queries.ts';
import { EmailMessage } from './email-message.tsx';

/** The e-mails written to a contact (contact e-mails), newest first. */
export function ContactEmailsCard({ contactId, enabled = true }: { contactId: string; enabled?: boolean }) {
  const emails = useContactEmails(contactId, enabled);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Emails</CardTitle>
      </CardHeader>
      <CardContent>
        {emails.isPending ? (
          <Spinner />
        ) : emails.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Could not load e-mails: {emails.error.message}
          </p>
        ) : (
          <div className="flex flex-col gap-2">
            {emails.data.unsubscribedAt && (
              <p role="status" className="rounded-md border border-border p-2 text-sm">
                Unsubscribed from your e-mail campaigns on{' '}
                {new Date(emails.data.unsubscribedAt).toLocaleDateString()}: campaigns and sequences skip this
                address.
              </p>
            )}
            {emails.data.emails.length === 0 ? (
              <p className="text-sm text-muted-foreground">No e-mails yet.</p>
            ) : (
              <ul aria-label="Emails" className="flex flex-col gap-2">
                {emails.data.emails.map((email) => (
                  <EmailMessage key={email.id} email={email} />
                ))}
              </ul>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
