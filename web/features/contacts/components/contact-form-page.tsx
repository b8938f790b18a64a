import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft } from 'lucide-react';
import {
  CONTACT_STATUSES,
  ContactStatusSchema,
  contactFormErrors,
  type Contact,
  type ContactStatus,
} from '#domain/contacts/contact.schema.ts';
import { parseTags } from '#domain/contacts/tags.ts';
import { knownTimeZones } from '#domain/time/zoned-time.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useContactDetail, useCreateContact, useUpdateContact } from '../api/contacts-queries.ts';
import { useMissingContactRedirect } from './use-missing-contact-redirect.ts';

type FormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  title: string;
  status: ContactStatus;
  notes: string;
  tags: string;
  timeZone: string;
  state: string;
};
type FieldKey = keyof FormValues;

function valuesOf(c: Contact | undefined): FormValues {
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    company: c?.company ?? '',
    title: c?.title ?? '',
    status: c?.status ?? 'new',
    notes: c?.notes ?? '',
    tags: c?.tags.join(', ') ?? '',
    timeZone: c?.timeZone ?? '',
    state: c?.state ?? '',
  };
}

/** /contacts/new and /contacts/{id}/edit: one form. /contacts/new?phone=… starts with that number (an unknown caller). */
export function ContactFormPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  if (!id)
    return (
      <ContactForm initial={{ ...valuesOf(undefined), phone: params.get('phone')?.slice(0, 40) ?? '' }} />
    );
  return <EditContact id={id} />;
}

function EditContact({ id }: { id: string }) {
  const detail = useContactDetail(id);
  useMissingContactRedirect(detail.error);
  if (!detail.data) return <Spinner />;
  return <ContactForm id={id} initial={valuesOf(detail.data.contact)} />;
}

function ContactForm({ id, initial }: { id?: string; initial: FormValues }) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const navigate = useNavigate();
  const create = useCreateContact();
  const update = useUpdateContact(id ?? '');
  const busy = create.isPending || update.isPending;

  const set = (key: FieldKey) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = contactFormErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      phone: values.phone.trim() || null,
      company: values.company.trim() || null,
      title: values.title.trim() || null,
      status: values.status,
      notes: values.notes.trim() || null,
      tags: parseTags(values.tags),
      timeZone: values.timeZone || null,
      state: values.state.trim() || null,
    };
    try {
      const { contact } = id ? await update.mutateAsync(input) : await create.mutateAsync(input);
      if (id)
        toast.success('Contact Updated', {
          description: `${contact.firstName} ${contact.lastName} was saved.`,
        });
      else
        toast.success('Contact Created', {
          description: `${contact.firstName} ${contact.lastName} was created and synced with the dialer.`,
        });
      await navigate(`/contacts/${contact.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) {
        const fieldErrors: Partial<Record<FieldKey, string>> = {};
        for (const issue of error.issues)
          fieldErrors[issue.path.split('.').at(-1) as FieldKey] = issue.message;
        setErrors(fieldErrors);
      }
      toast.error('Error', {
        description:
          error instanceof ApiError && error.status === 400
            ? error.message
            : 'Could not save contact. Please try again.',
      });
    }
  };

  const field = (key: FieldKey, label: string, type = 'text') => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`contact-${key}`}>{label}</Label>
      <Input
        id={`contact-${key}`}
        type={type}
        value={values[key]}
        onChange={set(key)}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `contact-${key}-error` : undefined}
      />
      {errors[key] && (
        <p id={`contact-${key}-error`} className="text-sm text-destructive">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <Button variant="ghost" className="self-start" asChild>
        <Link to={id ? `/contacts/${id}` : '/contacts'}>
          <ArrowLeft /> Back
        </Link>
      </Button>
      <Card>
        <CardHeader>
          <h1 className="text-lg font-semibold leading-none tracking-tight">
            {id ? 'Edit Contact' : 'Add New Contact'}
          </h1>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4 sm:grid-cols-2" onSubmit={(e) => void handleSubmit(e)} noValidate>
            {field('firstName', 'First Name')}
            {field('lastName', 'Last Name')}
            {field('email', 'Email', 'email')}
            {field('phone', 'Phone', 'tel')}
            {field('company', 'Company')}
            {field('title', 'Job Title')}
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="contact-status">Status</Label>
              <NativeSelect
                id="contact-status"
                value={values.status}
                onChange={(e) => setValues({ ...values, status: ContactStatusSchema.parse(e.target.value) })}
              >
                {CONTACT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s[0]!.toUpperCase() + s.slice(1)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {field('tags', 'Tags (comma separated)')}
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="contact-timeZone">Time zone</Label>
              <NativeSelect
                id="contact-timeZone"
                value={values.timeZone}
                onChange={set('timeZone')}
                aria-invalid={Boolean(errors.timeZone)}
              >
                <option value="">From the phone number</option>
                {knownTimeZones().map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </NativeSelect>
              {errors.timeZone && <p className="text-sm text-destructive">{errors.timeZone}</p>}
            </div>
            {field('state', 'State (US, such as FL)')}
            <div className="flex flex-col gap-1.5 sm:col-span-2">
              <Label htmlFor="contact-notes">Notes</Label>
              <Textarea id="contact-notes" value={values.notes} onChange={set('notes')} rows={5} />
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving...' : id ? 'Save Contact' : 'Create Contact'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
