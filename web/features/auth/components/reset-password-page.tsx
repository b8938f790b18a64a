import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { PASSWORD_MIN_LENGTH } from '#domain/auth/credentials.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fetchSystemStatus, requestPasswordReset, resetPassword } from '../api/auth-requests.ts';

/** /reset-password: ask for a link by e-mail, or (with ?token=) choose a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const error = params.get('error');
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        {token ? (
          <ChooseNewPassword token={token} />
        ) : (
          <RequestLink invalidLink={error === 'INVALID_TOKEN'} />
        )}
      </Card>
    </div>
  );
}

function RequestLink({ invalidLink }: { invalidLink: boolean }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const status = useQuery({ queryKey: ['system-status'], queryFn: fetchSystemStatus });
  const mailConfigured = status.data?.systemMailConfigured ?? true;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return toast.error('Missing Information', { description: 'Please enter your email.' });
    try {
      await requestPasswordReset(email.trim());
      setSent(true);
    } catch (e) {
      toast.error('Error', { description: e instanceof Error ? e.message : 'An unexpected error occurred' });
    }
  };

  return (
    <>
      <CardHeader>
        <CardTitle>Reset your password</CardTitle>
        <CardDescription>
          {invalidLink
            ? 'That reset link is invalid or has expired. Ask for a new one.'
            : 'We will send a reset link to your email.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!mailConfigured && (
          <p role="note" className="rounded-md bg-muted p-3 text-sm text-muted-foreground">
            This instance has no mail server configured, so the link will not reach your inbox: ask your
            administrator for a one-time reset link.
          </p>
        )}
        {sent ? (
          <p role="status" className="text-sm">
            {mailConfigured
              ? 'If an account exists for that address, a reset link is on its way.'
              : 'Request recorded. Your administrator can give you the reset link.'}
          </p>
        ) : (
          <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit(e)} noValidate>
            <div className="flex flex-col gap-2">
              <Label htmlFor="reset-email">Email</Label>
              <Input id="reset-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <Button type="submit">Send reset link</Button>
          </form>
        )}
        <Link to="/auth" className="text-center text-sm text-muted-foreground hover:underline">
          Back to sign in
        </Link>
      </CardContent>
    </>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const navigate = useNavigate();

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) {
      return toast.error('Password too short', {
        description: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
      });
    }
    try {
      await resetPassword(token, password);
      toast.success('Password updated', { description: 'Sign in with your new password.' });
      await navigate('/auth', { replace: true });
    } catch (e) {
      const message =
        e instanceof ApiError && e.code === 'INVALID_TOKEN'
          ? 'That reset link is invalid or has expired.'
          : e instanceof Error
            ? e.message
            : '';
      toast.error('Could not reset password', { description: message || 'An unexpected error occurred' });
    }
  };

  return (
    <>
      <CardHeader>
        <CardTitle>Choose a new password</CardTitle>
        <CardDescription>Signing in elsewhere with the old password will stop working.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit(e)} noValidate>
          <div className="flex flex-col gap-2">
            <Label htmlFor="new-password">New password</Label>
            <Input
              id="new-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <Button type="submit">Set new password</Button>
        </form>
      </CardContent>
    </>
  );
}
