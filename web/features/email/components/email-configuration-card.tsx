import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  DEFAULT_SMTP_PORT,
  EmailConfigurationInputSchema,
  type EmailConfiguration,
} from '#domain/email/email.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  useEmailConfiguration,
  useRemoveEmailConfiguration,
  useSaveEmailConfiguration,
  useTestEmailConfiguration,
} from '../api/email-queries.ts';

type Form = {
  email: string;
  server: string;
  port: string;
  username: string;
  password: string;
  fromName: string;
};
type Field = keyof Form;

const formFrom = (c: EmailConfiguration | null): Form => ({
  email: c?.email ?? '',
  server: c?.server ?? '',
  port: String(c?.port ?? DEFAULT_SMTP_PORT),
  username: c?.username ?? '',
  password: '',
  fromName: c?.fromName ?? '',
});

/**
 * Settings → Email, e-mail configuration: e-mail, server, port (587 by default) and
 * password required. TLS is always on (decision 000). The stored password is never shown; leaving the field empty
 * keeps it. "Send test e-mail" tries the settings in the form before anyone relies on them.
 */
export function EmailConfigurationCard() {
  const configuration = useEmailConfiguration();
  if (configuration.isPending) return <Spinner />;
  return (
    <ConfigurationForm key={configuration.data?.updatedAt ?? 'none'} current={configuration.data ?? null} />
  );
}

function ConfigurationForm({ current }: { current: EmailConfiguration | null }) {
  const [form, setForm] = useState<Form>(() => formFrom(current));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [removing, setRemoving] = useState(false);
  const save = useSaveEmailConfiguration();
  const test = useTestEmailConfiguration();
  const remove = useRemoveEmailConfiguration();

  /** The form as the API takes it, or null with the fields at fault shown (the same rules the server applies). */
  const valid = () => {
    const input = { ...form, password: form.password || undefined };
    const result = EmailConfigurationInputSchema.safeParse(input);
    const next: Partial<Record<Field, string>> = {};
    for (const issue of result.error?.issues ?? []) next[issue.path[0] as Field] ??= issue.message;
    if (!form.password && !current) next.password = 'Password is required';
    setErrors(next);
    return Object.keys(next).length === 0 ? input : null;
  };

  const handleSave = (event: FormEvent) => {
    event.preventDefault();
    const input = valid();
    if (!input) return;
    save.mutate(input, {
      onSuccess: () =>
        toast.success('Email configuration saved', {
          description: 'E-mails to contacts now go through this server.',
        }),
      onError: (error) => toast.error('Error saving email configuration', { description: error.message }),
    });
  };
  const handleTest = () => {
    const input = valid();
    if (!input) return;
    test.mutate(input, {
      onSuccess: ({ sentTo }) =>
        toast.success('Test e-mail sent', { description: `Check the inbox of ${sentTo}.` }),
      onError: (error) => toast.error('Test e-mail failed', { description: error.message }),
    });
  };

  const field = (name: Field, label: string, props: Partial<React.ComponentProps<typeof Input>> = {}) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`smtp-${name}`}>{label}</Label>
      <Input
        id={`smtp-${name}`}
        value={form[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `smtp-${name}-error` : undefined}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
        {...props}
      />
      {errors[name] && (
        <p id={`smtp-${name}-error`} className="text-sm text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Email Configuration</CardTitle>
        <CardDescription>
          {current
            ? `E-mails to contacts go out through ${current.server}:${current.port} as ${current.email}.`
            : 'No mail server is configured yet: e-mails you write are kept in your outbox instead of being sent.'}{' '}
          A secure connection is always used: STARTTLS, or TLS from the start on port 465.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={handleSave}
          noValidate
          aria-label="Email configuration"
        >
          {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
          {field('fromName', 'Sender name (optional)')}
          {field('server', 'SMTP server', { placeholder: 'smtp.example.com' })}
          {field('port', 'Port', { inputMode: 'numeric' })}
          {field('username', 'Username (if not the e-mail)', { autoComplete: 'off' })}
          {field('password', 'Password', {
            type: 'password',
            autoComplete: 'new-password',
            placeholder: current ? 'Stored — leave empty to keep it' : '',
          })}
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button type="button" variant="outline" onClick={handleTest} disabled={test.isPending}>
              {test.isPending ? 'Sending test...' : 'Send test e-mail'}
            </Button>
            {current && (
              <Button type="button" variant="ghost" className="ml-auto" onClick={() => setRemoving(true)}>
                Remove configuration
              </Button>
            )}
          </div>
        </form>
      </CardContent>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove the mail server?"
        description="E-mails you write will be kept in your outbox instead of being sent, until you configure a server again."
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setRemoving(false);
              toast.success('Email configuration removed');
            },
            onError: (error) =>
              toast.error('Error saving email configuration', { description: error.message }),
          })
        }
      />
    </Card>
  );
}
