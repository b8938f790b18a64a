import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { renderMergeFields } from '#domain/email/merge-fields.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { useEmailConfiguration, useEmailTemplates, useSendEmail } from '../api/email-queries.ts';

import type { EmailRecipient } from './send-email-dialog.tsx';

/** The Send Email form for one contact; loaded when the dialog first opens. */
export function SendEmailForm({ contact, onDone }: { contact: EmailRecipient; onDone: () => void }) {
  const templates = useEmailTemplates();
  const configuration = useEmailConfiguration();
  const send = useSendEmail(contact.id);
  const fallback = templates.data?.find((t) => t.isDefault);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [subject, setSubject] = useState<string | null>(null);
  const [content, setContent] = useState<string | null>(null);
  // Until the person types, the default template (if any) fills the form.
  const chosen = templateId ?? fallback?.id ?? '';
  const template = templates.data?.find((t) => t.id === chosen);
  const shownSubject = subject ?? (template ? renderMergeFields(template.subject, contact) : '');
  const shownContent = content ?? (template ? renderMergeFields(template.content, contact) : '');
  const fullName = `${contact.firstName} ${contact.lastName}`.trim();

  const chooseTemplate = (id: string) => {
    const next = templates.data?.find((t) => t.id === id);
    setTemplateId(id);
    setSubject(next ? renderMergeFields(next.subject, contact) : '');
    setContent(next ? renderMergeFields(next.content, contact) : '');
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!shownSubject.trim() || !shownContent.trim()) return;
    send.mutate(
      { subject: shownSubject, content: shownContent, templateId: chosen || null },
      {
        onSuccess: ({ email }) => {
          if (email.delivery === 'smtp')
            toast.success('Email sent successfully', {
              description: `Your email to ${fullName} has been sent.`,
            });
          else
            toast.info('Saved to the outbox', {
              description: `No mail server is configured, so the e-mail to ${fullName} was not sent. It is in your outbox; set up a mail server in Settings → Email.`,
            });
          setTemplateId(null);
          setSubject(null);
          setContent(null);
          onDone();
        },
        onError: (error) =>
          toast.error('Error sending email', {
            description: error.message || 'An error occurred while sending the email.',
          }),
      },
    );
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Send Email</DialogTitle>
        <DialogDescription>
          {configuration.data
            ? `Sent through ${configuration.data.server} as ${configuration.data.email}.`
            : 'No mail server is configured: the e-mail will be kept in your outbox, not sent.'}{' '}
          <Link to="/settings?tab=email" className="text-primary hover:underline">
            Email settings
          </Link>
        </DialogDescription>
      </DialogHeader>
      <form className="flex flex-col gap-3" onSubmit={handleSubmit} noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="email-to">To</Label>
          <Input id="email-to" value={contact.email} readOnly />
        </div>
        {templates.data && templates.data.length > 0 && (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="email-template">Template</Label>
            <NativeSelect id="email-template" value={chosen} onChange={(e) => chooseTemplate(e.target.value)}>
              <option value="">No template</option>
              {templates.data.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                  {t.isDefault ? ' (default)' : ''}
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="email-subject">Subject</Label>
          <Input id="email-subject" value={shownSubject} onChange={(e) => setSubject(e.target.value)} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="email-message">Message</Label>
          <Textarea
            id="email-message"
            rows={10}
            value={shownContent}
            onChange={(e) => setContent(e.target.value)}
          />
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={send.isPending || !shownSubject.trim() || !shownContent.trim()}>
            {send.isPending ? 'Sending...' : 'Send Email'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
