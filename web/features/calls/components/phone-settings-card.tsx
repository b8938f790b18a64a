import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CallerIdInputSchema } from '#domain/calls/call.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClickedSetting } from '../../../lib/use-clicked-setting.ts';
import {
  useAddCallerId,
  useCallingSetup,
  useDeleteCallerId,
  useLocalPresence,
  useMakeDefaultCallerId,
} from '../api/calls-queries.ts';
import { callingFromText } from '../local-presence.ts';
import { SimulateIncomingCall } from './simulate-incoming-call.tsx';

/** What the simulator does with a dialled number (README "Calling", server/telephony/simulator.ts). */
const SIMULATOR_OUTCOMES = [
  ['ends in 0', 'busy'],
  ['ends in 1', 'rings, no answer'],
  ['ends in 2', 'fails'],
  ['ends in 3', 'an answering machine answers after 2 s'],
  ['ends in 5 / 6', 'a person answers after 4.5 s / 3.1 s, talks 30 s'],
  ['area code 999 / 998 / 997', 'refused: not verified / geo-permissions / trial account'],
  ['area code 996', 'the provider never answers (the call fails after 10 s)'],
  ['anything else', 'rings, answered after 3 s, talks 30 s'],
];

/**
 * Settings → Phone (decision 000 "Caller-ID numbers"): the numbers a user calls from, one of them the default.
 * On the simulator a caller ID exists out of the box, so the first call needs no set-up.
 */
export function PhoneSettingsCard() {
  const setup = useCallingSetup();
  const add = useAddCallerId();
  const makeDefault = useMakeDefaultCallerId();
  const remove = useDeleteCallerId();
  const localPresence = useLocalPresence();
  const localPresenceShown = useClickedSetting(setup.data?.localPresence);
  const [number, setNumber] = useState('');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);

  const handleAdd = (event: FormEvent) => {
    event.preventDefault();
    const parsed = CallerIdInputSchema.safeParse({ number, label: label || undefined });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid number');
    setError(null);
    add.mutate(parsed.data, {
      onSuccess: () => {
        setNumber('');
        setLabel('');
        toast.success('Caller ID added');
      },
      onError: (e) => setError(e.message),
    });
  };

  if (setup.isPending) return <Spinner />;
  const data = setup.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Phone</CardTitle>
        <CardDescription>
          {data?.provider === 'twilio'
            ? 'Calls go out through Twilio, from the caller ID you choose (it must be one of your Twilio numbers).'
            : 'Calls go through the built-in simulator: nothing real is dialled and no account is needed.'}{' '}
          {data && `Calls are placed from ${callingFromText(data)} unless you choose otherwise.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {data && data.callerIds.length > 0 && (
          <ul
            aria-label="Caller IDs"
            className="flex flex-col divide-y divide-border rounded-md border border-border text-sm"
          >
            {data.callerIds.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center gap-3 p-3">
                <span className="font-medium">{formatPhoneForDisplay(c.number)}</span>
                {c.label && <span className="text-muted-foreground">{c.label}</span>}
                {c.isDefault && <Badge variant="secondary">Default</Badge>}
                <div className="ml-auto flex gap-1">
                  {!c.isDefault && (
                    <Button variant="ghost" size="sm" onClick={() => makeDefault.mutate(c.id)}>
                      Make default
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => remove.mutate(c.id)}
                    aria-label={`Remove ${c.number}`}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {data && (
          <div className="flex items-start gap-2 text-sm">
            <input
              id="local-presence"
              type="checkbox"
              className="mt-0.5 size-4 accent-primary"
              checked={localPresenceShown.shown ?? data.localPresence}
              disabled={localPresence.isPending}
              onChange={(e) =>
                localPresence.mutate(e.target.checked, {
                  onError: (err) =>
                    toast.error('Could not save local presence', { description: err.message }),
                  onSettled: localPresenceShown.click(e.target.checked),
                })
              }
            />
            <Label htmlFor="local-presence" className="flex flex-col items-start gap-0.5 font-normal">
              <span className="font-medium">Local presence</span>
              <span className="text-muted-foreground">
                With several caller IDs, each call goes out from the one nearest the contact: the same area
                code, else the same state, else the same time zone, else your default.
                {data.callerIds.length < 2 && ' Add a second caller ID to use it.'}
              </span>
            </Label>
          </div>
        )}
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={handleAdd}
          noValidate
          aria-label="Add a caller ID"
        >
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="caller-id-number">Caller ID number</Label>
            <Input
              id="caller-id-number"
              type="tel"
              value={number}
              onChange={(e) => setNumber(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="caller-id-label">Label (optional)</Label>
            <Input id="caller-id-label" value={label} onChange={(e) => setLabel(e.target.value)} />
          </div>
          <Button type="submit" disabled={add.isPending}>
            Add
          </Button>
        </form>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <SimulateIncomingCall />
        {data?.provider === 'simulator' && (
          <div className="text-sm">
            <p className="mb-1 font-medium">What the simulator does with the number you call</p>
            <table className="w-full text-left text-muted-foreground">
              <tbody>
                {SIMULATOR_OUTCOMES.map(([when, what]) => (
                  <tr key={when}>
                    <td className="py-0.5 pr-4">{when}</td>
                    <td>{what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
