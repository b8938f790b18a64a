import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#domain/auth/credentials.schema.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { changePassword } from '../auth/public.ts';

/**
 * Settings → Profile, the password: asks for the current one; on success every other session of the
 * account is signed out (a lost laptop stops working), this one stays.
 */
export function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next.length < PASSWORD_MIN_LENGTH)
      return void toast.error('Password too short', {
        description: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
      });
    if (next !== again)
      return void toast.error('Passwords do not match', { description: 'Type the new password twice.' });
    setBusy(true);
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setAgain('');
      toast.success('Password changed', { description: 'Your other sessions were signed out.' });
    } catch (error) {
      toast.error('Could not change password', {
        description: error instanceof Error ? error.message : 'Please try again',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex max-w-lg flex-col gap-4" onSubmit={(e) => void submit(e)} aria-label="Password">
          <PasswordField
            id="current-password"
            label="Current password"
            value={current}
            onChange={setCurrent}
          />
          <PasswordField id="new-password" label="New password" value={next} onChange={setNext} />
          <PasswordField id="repeat-password" label="Repeat new password" value={again} onChange={setAgain} />
          <Button type="submit" className="self-start" disabled={busy}>
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function PasswordField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type="password"
        autoComplete={props.id === 'current-password' ? 'current-password' : 'new-password'}
        required
        maxLength={PASSWORD_MAX_LENGTH}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
