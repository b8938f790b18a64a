import { Link } from 'react-router';
import { Inbox } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useEmailConfiguration, useOutbox } from '../api/email-queries.ts';
import { EmailMessage } from './email-message.tsx';

/**
 * /outbox: the e-mails kept because no mail server was configured when they were written (nothing is
 * ever silently dropped). They were not sent; this page says so and shows what they said.
 */
export function OutboxPage() {
  const outbox = useOutbox();
  const configuration = useEmailConfiguration();
  const messages = outbox.data?.pages.flatMap((p) => p.messages) ?? [];
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Outbox</h1>
        <p className="text-muted-foreground">
          E-mails written while no mail server was configured. They were not sent.{' '}
          {configuration.data ? (
            <>A mail server is configured now, so new e-mails go out through {configuration.data.server}.</>
          ) : (
            <>
              <Link to="/settings?tab=email" className="text-primary hover:underline">
                Set up a mail server
              </Link>{' '}
              to send e-mails to your contacts.
            </>
          )}
        </p>
      </div>
      {outbox.isPending ? (
        <Spinner />
      ) : outbox.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the outbox: {outbox.error.message}
        </p>
      ) : messages.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border p-12 text-center text-muted-foreground">
          <Inbox className="size-8" />
          The outbox is empty.
        </div>
      ) : (
        <ul aria-label="Outbox" className="flex flex-col gap-2">
          {messages.map((m) => (
            <EmailMessage
              key={m.id}
              email={m}
              heading={
                <Link to={`/contacts/${m.contactId}`} className="text-primary hover:underline">
                  {m.contactName}
                </Link>
              }
            />
          ))}
        </ul>
      )}
      {outbox.hasNextPage && (
        <Button
          variant="outline"
          onClick={() => void outbox.fetchNextPage()}
          disabled={outbox.isFetchingNextPage}
        >
          {outbox.isFetchingNextPage ? 'Loading...' : 'Load older e-mails'}
        </Button>
      )}
    </div>
  );
}
