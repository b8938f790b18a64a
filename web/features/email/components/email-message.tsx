import { useState } from 'react';
import type { ContactEmail } from '#domain/email/email.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';

/** One e-mail in a list: subject, when, whether it went out or stayed in the outbox, and its text on demand. */
export function EmailMessage({ email, heading }: { email: ContactEmail; heading?: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="rounded-md border border-border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        {heading}
        <button
          type="button"
          className="font-medium hover:underline"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {email.subject}
        </button>
        {email.delivery === 'smtp' ? (
          <Badge variant="green">Sent</Badge>
        ) : (
          <Badge variant="yellow">In outbox, not sent</Badge>
        )}
        <span className="ml-auto text-xs text-muted-foreground">
          {new Date(email.sentAt).toLocaleString()}
        </span>
      </div>
      <p className="mt-1 text-xs text-muted-foreground">
        From {email.fromAddress} to {email.toAddress}
      </p>
      {open && <p className="mt-2 whitespace-pre-wrap border-t border-border pt-2">{email.content}</p>}
    </li>
  );
}
