import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DialerContactInputSchema, dialerContactProblem } from '#domain/dialer/dialer-contact.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { campaignActions } from '#domain/campaigns/campaign-state.ts';
import { SEQUENCE_MESSAGES } from '#domain/campaigns/email-sequence.schema.ts';
import { useCampaigns } from '../../campaigns/public.ts';
import { useEmailTemplates } from '../../email/public.ts';
import { useAddDialerContact } from '../api/dialer-queries.ts';

const FIELDS = [
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['company', 'Company'],
] as const;
type Field = (typeof FIELDS)[number][0];

/**
 * Add New Contact in the dialer: names, phone or e-mail, company, and a send-e-mail option
 * (disabled without an e-mail) with a template choice (the default template preselected) or a sequence choice (the
 * contact is enrolled in one of the user's e-mail sequences); choosing a template clears the sequence, and the
 * reverse.
 */
export function AddDialerContactForm({ onDone, queueId }: { onDone: () => void; queueId?: string }) {
  const [values, setValues] = useState<Record<Field, string>>({
    firstName: '',
    lastName: '',
    phone: '',
    email: '',
    company: '',
  });
  const [sendEmail, setSendEmail] = useState(false);
  const templates = useEmailTemplates();
  // undefined: not chosen yet (the default template); null: none, as a sequence was chosen instead.
  const [templateId, setTemplateId] = useState<string | null | undefined>(undefined);
  const [sequenceId, setSequenceId] = useState<string | null>(null);
  const campaigns = useCampaigns('email');
  const sequences = campaigns.data?.filter(
    (c) => c.type === 'sequence' && campaignActions(c.status, c.type).enroll,
  );
  const chosenTemplate =
    templateId === undefined
      ? (templates.data?.find((t) => t.isDefault)?.id ?? templates.data?.[0]?.id ?? null)
      : templateId;
  const chooseTemplate = (id: string) => {
    setTemplateId(id || null);
    if (id) setSequenceId(null);
  };
  const chooseSequence = (id: string) => {
    setSequenceId(id || null);
    if (id) setTemplateId(null);
  };
  const add = useAddDialerContact();
  const hasEmail = values.email.trim() !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = DialerContactInputSchema.parse({
      ...values,
      sendEmail: sendEmail && hasEmail,
      templateId: sendEmail && hasEmail && !sequenceId ? chosenTemplate : null,
      sequenceId: sendEmail && hasEmail ? sequenceId : null,
      queueId: queueId ?? null,
    });
    const problem = dialerContactProblem(input);
    if (problem) return void toast.error(problem.title, { description: problem.description });
    add.mutate(input, {
      onSuccess: ({ contact, email, sequence }) => {
        toast.success('Contact added', {
          description: `${contact.firstName} ${contact.lastName} was added to your contacts.`,
        });
        if (email)
          toast.success(email.delivery === 'outbox' ? 'Email saved to outbox' : 'Email sent', {
            description:
              email.delivery === 'outbox'
                ? 'No mail server is configured, so it was saved to the outbox and not sent.'
                : `Sent to ${email.toAddress}.`,
          });
        if (sequence)
          toast.success('Enrolled in sequence', {
            description: `${contact.firstName} ${contact.lastName} joined ${sequence.name}.`,
          });
        onDone();
      },
      onError: (error) =>
        toast.error(
          sequenceId
            ? SEQUENCE_MESSAGES.enrollFailed
            : /mail/i.test(error.message)
              ? 'Email sending failed'
              : 'Error: Failed to add contact',
          { description: error.message },
        ),
    });
  };

  return (
    <form
      className="flex flex-col gap-3 rounded-md border border-border p-3"
      onSubmit={submit}
      aria-label="Add New Contact"
    >
      <h3 className="font-semibold">Add New Contact</h3>
      <div className="grid grid-cols-2 gap-2">
        {FIELDS.map(([field, label]) => (
          <div key={field} className="flex flex-col gap-1">
            <Label htmlFor={`dialer-${field}`}>{label}</Label>
            <Input
              id={`dialer-${field}`}
              type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
              value={values[field]}
              onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
            />
          </div>
        ))}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={sendEmail && hasEmail}
          disabled={!hasEmail}
          onChange={(e) => setSendEmail(e.target.checked)}
        />
        Send an email
      </label>
      {sendEmail && hasEmail && (
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="dialer-template">Template</Label>
            <NativeSelect
              id="dialer-template"
              value={chosenTemplate ?? ''}
              onChange={(e) => chooseTemplate(e.target.value)}
            >
              <option value="">No template</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
            {templates.data?.length === 0 && (
              <p className="text-xs text-muted-foreground">
                No templates yet: create one in Settings → Email first.
              </p>
            )}
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="dialer-sequence">Sequence</Label>
            <NativeSelect
              id="dialer-sequence"
              value={sequenceId ?? ''}
              onChange={(e) => chooseSequence(e.target.value)}
            >
              <option value="">No sequence</option>
              {sequences?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </NativeSelect>
            {sequences?.length === 0 && (
              <p className="text-xs text-muted-foreground">No sequences yet: create one in Projects first.</p>
            )}
          </div>
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add Contact'}
        </Button>
      </div>
    </form>
  );
}
