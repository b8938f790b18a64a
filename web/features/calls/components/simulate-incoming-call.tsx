import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { INCOMING_RING_SECONDS, SimulateIncomingCallSchema } from '#domain/calls/incoming-call.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { useCallingSetup } from '../api/calls-queries.ts';
import { useSimulateIncomingCall } from '../api/incoming-calls.ts';

/**
 * The simulator's 'Simulate incoming call' (Settings → Phone and the dialer; decision 028): someone calls one of the
 * user's numbers from the number typed, through the same signed webhook a provider calls. It rings every open tab
 * for 25 s (at the simulator's pace), then is missed, and the caller leaves a voicemail of the chosen length (or
 * none). Nothing on Twilio, where real calls come in.
 */
export function SimulateIncomingCall({ idPrefix = 'simulate-incoming' }: { idPrefix?: string }) {
  const setup = useCallingSetup();
  const simulate = useSimulateIncomingCall();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [voicemailSeconds, setVoicemailSeconds] = useState('6');
  const [error, setError] = useState<string | null>(null);
  if (setup.data?.provider !== 'simulator') return null;
  const numbers = setup.data.callerIds;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = SimulateIncomingCallSchema.safeParse({
      from,
      to: to || undefined,
      voicemailSeconds: Number(voicemailSeconds),
    });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid number');
    setError(null);
    simulate.mutate(parsed.data, {
      onSuccess: () =>
        toast.success('Incoming call simulated', {
          description: `It rings for ${INCOMING_RING_SECONDS} seconds (at the simulator's pace); if nobody answers, it is missed${
            parsed.data.voicemailSeconds ? ' and the caller leaves a voicemail' : ''
          }.`,
        }),
      onError: (e) => setError(e.message),
    });
  };

  return (
    <form
      className="flex flex-col gap-2 text-sm"
      onSubmit={handleSubmit}
      noValidate
      aria-label="Simulate incoming call"
    >
      <p className="font-medium">Simulate incoming call</p>
      <p className="text-muted-foreground">
        Someone calls one of your numbers: it rings in every tab you have open, with who is calling.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${idPrefix}-from`}>Caller&apos;s number</Label>
          <Input id={`${idPrefix}-from`} type="tel" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        {numbers.length > 1 && (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${idPrefix}-to`}>Calls</Label>
            <NativeSelect id={`${idPrefix}-to`} value={to} onChange={(e) => setTo(e.target.value)}>
              <option value="">Your default number</option>
              {numbers.map((n) => (
                <option key={n.id} value={n.numberE164}>
                  {formatPhoneForDisplay(n.number)}
                  {n.label ? ` (${n.label})` : ''}
                </option>
              ))}
            </NativeSelect>
          </div>
        )}
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${idPrefix}-voicemail`}>If nobody answers</Label>
          <NativeSelect
            id={`${idPrefix}-voicemail`}
            value={voicemailSeconds}
            onChange={(e) => setVoicemailSeconds(e.target.value)}
          >
            <option value="6">The caller leaves a 6-second voicemail</option>
            <option value="45">The caller leaves a 45-second voicemail</option>
            <option value="0">The caller hangs up at the tone</option>
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline" disabled={simulate.isPending}>
          Simulate incoming call
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
