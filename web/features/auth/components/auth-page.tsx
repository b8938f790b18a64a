import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  AUTH_MESSAGES,
  authErrorToast,
  DEACTIVATED_MESSAGE,
  DENIED_MESSAGE,
  type Toast,
} from '#domain/auth/auth-messages.ts';
import { homePathForRole } from '#domain/auth/roles.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { Brand } from '../../../components/brand.tsx';
import { ThemeToggle } from '../../theme/public.ts';
import { signInWithEmail, signUpWithEmail } from '../api/auth-requests.ts';
import type { SessionState } from '#domain/profiles/profile.schema.ts';
import { fetchSession, sessionQueryKey, useSession } from '../api/session.ts';

const POST_SIGN_IN_PROFILE_DELAY_MS = 100;

export function showToast(t: Toast): void {
  if (t.destructive) toast.error(t.title, { description: t.description });
  else toast.success(t.title, { description: t.description });
}

function toastForError(error: unknown): void {
  if (error instanceof ApiError) showToast(authErrorToast({ code: error.code, message: error.message }));
  else showToast(authErrorToast({}));
}

/** /auth: the Welcome card with Sign In and Sign Up. */
export function AuthPage() {
  const { data: profile, isPending, reason } = useSession();
  // Where a person who just signed in goes (admin → /admin); someone already signed in goes to /contacts.
  const [target, setTarget] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const handleSignedIn = (session: SessionState) => {
    setTarget(homePathForRole(session.profile?.role));
    queryClient.setQueryData(sessionQueryKey, session);
  };
  if (isPending && !target) return <FullPageSpinner />;
  if (profile) return <Navigate to={target ?? '/contacts'} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex h-14 items-center justify-between border-b border-border px-4">
        <Link to="/" aria-label="CallCRM home">
          <Brand />
        </Link>
        <ThemeToggle />
      </header>
      <div className="flex flex-1 items-center justify-center p-4">
        <Card className="w-full max-w-md">
          <CardHeader>
            <CardTitle>Welcome</CardTitle>
            <CardDescription>Sign in to your account or create a new one.</CardDescription>
          </CardHeader>
          <CardContent>
            {(reason === 'denied' || reason === 'deactivated') && (
              <p
                role="alert"
                className="mb-4 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
              >
                {reason === 'denied' ? DENIED_MESSAGE : DEACTIVATED_MESSAGE}
              </p>
            )}
            <Tabs defaultValue="sign-in">
              <TabsList className="w-full">
                <TabsTrigger value="sign-in">Sign In</TabsTrigger>
                <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
              </TabsList>
              <TabsContent value="sign-in">
                <CredentialsForm mode="sign-in" onSignedIn={handleSignedIn} />
              </TabsContent>
              <TabsContent value="sign-up">
                <CredentialsForm mode="sign-up" onSignedIn={handleSignedIn} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function useCredentials() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  return {
    email,
    setEmail,
    password,
    setPassword,
    busy,
    setBusy,
    clear: () => (setEmail(''), setPassword('')),
  };
}

function CredentialFields({ idPrefix, form }: { idPrefix: string; form: ReturnType<typeof useCredentials> }) {
  return (
    <>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-email`}>Email</Label>
        <Input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => form.setEmail(e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-password`}>Password</Label>
        <Input
          id={`${idPrefix}-password`}
          type="password"
          autoComplete={idPrefix === 'sign-up' ? 'new-password' : 'current-password'}
          value={form.password}
          onChange={(e) => form.setPassword(e.target.value)}
        />
      </div>
    </>
  );
}

type SignedInHandler = (session: SessionState) => void;

/** If the profile cannot be fetched after signing in, the person still goes to /contacts. */
async function finishSignIn(
  onSignedIn: SignedInHandler,
  navigate: ReturnType<typeof useNavigate>,
): Promise<void> {
  const session = await fetchSession().catch(() => null);
  if (session?.profile) onSignedIn(session);
  else await navigate('/contacts', { replace: true });
}

type Mode = 'sign-in' | 'sign-up';

const MODES: Record<
  Mode,
  { submit: (email: string, password: string) => Promise<unknown>; label: string; busyLabel: string }
> = {
  'sign-in': { submit: signInWithEmail, label: 'Sign In', busyLabel: 'Signing in...' },
  'sign-up': { submit: signUpWithEmail, label: 'Sign Up', busyLabel: 'Creating account...' },
};

/** One form for both tabs: Enter submits; empty fields get the spec's 'Missing Information' toast. */
function CredentialsForm({ mode, onSignedIn }: { mode: Mode; onSignedIn: SignedInHandler }) {
  const form = useCredentials();
  const navigate = useNavigate();
  const { submit, label, busyLabel } = MODES[mode];

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.email.trim() || !form.password) return showToast(AUTH_MESSAGES.missingInformation);
    form.setBusy(true);
    try {
      await submit(form.email.trim(), form.password);
      if (mode === 'sign-up') {
        showToast(AUTH_MESSAGES.signUpSuccess);
        form.clear();
      } else {
        showToast(AUTH_MESSAGES.signInSuccess);
        // After a short delay the profile is ensured and the person routed (after sign-in routing).
        await new Promise((r) => setTimeout(r, POST_SIGN_IN_PROFILE_DELAY_MS));
      }
      await finishSignIn(onSignedIn, navigate);
    } catch (error) {
      toastForError(error);
    } finally {
      form.setBusy(false);
    }
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit(e)} noValidate>
      <CredentialFields idPrefix={mode} form={form} />
      {mode === 'sign-up' && (
        <p className="rounded-md bg-muted p-3 text-sm text-muted-foreground">
          New accounts require admin approval before you can use the app.
        </p>
      )}
      <Button type="submit" disabled={form.busy}>
        {form.busy ? busyLabel : label}
      </Button>
      {mode === 'sign-in' && (
        <Link
          to="/reset-password"
          className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline"
        >
          Forgot your password?
        </Link>
      )}
    </form>
  );
}
