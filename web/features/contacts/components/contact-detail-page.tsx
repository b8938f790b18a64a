import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, Download, Mail, Pencil, Phone, PhoneCall, Send, Trash2 } from 'lucide-react';
import { historyValue, titleCaseField } from '#domain/contacts/contact-history.ts';
import { isPlaceholderEmail } from '#domain/contacts/cold-lead.ts';
import type { HistoryEntry } from '#domain/contacts/contact.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { isSendableAddress } from '#domain/email/email.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useContactDetail, useDeleteContact } from '../api/contacts-queries.ts';
import { formatDate, formatLastCalled, formatMoment } from '../../../lib/dates.ts';
import { StatusBadge } from './status-badge.tsx';
import { useMissingContactRedirect } from './use-missing-contact-redirect.ts';
import { useExportContacts } from '../../contact-export/public.ts';
import { ContactEmailsCard, SendEmailDialog } from '../../email/public.ts';
import { ContactCallsCard, useCallAction } from '../../calls/public.ts';
import { ContactReachCard } from '../../consent/public.ts';

/** /contacts/{id}: the contact, its e-mails and history, Edit, Delete, Send Email and export. */
export function ContactDetailPage() {
  const { id = '' } = useParams();
  const [deleting, setDeleting] = useState(false);
  const detail = useContactDetail(id, !deleting);
  const remove = useDeleteContact();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [emailing, setEmailing] = useState(false);
  const { exportContacts, exporting } = useExportContacts();
  const callContact = useCallAction();
  useMissingContactRedirect(detail.error);
  if (!detail.data) return <Spinner />;
  const { contact, history } = detail.data;
  const name = `${contact.firstName} ${contact.lastName}`;

  const handleDelete = () => {
    setDeleting(true);
    remove.mutate(contact.id, {
      onSuccess: () => {
        toast.success('Contact deleted', { description: `${name} was deleted.` });
        void navigate('/contacts', { replace: true });
      },
      onError: () => {
        setDeleting(false);
        toast.error('Error', { description: 'Could not delete contact. Please try again.' });
      },
    });
  };

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <Button variant="ghost" className="self-start" asChild>
        <Link to="/contacts">
          <ArrowLeft /> Back to contacts
        </Link>
      </Button>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start gap-3">
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-bold">{name}</h1>
            <p className="text-muted-foreground">
              {[contact.title, contact.company].filter(Boolean).join(' at ')}
            </p>
          </div>
          <div className="flex items-center gap-2">
            <StatusBadge status={contact.status} />
            {contact.isColdLead && <Badge variant="outline">Cold lead</Badge>}
            {contact.needsAttention && <Badge variant="yellow">Needs attention</Badge>}
            {contact.isQualified && <Badge variant="green">Qualified</Badge>}
          </div>
          <div className="ml-auto flex flex-wrap gap-2">
            {contact.phone && (
              <Button
                onClick={() =>
                  callContact({
                    contactId: contact.id,
                    name,
                    phone: contact.phone ?? '',
                    company: contact.company,
                  })
                }
              >
                <PhoneCall /> Call
              </Button>
            )}
            {isSendableAddress(contact.email) && (
              <Button variant="outline" onClick={() => setEmailing(true)}>
                <Send /> Send Email
              </Button>
            )}
            <Button variant="outline" asChild>
              <Link to={`/contacts/${contact.id}/edit`}>
                <Pencil /> Edit
              </Link>
            </Button>
            <Button variant="outline" disabled={exporting} onClick={() => exportContacts({ kind: 'all' })}>
              <Download /> {exporting ? 'Exporting...' : 'Export All Contacts'}
            </Button>
            <Button variant="destructive" onClick={() => setConfirming(true)}>
              <Trash2 /> Delete
            </Button>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Detail label="Email">
            {contact.email && !isPlaceholderEmail(contact.email) ? (
              <a
                className="inline-flex items-center gap-1 text-primary hover:underline"
                href={`mailto:${contact.email}`}
              >
                <Mail className="size-4" /> {contact.email}
              </a>
            ) : (
              <span className="text-muted-foreground">
                {contact.email ? 'No real address (cold lead)' : 'None'}
              </span>
            )}
          </Detail>
          <Detail label="Phone">
            {contact.phone ? (
              <span className="inline-flex items-center gap-1">
                <Phone className="size-4" /> {formatPhoneForDisplay(contact.phone)}
              </span>
            ) : (
              <span className="text-muted-foreground">None</span>
            )}
          </Detail>
          <Detail label="Website">
            {contact.website ?? <span className="text-muted-foreground">None</span>}
          </Detail>
          <Detail label="Last Called">{formatLastCalled(contact.lastCallDate)}</Detail>
          <Detail label="Created">{formatDate(contact.createdAt)}</Detail>
          <Detail label="Updated">{formatDate(contact.updatedAt)}</Detail>
          <Detail label="Tags">
            <div className="flex flex-wrap gap-1">
              {contact.tags.length ? (
                contact.tags.map((t) => (
                  <Badge key={t} variant="secondary">
                    {t}
                  </Badge>
                ))
              ) : (
                <span className="text-muted-foreground">None</span>
              )}
            </div>
          </Detail>
          <div className="sm:col-span-2">
            <Detail label="Notes">
              <p className="whitespace-pre-wrap">
                {contact.notes ?? <span className="text-muted-foreground">None</span>}
              </p>
            </Detail>
          </div>
        </CardContent>
      </Card>
      <ContactReachCard contactId={contact.id} enabled={!deleting} />
      <ContactCallsCard contactId={contact.id} enabled={!deleting} />
      <ContactEmailsCard contactId={contact.id} enabled={!deleting} />
      <HistoryCard history={history} />
      <SendEmailDialog contact={contact} open={emailing} onOpenChange={setEmailing} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Are you sure?"
        description="This will permanently delete the contact. This action cannot be undone."
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={handleDelete}
      />
    </div>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</span>
      <div className="text-sm">{children}</div>
    </div>
  );
}

/** The Contact History card: field names in title case, old value struck through, arrow, new value. */
function HistoryCard({ history }: { history: HistoryEntry[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Contact History</CardTitle>
      </CardHeader>
      <CardContent>
        {history.length === 0 ? (
          <p className="text-sm text-muted-foreground">No changes yet.</p>
        ) : (
          <ol aria-label="Contact history" className="flex flex-col gap-3">
            {history.map((entry) => (
              <li key={entry.id} className="rounded-md border border-border p-3 text-sm">
                <p className="mb-2 text-xs text-muted-foreground">{formatMoment(entry.changedAt)}</p>
                <ul className="flex flex-col gap-1">
                  {entry.changedFields.map((field) => (
                    <li key={field}>
                      <span className="font-medium">{titleCaseField(field)}:</span>{' '}
                      <s className="text-muted-foreground">{historyValue(entry.previousValues[field])}</s> →{' '}
                      <span>{historyValue(entry.newValues[field])}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
